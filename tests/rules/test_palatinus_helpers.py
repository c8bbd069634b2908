"""Shared builders for the Palatinus tests (this module holds no tests itself).

``board_state`` lays the tiles in a fixed way: A in the centre, then B-G on the odd ring
positions 1, 3, ..., 11, all turned r0. On that board (default springs):

* B4, C3, D2, E1, F6 and G5 are edge fields with exactly one off-board neighbour;
* B4 touches B3, G2, G1, B5 (and hill B); C3 touches C2, B1, B6, C4;
* A1 touches C5, C4, A2, A6, D3; A2 touches C4, B6, B5, A3, A1; A4 touches A3, G6, F2, F1, A5;
  G6 touches A3, G1, G5, F2, A4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.core import Event, Rng
from rules.palatinus import GAME
from rules.palatinus.components import KINDS
from rules.palatinus.placing import finish
from rules.palatinus.state import PalatinusState, Piece

LAYOUT = (1, 3, 5, 7, 9, 11)


def pinned(**extra: Any) -> dict[str, Any]:
    options: dict[str, Any] = {
        "tile_order": "ABCDEFG",
        "laurel_order": [3, 4, 5, 3, 4, 5],
        "start_seat": 0,
    }
    options.update(extra)
    return options


def board_state(players: int = 3, **extra: Any) -> PalatinusState:
    """A game whose seven tiles are down (placement about to start, seat 0 first)."""
    state = GAME.setup(players, "scenario", pinned(**extra))
    for position in LAYOUT:
        action = {"type": "lay", "position": position, "rotation": 0}
        state = GAME.apply(state, state.turn, action).state
    return state


def with_pieces(state: PalatinusState, pieces: Mapping[str, tuple[int, str]]) -> PalatinusState:
    """The same state with exactly these pieces on the board (field -> (owner, kind))."""
    return replace(state, pieces=tuple(Piece(f, o, k) for f, (o, k) in pieces.items()))


def scored(
    state: PalatinusState, pieces: Mapping[str, tuple[int, str]]
) -> tuple[PalatinusState, tuple[Event, ...]]:
    """Put these pieces down, empty every screen and run the end-game scoring."""
    empty = tuple((0,) * len(KINDS) for _ in range(state.players))
    return finish(replace(with_pieces(state, pieces), screens=empty))


def hill(state: PalatinusState, letter: str) -> dict[str, Any]:
    assert state.scoring is not None
    for entry in state.scoring["hills"]:
        if entry["letter"] == letter:
            return dict(entry)
    raise AssertionError(f"no hill {letter}")


def play_randomly(
    state: PalatinusState, seed: str, stop: int | None = None, max_steps: int = 200
) -> PalatinusState:
    """Random legal moves until the game ends (or ``stop`` pieces are on the board)."""
    rng = Rng(seed)
    for _ in range(max_steps):
        if not GAME.active_seats(state) or (stop is not None and len(state.pieces) >= stop):
            return state
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, legal[rng.randbelow(len(legal))]).state
    raise AssertionError("the game did not end")
