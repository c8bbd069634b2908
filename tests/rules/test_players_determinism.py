"""A searching player's move depends on the view, level and seed, never on the machine's load.

The same decisions are taken twice in one process, once as the machine is and once with every
core kept busy by other processes: the moves must be equal and no search may stop short of its
budget (a search stopped by a clock, as the former wall-clock cap did, fails this under load).
A safety net forced tiny (a clock that runs fast) must cut the search and say so.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from typing import Any

import pytest

import rules.players as players
from rules import GAMES
from rules.core import Game, derive_seed
from rules.players import Decision, decide
from rules.players.registry import heuristic_for

PLAYERS = {"hadrians-wall": 2, "minerva": 2, "palatinus": 3, "palermo": 3}
POSITIONS = 2  # per game: few, so the test takes seconds
HOG_SECONDS = 120.0  # the hog stops by itself after this, should the test die before stopping it


def _burn(stop: Event, rounds: Synchronized[int], seconds: float) -> None:
    end = time.monotonic() + seconds
    while not stop.is_set() and time.monotonic() < end:
        sum(i * i for i in range(10_000))
        with rounds.get_lock():
            rounds.value += 1


@contextmanager
def _hog() -> Iterator[Synchronized[int]]:
    """Every core busy in another process while the block runs; yields the count of rounds
    of busy work they did."""
    context = multiprocessing.get_context("spawn")  # forking a process with threads may hang
    stop = context.Event()
    rounds: Synchronized[int] = context.Value("q", 0)
    procs = [context.Process(target=_burn, args=(stop, rounds, HOG_SECONDS), daemon=True)
             for _ in range(os.cpu_count() or 2)]
    try:
        for p in procs:
            p.start()
        yield rounds
    finally:
        stop.set()
        for p in procs:
            if p.pid is not None:
                p.join(timeout=10)
                if p.is_alive():
                    p.terminate()
                    p.join()


def _searched_positions(game: Game) -> list[tuple[Any, int]]:
    """Positions of seeded easy play where the searching levels search (several candidates
    the heuristic can tell apart), spread over a game."""
    found: list[tuple[Any, int]] = []
    heur = heuristic_for(game.id)
    state = game.setup(PLAYERS[game.id], f"determinism-{game.id}")
    for step in range(400):
        active = sorted(game.active_seats(state))
        if not active or len(found) >= POSITIONS:
            break
        seat = active[0]
        legal = game.legal_actions(state, seat)
        if (step % 7 == 3 and len(heur.candidates(state, seat, legal)) > 1
                and heur.searchable(heur.horizon(state, seat))):
            found.append((state, seat))
        state = game.apply(state, seat, players.choose(game, state, seat, "easy",
                                                       derive_seed("walk", step))).state
    assert len(found) == POSITIONS, game.id
    return found


@cache
def _decisions() -> list[tuple[Game, Any, int, str]]:
    return [(GAMES[g], state, seat, level)
            for g in sorted(PLAYERS) for state, seat in _searched_positions(GAMES[g])
            for level in ("normal", "hard")]


def _decide_all() -> list[Decision]:
    return [decide(game, state, seat, level, derive_seed("determinism", n))
            for n, (game, state, seat, level) in enumerate(_decisions())]


def test_the_same_view_level_and_seed_give_the_same_move_under_load() -> None:
    quiet = _decide_all()
    with _hog() as rounds:
        loaded = _decide_all()
        busy = rounds.value
    assert busy > 0, "the other processes never ran"
    assert not [d for d in quiet + loaded if d.capped], "a search stopped short of its budget"
    differ = [f"{game.id} {level}" for (game, _, _, level), q, b
              in zip(_decisions(), quiet, loaded, strict=True) if q.action != b.action]
    assert differ == []


def test_a_search_the_safety_net_cuts_short_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state, seat, level = next(d for d in _decisions() if d[3] == "hard")
    ticks = iter(range(10_000))
    # Each reading of this clock is a net's worth of CPU later: one iteration, then the net.
    monkeypatch.setattr(players, "search_clock",
                        lambda: next(ticks) * 2.0 * players.NET_SECONDS)
    cut = decide(game, state, seat, level, "net")
    assert cut.capped
    monkeypatch.undo()
    whole = decide(game, state, seat, level, "net")
    assert not whole.capped
    assert isinstance(cut.action, dict) and isinstance(whole.action, dict)
