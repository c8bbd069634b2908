"""The computer players' quick VP count (``scoring.vp_totals``) against the full scoring: the same
VP per seat on crowded random boards (many soldiers, shared captures, ties) and on played ones."""

from __future__ import annotations

from rules.core import Rng
from rules.palatinus import GAME
from rules.palatinus.components import KINDS
from rules.palatinus.scoring import score, vp_breakdown, vp_totals
from rules.palatinus.state import PalatinusState, Piece
from tests.rules.test_palatinus_helpers import board_state, play_randomly


def _full(state: PalatinusState, pieces: tuple[Piece, ...]) -> list[int]:
    _, record = score(state.board, pieces, dict(state.laurels), state.players, state.config)
    return [sum(vp_breakdown(t).values()) for t in record["tallies"]]


def _crowded(state: PalatinusState, rng: Rng) -> tuple[Piece, ...]:
    """Random kinds on a random share of the fields, soldiers three times as likely."""
    kinds = [*KINDS, "S", "S"]
    fields = [f for letter in sorted(state.board.tile_fields)
              for f in state.board.tile_fields[letter]]
    return tuple(Piece(f, rng.randbelow(state.players), rng.choice(kinds))
                 for f in fields if rng.randbelow(100) < 80)


def test_quick_count_matches_the_scoring_on_crowded_boards() -> None:
    checked = 0
    for players in (2, 3, 5):
        for extras in ("owned", "neutral"):
            state = board_state(players, two_player_extras=extras)
            rng = Rng(f"crowded {players} {extras}")
            for _ in range(150):
                pieces = _crowded(state, rng)
                quick = vp_totals(state.board, pieces, dict(state.laurels), players,
                                  state.config)
                assert quick == _full(state, pieces)
                checked += sum(quick) > 0
    assert checked > 600  # most boards score something: the comparison is not of zeros


def test_quick_count_matches_the_scoring_through_played_games() -> None:
    for n in range(12):
        state = GAME.setup(2 + n % 3, f"quick {n}")
        while state.phase == "laying":
            lays = GAME.legal_actions(state, state.turn)
            state = GAME.apply(state, state.turn, lays[n % len(lays)]).state
        for stop in range(1, 60, 3):
            state = play_randomly(state, f"quick {n} {stop}", stop=stop)
            if not GAME.active_seats(state):
                break
            quick = vp_totals(state.board, state.pieces, dict(state.laurels), state.players,
                              state.config)
            assert quick == _full(state, state.pieces)
