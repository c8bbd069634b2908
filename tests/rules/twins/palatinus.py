"""Palatinus twins: other tile and laurel orders, and other seats' wolf-backed kinds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from rules.palatinus import components as kinds
from rules.palatinus.engine import _WOLF_GROUPS
from rules.palatinus.state import PalatinusState
from tests.rules.peeks import PlantedPeek, keeping, moved, true_state_determinize

GAME_ID = "palatinus"
DEPTHS = range(2, 80, 6)


def wolves_dealt_again(state: PalatinusState, seat: int,
                       reorder: Callable[[list[str], str], list[str]]) -> PalatinusState:
    """Other seats' wolf-backed kinds moved between the board and their screens: each seat's
    pool of one wolf group (on the board, then behind the screen) put in ``reorder``'s order,
    which is told the seat and group as a key."""
    screens = [list(s) for s in state.screens]
    pieces = list(state.pieces)
    for other in range(state.players):
        if other == seat:
            continue
        for group in _WOLF_GROUPS:
            slots = [i for i, p in enumerate(pieces) if p.owner == other and p.kind in group]
            pool = [pieces[i].kind for i in slots]
            for kind in group:
                pool.extend([kind] * screens[other][kinds.KINDS.index(kind)])
            pool = reorder(pool, f"{other}-{group[0]}")
            for i, kind in zip(slots, pool, strict=False):
                pieces[i] = replace(pieces[i], kind=kind)
            rest = pool[len(slots):]
            for kind in group:
                screens[other][kinds.KINDS.index(kind)] = rest.count(kind)
    return replace(state, screens=tuple(tuple(s) for s in screens), pieces=tuple(pieces))


def twins(state: PalatinusState, seat: int) -> Iterator[PalatinusState]:
    """Other tile and laurel orders, and other seats' wolf-backed kinds moved between the board
    and their screens."""
    for turn in (1, -1):
        dealt = wolves_dealt_again(state, seat, lambda pool, _key, t=turn: moved(pool, t))
        stack = state.tile_stack if state.config.tile_order else tuple(
            moved(list(state.tile_stack), turn))
        laurels = state.laurel_stack if state.config.laurel_order else tuple(
            moved(list(state.laurel_stack), turn))
        yield replace(dealt, tile_stack=stack, laurel_stack=laurels)


def _real_wolves(world: PalatinusState, state: PalatinusState) -> PalatinusState:
    return replace(world, screens=state.screens, pieces=state.pieces)


PLANTS = [
    PlantedPeek("easy on the true state", true_state_determinize, ("easy",)),
    PlantedPeek("search on the true state", true_state_determinize, ("normal", "hard")),
    PlantedPeek("determinize keeps the wolf pieces",
                lambda mp, g: keeping(mp, g, _real_wolves), ("easy", "normal", "hard")),
]
