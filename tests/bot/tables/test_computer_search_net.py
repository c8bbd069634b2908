"""A computer search the safety net cuts short is counted in the metrics and logged."""

from __future__ import annotations

import logging

import pytest

import rules.players as players
from bot.metrics import SEARCHES_CAPPED
from bot.tables.computers import decide
from rules import GAMES
from rules.core import Game, State, derive_seed
from rules.players.registry import heuristic_for


def _searched(game: Game) -> tuple[State, int]:
    """A position of easy play where the searching levels search."""
    heur = heuristic_for(game.id)
    state = game.setup(3, "net")
    for step in range(200):
        seat = sorted(game.active_seats(state))[0]
        legal = game.legal_actions(state, seat)
        if len(heur.candidates(state, seat, legal)) > 1 and heur.searchable(state):
            return state, seat
        state = game.apply(state, seat, players.choose(game, state, seat, "easy",
                                                       str(step))).state
    raise AssertionError("no searched position")


async def test_a_search_cut_by_the_safety_net_is_counted_and_logged(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    game = GAMES["palatinus"]
    state, seat = _searched(game)
    ticks = iter(range(10_000))
    # Each reading of this clock is two nets' worth of CPU later: one iteration, then the net.
    monkeypatch.setattr(players, "search_clock", lambda: next(ticks) * 2.0 * players.NET_SECONDS)
    counted = SEARCHES_CAPPED.labels(game=game.id, level="hard")
    before = counted._value.get()
    with caplog.at_level(logging.WARNING, logger="bot.tables.computers"):
        action = await decide(game, state, seat, "hard", "seed", 7, table_id=42)
    assert action in game.legal_actions(state, seat)
    assert counted._value.get() == before + 1
    assert [r for r in caplog.records if "table 42" in r.getMessage()
            and game.id in r.getMessage() and "hard" in r.getMessage()]
    assert players.decide(game, state, seat, "hard", derive_seed("seed", 7, seat)).capped


async def test_a_whole_search_is_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GAMES["palatinus"]
    state, seat = _searched(game)
    counted = SEARCHES_CAPPED.labels(game=game.id, level="normal")
    before = counted._value.get()
    await decide(game, state, seat, "normal", "seed", 7, table_id=42)
    assert counted._value.get() == before
