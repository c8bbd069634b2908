"""Computer players never peek: twin states built by hand, and planted peeks that must be caught.

A twin differs from a position only in what the deciding seat cannot see (deck orders, other
seats' hidden cards and wolf pieces), made here without ``determinize``, so a ``determinize``
that forgets to re-deal something is caught too. Every level must choose the same action in a
position and in its twins. The mutation tests plant each kind of peek and require the twin check
to fail on at least one position: a check that cannot catch a peek proves nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

import rules.players as players
from rules import GAMES
from rules.core import Game, derive_seed
from rules.hadrians_wall.state import State as WallState
from rules.minerva.state import MinervaState
from rules.palatinus import components as palatinus_kinds
from rules.palatinus.engine import _WOLF_GROUPS
from rules.palatinus.state import PalatinusState
from rules.players import LEVELS, choose
from rules.random_player import UniformRandomPlayer
from tests.rules.budgets import cap_budgets

HIDDEN_GAMES = ("hadrians-wall", "minerva", "palatinus")
PLAYERS = {"hadrians-wall": 2, "minerva": 2, "palatinus": 3}
# Random decisions before a position is examined, spread over each game's length.
DEPTHS = {"hadrians-wall": range(3, 200, 25), "minerva": range(2, 60, 6),
          "palatinus": range(2, 80, 6)}
WALKS = 2  # position walks per depth: random play, then easy play


def _wall_draw_ahead(legal: list[dict[str, Any]]) -> bool:
    """A Market purchase from the Fate deck or a gladiator battle: a draw of a hidden card."""
    return any(a["type"] == "battle" or (a["type"] == "market" and a["from"] == "deck")
               for a in legal)


# Where the easy walk goes on until a decision could read a hidden card (easy play seldom
# reaches one, and only there can a peek change a one-move look-ahead).
WAIT_FOR: dict[str, Callable[[list[dict[str, Any]]], bool]] = {
    "hadrians-wall": _wall_draw_ahead}


REAL_BUDGET = players.budget


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Peeking does not depend on the budget; small budgets keep the suite quick."""
    cap_budgets(monkeypatch, 8, 3)


# ------------------------------------------------------------------------------ twins by hand


def _wall_twins(state: WallState, seat: int) -> Iterator[WallState]:
    """Other Fate draw orders and Neutral decks, other seats' decks, and their unrevealed
    choice swapped between the two cards they drew."""
    for turn in (1, -1):
        sheets = []
        for s, sheet in enumerate(state.sheets):
            if s == seat:
                sheets.append(sheet)
                continue
            deck = list(sheet["deck"])
            drawn = list(sheet["drawn"])
            chosen = sheet["chosen"]
            if len(drawn) == 2 and chosen is not None:
                chosen = drawn[1] if chosen == drawn[0] else drawn[0]
            sheets.append({**sheet, "deck": _moved(deck, turn), "chosen": chosen})
        yield replace(state, fate_draw=tuple(_moved(list(state.fate_draw), turn)),
                      neutral_deck=tuple(_moved(list(state.neutral_deck), turn)),
                      sheets=tuple(sheets))


def _minerva_twins(state: MinervaState, seat: int) -> Iterator[MinervaState]:
    """Other orders of the location stack (round tiles where they were) and temple stack."""
    for turn in (1, -1):
        twin = state.clone()
        slots = [i for i, t in enumerate(twin.deck) if t != "R"]
        cards = _moved([twin.deck[i] for i in slots], turn)
        for i, card in zip(slots, cards, strict=True):
            twin.deck[i] = card
        twin.temple_stack = _moved(list(twin.temple_stack), turn)
        yield twin


def _palatinus_twins(state: PalatinusState, seat: int) -> Iterator[PalatinusState]:
    """Other tile and laurel orders, and other seats' wolf-backed kinds moved between the board
    and their screens."""
    for turn in (1, -1):
        screens = [list(s) for s in state.screens]
        pieces = list(state.pieces)
        for other in range(state.players):
            if other == seat:
                continue
            for group in _WOLF_GROUPS:
                slots = [i for i, p in enumerate(pieces) if p.owner == other and p.kind in group]
                pool = [pieces[i].kind for i in slots]
                for kind in group:
                    pool.extend([kind] * screens[other][palatinus_kinds.KINDS.index(kind)])
                pool = _moved(pool, turn)
                for i, kind in zip(slots, pool, strict=False):
                    pieces[i] = replace(pieces[i], kind=kind)
                rest = pool[len(slots):]
                for kind in group:
                    screens[other][palatinus_kinds.KINDS.index(kind)] = rest.count(kind)
        stack = state.tile_stack if state.config.tile_order else tuple(
            _moved(list(state.tile_stack), turn))
        laurels = state.laurel_stack if state.config.laurel_order else tuple(
            _moved(list(state.laurel_stack), turn))
        yield replace(state, tile_stack=stack, laurel_stack=laurels,
                      screens=tuple(tuple(s) for s in screens), pieces=tuple(pieces))


