"""End-game scoring scenarios (spec §7 and §8), on the fixed board of ``board_state``."""

from __future__ import annotations

from rules.palatinus import GAME
from rules.palatinus.scoring import influence, outcome
from tests.rules.test_palatinus_helpers import board_state, hill, scored

# Laurels with the pinned order: A 6 (centre), B 3, C 4, D 5, E 3, F 4, G 5.


def test_merchant_worked_example_scores_six() -> None:
    # §7.4 worked check: neighbours one merchant, one farmer, one soldier, one empty field, the
    # hill and one off-board hex: 1 + 2 + 3 = 6.
    state = board_state()
    board = state.board
    assert board.off_board["B4"] == 1
    assert set(board.neighbours["B4"]) == {"B3", "G2", "G1", "B5"}
    pieces = {"B4": (0, "M"), "B3": (1, "M"), "G2": (1, "F"), "G1": (2, "S")}
    kinds = {f: k for f, (_, k) in pieces.items()}
    assert influence(board, kinds, "B4") == 6

    final, _ = scored(state, pieces)
    row = next(r for r in hill(final, "B")["influence"] if r["field"] == "B4")
    assert row["points"] == 6
    assert hill(final, "B")["award"] == {"result": "laurel", "seats": [0], "value": 3}


def test_farmer_worked_example_scores_ten() -> None:
    # §7.4 worked check: a farmer on a spring next to the hill, an empty plain field, an empty
    # spring, an occupied spring, an occupied plain field and one off-board hex:
    # 2 (own spring) + 2 (empty plain) + 4 (empty spring) + 2 (occupied spring) = 10.
    state = board_state(tile_springs={"C": [1, 2]})  # C2 and C3 become springs
    board = state.board
    assert board.off_board["C3"] == 1
    assert {"C3", "C2", "B1"} <= board.springs
    assert not {"B6", "C4"} & board.springs
    pieces = {"C3": (0, "F"), "C2": (1, "M"), "C4": (1, "M")}
    kinds = {f: k for f, (_, k) in pieces.items()}
    assert influence(board, kinds, "C3") == 10

    final, _ = scored(state, pieces)
    hill_c = hill(final, "C")
    assert hill_c["totals"] == [10, 4, 0]
    assert hill_c["award"] == {"result": "laurel", "seats": [0], "value": 4}


def test_soldier_with_equal_merchants_and_farmers_leaves() -> None:
    # §7.3: equal numbers of adjacent merchants and farmers: the soldier leaves the game and its
    # field becomes empty (which then counts for farmers, §10.2).
    state = board_state()
    final, events = scored(state, {"A1": (0, "S"), "C5": (1, "M"), "C4": (1, "F")})
    soldier = hill(final, "A")["soldiers"][0]
    assert soldier["result"] == "left" and soldier["captured"] == []
    assert "A1" not in {p.field for p in final.pieces}
    assert {"C5", "C4"} <= {p.field for p in final.pieces}
    # Farmer C4 at hill C: C3, B6, A2 and the freed A1 empty (4 x 2) + springs C3 and A1
    # (2 x 2) = 12; with the soldier still on A1 it would be 8.
    assert next(r for r in hill(final, "C")["influence"] if r["field"] == "C4")["points"] == 12
    assert any("leaves" in e.text for e in events)


def test_lonely_soldier_leaves_on_zero_against_zero() -> None:
    # §7.3 / §10.4: 0 merchants = 0 farmers is a tie too.
    final, _ = scored(board_state(), {"D1": (1, "S")})
    assert hill(final, "D")["soldiers"][0]["result"] == "left"
    assert final.pieces == ()


def test_soldier_captures_its_owners_own_pieces() -> None:
    # §7.3, §10.3: the soldier takes every piece of the larger type, its own colour included,
    # and each captured piece is 1 VP to the capturer.
    state = board_state()
    pieces = {"A2": (0, "S"), "C4": (0, "M"), "B6": (0, "M"), "B5": (1, "F")}
    final, _ = scored(state, pieces)
    soldier = hill(final, "A")["soldiers"][0]
    assert soldier["took"] == "merchants" and soldier["captured"] == ["B6", "C4"]
    assert {p.field for p in final.pieces} == {"A2", "B5"}  # the capturing soldier stays
    result = GAME.outcome(final)
    assert result is not None
    assert result.breakdown[0]["captures"] == 2


