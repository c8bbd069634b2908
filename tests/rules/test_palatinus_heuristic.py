"""The Palatinus computer players' projection: the board as it is likely to end.

An empty neighbour counts for a farmer only as the chance that it stays empty, and for a merchant
as the chance that it fills; with nothing left to place the projection is the game's own count."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.palatinus import GAME
from rules.palatinus.components import KINDS, base_type
from rules.palatinus.heuristic import FILLED, _expected, stays_empty
from rules.palatinus.scoring import influence, vp_totals
from rules.palatinus.state import PalatinusState, Piece
from tests.rules.test_palatinus_helpers import board_state, play_randomly


def _random_pieces(state: PalatinusState, rng: Rng, share: int) -> tuple[Piece, ...]:
    fields = [f for letter in sorted(state.board.tile_fields)
              for f in state.board.tile_fields[letter]]
    return tuple(Piece(f, rng.randbelow(state.players), rng.choice(KINDS))
                 for f in fields if rng.randbelow(100) < share)


def _bases(pieces: tuple[Piece, ...]) -> dict[str, str]:
    return {p.field: base_type(p.kind) for p in pieces}


def test_with_every_empty_field_staying_empty_a_piece_is_worth_its_influence() -> None:
    state = board_state(3)
    rng = Rng("as it stands")
    worth = _expected(1.0)
    compared = 0
    for _ in range(60):
        pieces = _random_pieces(state, rng, 50)
        kinds = {p.field: p.kind for p in pieces}
        bases = _bases(pieces)
        for field, base in bases.items():
            if base == "S":
                continue
            assert worth(state.board, bases, field, base) == influence(state.board, kinds,
                                                                       field)
            compared += 1
        assert (vp_totals(state.board, pieces, dict(state.laurels), 3, state.config, worth)
                == vp_totals(state.board, pieces, dict(state.laurels), 3, state.config))
    assert compared > 500


def test_fields_still_to_fill_lower_a_farmer_and_raise_a_merchant() -> None:
    state = board_state(2)
    rng = Rng("still to fill")
    exact, likely = _expected(1.0), _expected(0.25)
    farmers_lower = merchants_higher = 0
    for _ in range(40):
        pieces = _random_pieces(state, rng, 40)
        bases = _bases(pieces)
        for field, base in bases.items():
            now = exact(state.board, bases, field, base)
            then = likely(state.board, bases, field, base)
            empty = sum(1 for n in state.board.neighbours[field] if n not in bases)
            if base == "F":
                assert then == pytest.approx(now - 2 * 0.75 * empty)
                farmers_lower += empty > 0
            elif base == "M":
                assert then == pytest.approx(now + 0.75 * FILLED * empty)
                merchants_higher += empty > 0
    assert farmers_lower > 100 and merchants_higher > 100


def test_the_share_that_stays_empty_is_what_the_screens_cannot_fill() -> None:
    for players in (2, 3, 5):
        state = GAME.setup(players, f"stays {players}")
        while state.phase == "laying":
            state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0]).state
        fields = len(state.board.neighbours)
        never_filled = fields - len(state.pieces) - sum(state.left(s) for s in range(players))
        assert never_filled > 0  # fewer pieces than fields in every seat count
        for stop in range(1, 40):
            state = play_randomly(state, f"stays {players} {stop}", stop=stop)
            if not GAME.active_seats(state):
                break
            empty = fields - len(state.pieces)
            assert stays_empty(state) == min(1.0, never_filled / empty)
        assert stays_empty(state) > never_filled / fields  # it grows as the board fills