def _moved(items: list[Any], turn: int) -> list[Any]:
    """Rotated by one, or reversed: either way most hidden items change place."""
    if len(items) < 2:
        return items
    return items[1:] + items[:1] if turn > 0 else items[::-1]


TWINS: dict[str, Callable[[Any, int], Iterator[Any]]] = {
    "hadrians-wall": _wall_twins, "minerva": _minerva_twins, "palatinus": _palatinus_twins}


def _positions(game: Game) -> Iterator[tuple[Any, int]]:
    """Positions of random play, and (second walk) of easy play, which builds what random
    play seldom reaches (a Market buying from the Fate deck, say)."""
    for walk, depth in itertools.product(range(WALKS), DEPTHS[game.id]):
        state = game.setup(PLAYERS[game.id], f"twin-{walk}-{depth}")
        seed = derive_seed("twin-walk", game.id, walk, depth)
        chooser = UniformRandomPlayer(seed)
        wait = WAIT_FOR.get(game.id) if walk else None
        for step in range(depth + (400 if wait else 0)):
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
        for k, twin in enumerate(TWINS[game.id](state, seat)):
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


# ------------------------------------------------------------------------------ planted peeks


def _true_state_determinize(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    monkeypatch.setattr(type(game), "determinize", lambda self, state, seat, seed: state)


def _keeping(monkeypatch: pytest.MonkeyPatch, game: Game,
             keep: Callable[[Any, Any], Any]) -> None:
    real = type(game).determinize

    def leaky(self: Any, state: Any, seat: int | None, seed: str) -> Any:
        return keep(real(self, state, seat, seed), state)

    monkeypatch.setattr(type(game), "determinize", leaky)


def _wall_real_fate(world: WallState, state: WallState) -> WallState:
    return replace(world, fate_draw=state.fate_draw)


def _minerva_real_deck(world: MinervaState, state: MinervaState) -> MinervaState:
    world.deck = list(state.deck)
    world.temple_stack = list(state.temple_stack)
    return world


def _palatinus_real_wolves(world: PalatinusState, state: PalatinusState) -> PalatinusState:
    return replace(world, screens=state.screens, pieces=state.pieces)


PLANTS: list[tuple[str, str, Callable[[pytest.MonkeyPatch, Game], None], tuple[str, ...]]] = [
    # Minerva's easy level looks one move ahead, which never reveals a stack card to it: a peek
    # there changes no decision, so only its searching levels are planted.
    *[(g, "easy on the true state", _true_state_determinize, ("easy",))
      for g in ("hadrians-wall", "palatinus")],
    *[(g, "search on the true state", _true_state_determinize, ("normal", "hard"))
      for g in ("hadrians-wall", "palatinus")],
    # Minerva's stack shows in a search only through its short rollouts: its planted peeks are
    # looked for at the hard level with its real budget, where they change a decision.
    ("minerva", "search on the true state", _true_state_determinize, ("hard",)),
    ("hadrians-wall", "determinize keeps the Fate deck order",
     lambda mp, g: _keeping(mp, g, _wall_real_fate), ("easy", "normal", "hard")),
    ("minerva", "determinize keeps the deck order",
     lambda mp, g: _keeping(mp, g, _minerva_real_deck), ("hard",)),
    ("palatinus", "determinize keeps the wolf pieces",
     lambda mp, g: _keeping(mp, g, _palatinus_real_wolves), ("easy", "normal", "hard")),
]


@pytest.mark.parametrize(("game_id", "peek", "plant", "levels"), PLANTS,
                         ids=[f"{g}: {p}" for g, p, _, _ in PLANTS])
def test_a_planted_peek_is_caught(monkeypatch: pytest.MonkeyPatch, game_id: str, peek: str,
                                  plant: Callable[[pytest.MonkeyPatch, Game], None],
                                  levels: tuple[str, ...]) -> None:
    game = GAMES[game_id]
    plant(monkeypatch, game)
    if game_id == "minerva":
        monkeypatch.setattr(players, "budget", REAL_BUDGET)
    assert _peeks(game, levels, first=True), f"the twin check missed: {peek}"