def test_capture_before_a_later_hill_is_scored() -> None:
    # §10.1: hill A's soldier takes a merchant off tile G before hill G is scored.
    state = board_state()
    without, _ = scored(state, {"G1": (1, "M"), "B5": (2, "M")})
    assert hill(without, "G")["award"]["seats"] == [1]

    final, _ = scored(state, {"A3": (0, "S"), "G1": (1, "M"), "B5": (2, "M")})
    assert hill(final, "A")["soldiers"][0]["captured"] == ["B5", "G1"]
    assert hill(final, "G")["influence"] == []
    assert hill(final, "G")["award"]["result"] == "discarded"


def test_merchant_scores_a_soldier_then_is_captured_by_it() -> None:
    # §10.1 (gnome): merchant A4 counts +3 for soldier G6 at hill A; at hill G that soldier
    # captures it.
    final, _ = scored(board_state(), {"A4": (1, "M"), "G6": (0, "S")})
    assert hill(final, "A")["totals"] == [0, 3, 0]
    assert hill(final, "A")["award"] == {"result": "laurel", "seats": [1], "value": 6}
    assert hill(final, "G")["soldiers"][0]["captured"] == ["A4"]
    result = GAME.outcome(final)
    assert result is not None
    assert result.scores == (1, 6, 0)


def test_tied_hill_pays_each_tied_player_a_two_point_disc() -> None:
    # §7.4: a tie for the highest total discards the laurel; each tied player takes a 2-point
    # disc. §8: equal VP and equal item counts stay tied.
    final, events = scored(board_state(), {"B3": (0, "M"), "B2": (1, "M")})
    assert hill(final, "B")["totals"] == [1, 1, 0]
    assert hill(final, "B")["award"] == {"result": "tie", "seats": [0, 1], "value": 2}
    result = GAME.outcome(final)
    assert result is not None
    assert result.scores == (2, 2, 0)
    assert result.breakdown[0] == {"laurels": 0, "discs": 2, "captures": 0}
    assert result.ranking == ((0, 1), (2,))
    assert any("2-point disc" in e.text for e in events)


def test_hill_without_influence_discards_its_laurel() -> None:
    # §7.4: nobody has influence: the laurel is discarded.
    final, _ = scored(board_state(), {})
    assert final.scoring is not None
    assert all(h["award"]["result"] == "discarded" for h in final.scoring["hills"])


def test_two_soldiers_sharing_a_capture_give_a_one_point_disc() -> None:
    # §7.3: one owner takes the piece, the other a 1-point disc. The holder is the first
    # capturing soldier clockwise from the arrow (A1 with the default arrow).
    pieces = {"A1": (0, "S"), "A2": (1, "S"), "C4": (2, "M")}
    final, _ = scored(board_state(), pieces)
    capture = hill(final, "A")["captures"][0]
    assert capture == {"field": "C4", "owner": 2, "kind": "M", "holder": 0, "discs_to": [1]}
    result = GAME.outcome(final)
    assert result is not None
    assert result.breakdown[0]["captures"] == 1
    assert result.breakdown[1]["discs"] == 1

    # With the arrow on A2 (local direction 1) the A2 soldier comes first.
    turned, _ = scored(board_state(tile_arrows={"A": 1}), pieces)
    assert hill(turned, "A")["captures"][0]["holder"] == 1


def test_final_tie_break_counts_items_held() -> None:
    # §8 design choice: equal VP, the most laurels + discs + captured pieces held wins.
    record = {
        "hills": [],
        "tallies": [
            {"laurels": [4], "discs": [], "captured": 0},
            {"laurels": [], "discs": [2, 1], "captured": 1},
            {"laurels": [], "discs": [], "captured": 0},
        ],
    }
    result = outcome(record, "items")
    assert result.scores == (4, 4, 0)
    assert result.ranking == ((1,), (0,), (2,))
    assert outcome(record, "shared").ranking == ((0, 1), (2,))


def test_neutral_extras_earn_nobody_influence() -> None:
    # §5.1 alternative: neutral extras occupy fields and count as neighbours, earn nothing.
    state = board_state(players=2, two_player_extras="neutral")
    final, _ = scored(state, {"B3": (0, "xM"), "B4": (1, "M")})
    assert hill(final, "B")["totals"] == [0, 1]
    assert hill(final, "B")["award"]["seats"] == [1]


def test_two_soldiers_of_one_player_sharing_a_capture_give_piece_and_disc() -> None:
    # §7.3: both soldiers belong to the same player: the piece plus a 1-point disc.
    final, _ = scored(board_state(), {"A1": (0, "S"), "A2": (0, "S"), "C4": (2, "M")})
    result = GAME.outcome(final)
    assert result is not None
    assert result.breakdown[0] == {"laurels": 0, "discs": 1, "captures": 1}
