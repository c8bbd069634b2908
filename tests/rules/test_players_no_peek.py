"""Computer players never peek: twin states built by hand, and planted peeks that must be caught.

Every game whose registry entry says something is hidden is checked. A twin differs from a
position only in what the deciding seat cannot see (deck orders, other seats' hidden cards and
wolf pieces), made without ``determinize`` where ``tests/rules/twins`` has a module for the
game, so a ``determinize`` that forgets to re-deal something is caught too; any other game's
twins are re-deals by its ``determinize``. Every level must choose the same action in a
position and in its twins. The mutation tests plant each kind of peek and require the twin check
to fail on at least one position: a check that cannot catch a peek proves nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import rules.players as players
from rules import ENTRIES, GAMES
from rules.core import Game, derive_seed
from rules.players import LEVELS, choose
from rules.random_player import UniformRandomPlayer
from tests.rules.budgets import cap_budgets
from tests.rules.peeks import PlantedPeek
from tests.rules.twins import KITS

HIDDEN_GAMES = tuple(g for g, entry in sorted(ENTRIES.items()) if entry.facts.hidden)
REDEALS = 3  # twins of a position made by determinize, for a game without hand-made twins
WALKS = 2  # position walks per depth: random play, then easy play
WAIT_STEPS = 400  # how far the easy walk may go on looking for a decision that reads a card

REAL_BUDGET = players.budget


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small budgets keep the suite quick. A peek may change no decision at them (a planted
    "keep Minerva's deck order" passed here): ``test_players_no_peek_power`` holds the cases
    where a peek at each hidden part shows at the real budgets."""
    cap_budgets(monkeypatch, 8, 3)


def _twins(game: Game, state: Any, seat: int) -> Iterator[Any]:
    """The hand-made twins of a position, or re-deals of what the seat cannot see."""
    if game.id in KITS:
        yield from KITS[game.id].twins(state, seat)
        return
    for n in range(REDEALS):
        yield game.determinize(state, seat, f"redeal-{n}")


def _depths(game_id: str) -> range:
    """Random decisions before a position is examined, spread over the game's length (without
    a hand-made kit: over its middle, as its registry entry gives it)."""
    if game_id in KITS:
        depths: range = KITS[game_id].DEPTHS
        return depths
    middle = ENTRIES[game_id].facts.midgame_moves
    return range(1, middle + 1, max(1, middle // 6))


def _positions(game: Game) -> Iterator[tuple[Any, int]]:
    """Positions of random play, and (second walk) of easy play, which builds what random
    play seldom reaches (a Market buying from the Fate deck, say)."""
    kit = KITS.get(game.id)
    for walk, depth in itertools.product(range(WALKS), _depths(game.id)):
        state = game.setup(ENTRIES[game.id].facts.seats, f"twin-{walk}-{depth}")
        seed = derive_seed("twin-walk", game.id, walk, depth)
        chooser = UniformRandomPlayer(seed)
        wait = getattr(kit, "wait_for", None) if walk else None
        for step in range(depth + (WAIT_STEPS if wait else 0)):
            active = sorted(game.active_seats(state))
            if not active:
                break
            if step >= depth and (wait is None or wait(game.legal_actions(state, active[-1]))):
                break
            action = (chooser.choose(game, state, active[0]) if walk == 0
                      else choose(game, state, active[0], "easy", derive_seed(seed, step)))
            state = game.apply(state, active[0], action).state
        active = sorted(game.active_seats(state))
        if active:
            yield state, active[-1]


def _peeks(game: Game, levels: tuple[str, ...], first: bool = False) -> list[str]:
    """Where a level chose differently in a position and in one of its twins (with ``first``,
    only the first such place)."""
    found = []
    twins = 0
    for n, (state, seat) in enumerate(_positions(game)):
        for k, twin in enumerate(_twins(game, state, seat)):
            assert game.view(twin, seat) == game.view(state, seat), "the twin shows the seat more"
            if game.dump(twin) == game.dump(state):
                continue  # nothing hidden moved (a pool of equal pieces, say)
            twins += 1
            for level in levels:
                seed = derive_seed("peek", n, k)
                if choose(game, state, seat, level, seed) != choose(game, twin, seat, level, seed):
                    found.append(f"position {n}, twin {k}, {level}")
                    if first:
                        return found
    assert twins >= 10, "too few positions hide anything"
    return found


@pytest.mark.parametrize("game_id", HIDDEN_GAMES)
def test_every_level_decides_alike_in_hand_made_twins(game_id: str) -> None:
    assert _peeks(GAMES[game_id], LEVELS) == []


PLANTS = [(game_id, peek) for game_id, kit in sorted(KITS.items()) for peek in kit.PLANTS]


@pytest.mark.parametrize(("game_id", "peek"), PLANTS,
                         ids=[f"{g}: {p.name}" for g, p in PLANTS])
def test_a_planted_peek_is_caught(monkeypatch: pytest.MonkeyPatch, game_id: str,
                                  peek: PlantedPeek) -> None:
    game = GAMES[game_id]
    peek.plant(monkeypatch, game)
    if peek.real_budget:
        monkeypatch.setattr(players, "budget", REAL_BUDGET)
    assert _peeks(game, peek.levels, first=True), f"the twin check missed: {peek.name}"
