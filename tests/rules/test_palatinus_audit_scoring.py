"""Audit scenarios for end-game scoring (spec §7, §8, §10) on the fixed board of ``board_state``.

Laurels with the pinned order: A 6 (centre), B 3, C 4, D 5, E 3, F 4, G 5. Springs (default
data, every tile turned r0): A1 A4 B1 B2 C1 C3 D2 E1 E3 E5 F2 F4 G1 G2 G4. Neighbours used
below: A1 touches C5 C4 A2 A6 D3; A2 touches C4 B6 B5 A3 A1; A3 touches A2 B5 G1 G6 A4;
B5 touches B6 B4 G1 A3 A2; D3 touches D2 C5 A1 A6 D4; G6 touches A3 G1 G5 F2 A4.
"""

from __future__ import annotations

from rules.palatinus import GAME
from tests.rules.test_palatinus_helpers import board_state, hill, scored


def test_soldiers_of_one_hill_resolve_at_once_on_the_board_before_any_capture() -> None:
    # §7.3 simultaneity: A1 sees merchants C5 and A2 and takes both; A3 sees merchant A2 and
    # farmer B5, a tie, so it leaves. Resolved one after the other, A3 would have seen only B5
    # once A2 was gone and taken it; at once, B5 stays.
    pieces = {
        "A1": (0, "S"),
        "C5": (2, "M"),
        "A2": (2, "M"),
        "A3": (1, "S"),
        "B5": (2, "F"),
    }
    final, _ = scored(board_state(), pieces)
    soldiers = {s["field"]: s for s in hill(final, "A")["soldiers"]}
    assert soldiers["A1"]["result"] == "captured" and soldiers["A1"]["captured"] == ["A2", "C5"]
    assert soldiers["A3"]["result"] == "left"
    assert (soldiers["A3"]["merchants"], soldiers["A3"]["farmers"]) == (1, 1)
    assert {p.field for p in final.pieces} == {"A1", "B5"}
    assert hill(final, "A")["captures"] == [
        {"field": "A2", "owner": 2, "kind": "M", "holder": 0, "discs_to": []},
        {"field": "C5", "owner": 2, "kind": "M", "holder": 0, "discs_to": []},
    ]
    result = GAME.outcome(final)
    assert result is not None
    assert result.breakdown[0]["captures"] == 2 and result.breakdown[1]["captures"] == 0


def test_two_soldiers_taking_overlapping_groups_share_only_the_common_piece() -> None:
    # §7.3: A1 takes merchants C4 and A2; A3 (2 merchants against 1 farmer) takes A2 and G1.
    # A2 is taken twice: the A1 soldier (first clockwise from the arrow on A1) holds it, the
    # A3 soldier's owner takes a 1-point disc. Both soldiers stay on the board.
    pieces = {
        "A1": (0, "S"),
        "C4": (2, "M"),
        "A2": (2, "M"),
        "A3": (1, "S"),
        "G1": (2, "M"),
        "B5": (2, "F"),
    }
    final, _ = scored(board_state(), pieces)
    record = hill(final, "A")
    shared = [c for c in record["captures"] if c["discs_to"]]
    assert shared == [{"field": "A2", "owner": 2, "kind": "M", "holder": 0, "discs_to": [1]}]
    assert {p.field for p in final.pieces} == {"A1", "A3", "B5"}
    result = GAME.outcome(final)
    assert result is not None
    assert result.breakdown[0] == {"laurels": 0, "discs": 0, "captures": 2}
    assert result.breakdown[1] == {"laurels": 0, "discs": 1, "captures": 1}
    # 1 VP per (capturing soldier, captured piece) pair: 2 + 2 pairs, 4 VP in all.
    assert result.scores[0] + result.scores[1] == 4


def test_adjacent_soldiers_neither_count_nor_affect_each_other() -> None:
    # §7.3: soldiers never count soldiers; A1 and A2 are neighbours and each takes its own
    # single merchant or farmer.
    pieces = {"A1": (0, "S"), "A2": (1, "S"), "C5": (2, "M"), "B5": (2, "F")}
    final, _ = scored(board_state(), pieces)
    soldiers = {s["field"]: s for s in hill(final, "A")["soldiers"]}
    assert soldiers["A1"]["captured"] == ["C5"] and soldiers["A1"]["merchants"] == 1
    assert soldiers["A2"]["captured"] == ["B5"] and soldiers["A2"]["farmers"] == 1
    assert {p.field for p in final.pieces} == {"A1", "A2"}


def test_two_against_two_is_a_tie_and_the_soldier_leaves() -> None:
    # §7.3: equal numbers of adjacent merchants and farmers (here 2 = 2): the soldier leaves.
    pieces = {"A1": (0, "S"), "C5": (1, "M"), "C4": (1, "M"), "A6": (2, "F"), "D3": (2, "F")}
    final, _ = scored(board_state(), pieces)
    soldier = hill(final, "A")["soldiers"][0]
    assert soldier["result"] == "left" and (soldier["merchants"], soldier["farmers"]) == (2, 2)
    assert {p.field for p in final.pieces} == {"C5", "C4", "A6", "D3"}


def test_a_later_hills_soldier_captures_pieces_of_a_hill_already_scored() -> None:
    # §7.3 / §10.1: merchants A2 and A3 each count soldier B5 (+3) and each other (+1) and win
    # hill A; at hill B that soldier takes them both. Hill A's laurel stays won.
    pieces = {"B5": (0, "S"), "A2": (1, "M"), "A3": (1, "M")}
    final, _ = scored(board_state(), pieces)
    assert hill(final, "A")["soldiers"] == []  # B5 waits for its own hill
    assert hill(final, "A")["totals"] == [0, 8, 0]
    assert hill(final, "A")["award"] == {"result": "laurel", "seats": [1], "value": 6}
    assert hill(final, "B")["soldiers"][0]["captured"] == ["A2", "A3"]
    result = GAME.outcome(final)
    assert result is not None
    assert result.scores == (2, 6, 0)


def test_a_capture_frees_a_field_for_a_farmer_of_a_later_hill() -> None:
    # §10.2: hill A's soldier on A2 takes merchant B6; at hill B farmer B1 then counts B6 as an
    # empty field: own spring 2 + empty spring B2 4 + empty B6 2 + empty spring C3 4 = 12
    # (10 with the merchant still on B6).
    state = board_state()
    without, _ = scored(state, {"B6": (1, "M"), "B1": (2, "F")})
    farmer = next(r for r in hill(without, "B")["influence"] if r["field"] == "B1")
    assert farmer["points"] == 10
    final, _ = scored(state, {"A2": (0, "S"), "B6": (1, "M"), "B1": (2, "F")})
    assert hill(final, "A")["soldiers"][0]["captured"] == ["B6"]
    farmer = next(r for r in hill(final, "B")["influence"] if r["field"] == "B1")
    assert farmer["points"] == 12
    assert hill(final, "B")["totals"] == [0, 0, 12]


def test_only_pieces_on_the_hills_own_fields_produce_its_influence() -> None:
    # §7.4 / §10.5: merchant A3 counts its neighbour G6 on tile G (+1) for hill A, but G6 itself
    # adds nothing to hill A; at hill G it is the other way round.
    final, _ = scored(board_state(), {"A3": (0, "M"), "G6": (1, "M")})
    assert hill(final, "A")["totals"] == [1, 0, 0]
    assert [r["field"] for r in hill(final, "A")["influence"]] == ["A3"]
    assert hill(final, "G")["totals"] == [0, 1, 0]
    assert hill(final, "A")["award"]["seats"] == [0]
    assert hill(final, "G")["award"]["seats"] == [1]


def test_merchant_counts_every_colour_and_soldiers_on_other_tiles() -> None:
    # §7.4: +1 per merchant, +2 per farmer, +3 per soldier, any colour, own colour included;
    # A3's neighbours: own merchant A2 (+1), opponent farmer B5 on tile B (+2), opponent
    # soldier G6 on tile G (+3), own farmer A4 (+2) and empty G1 (0) = 8.
    pieces = {
        "A3": (0, "M"),
        "A2": (0, "M"),
        "B5": (1, "F"),
        "G6": (2, "S"),
        "A4": (0, "F"),
    }
    final, _ = scored(board_state(), pieces)
    row = next(r for r in hill(final, "A")["influence"] if r["field"] == "A3")
    assert row["points"] == 8
    assert hill(final, "A")["soldiers"] == []  # G6 acts only when hill G is scored


def test_farmer_gets_nothing_from_occupied_plain_fields_hills_or_the_board_edge() -> None:
    # §7.4: farmer B3 (plain) touches the hill, three off-board hexes, occupied spring B2 (+2)
    # and occupied plain B4 (0): 2 points in all.
    state = board_state()
    assert set(state.board.neighbours["B3"]) == {"B2", "B4"}
    final, _ = scored(state, {"B3": (0, "F"), "B2": (1, "M"), "B4": (1, "M")})
    row = next(r for r in hill(final, "B")["influence"] if r["field"] == "B3")
    assert row["points"] == 2
    assert hill(final, "B")["totals"] == [2, 4, 0]
    assert hill(final, "B")["award"] == {"result": "laurel", "seats": [1], "value": 3}


def test_a_tie_below_the_top_does_not_stop_a_clear_winner() -> None:
    # §7.4: only a tie for the highest total discards the laurel; here 12 beats 4 and 4.
    pieces = {"B1": (0, "F"), "B3": (1, "F"), "B5": (2, "M"), "B4": (2, "M")}
    final, _ = scored(board_state(), pieces)
    assert hill(final, "B")["totals"] == [12, 4, 4]
    assert hill(final, "B")["award"] == {"result": "laurel", "seats": [0], "value": 3}


def test_equal_final_vp_goes_to_the_player_holding_more_items() -> None:
    # §8: seat 0 wins hill B (one laurel worth 3); seat 1's soldier on D3 takes three merchants
    # at hill D (3 VP, three pieces held). Equal VP: the default tie-break counts items held.
    pieces = {
        "B2": (0, "M"),
        "B3": (0, "M"),
        "D3": (1, "S"),
        "C5": (2, "M"),
        "A1": (2, "M"),
        "A6": (2, "M"),
    }
    final, _ = scored(board_state(), pieces)
    assert hill(final, "D")["soldiers"][0]["captured"] == ["A1", "A6", "C5"]
    result = GAME.outcome(final)
    assert result is not None
    assert result.scores == (3, 3, 10)  # seat 2: hills A (6) and C (4)
    assert result.ranking == ((2,), (1,), (0,))
    shared, _ = scored(board_state(tie_break="shared"), pieces)
    shared_result = GAME.outcome(shared)
    assert shared_result is not None
    assert shared_result.ranking == ((2,), (0, 1))


def test_neutral_extras_count_as_neighbours_and_can_be_captured() -> None:
    # §5.1 alternative: a neutral farmer gives an adjacent merchant +2 and earns nothing itself;
    # a neutral merchant can be captured, 1 VP to the capturer.
    state = board_state(players=2, two_player_extras="neutral")
    pieces = {"B3": (0, "M"), "B2": (1, "xF"), "A1": (1, "S"), "C5": (0, "xM")}
    final, _ = scored(state, pieces)
    assert hill(final, "A")["soldiers"][0]["captured"] == ["C5"]
    assert hill(final, "B")["totals"] == [2, 0]
    result = GAME.outcome(final)
    assert result is not None
    assert result.breakdown[1]["captures"] == 1
    assert result.breakdown[0]["laurels"] == 3


def test_scoring_after_a_played_game_reveals_and_scores_every_hill_in_letter_order() -> None:
    # §7.1 / §7.2: hills A to G in letter order whatever their positions; every wolf piece is
    # turned up in the public view once the game is over.
    state = GAME.setup(3, "order", {"start_seat": 0, "tile_order": "GFEDCBA"})
    while state.phase == "laying":
        state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[-1]).state
    while state.phase == "placing":
        state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0]).state
    assert state.scoring is not None
    assert [h["letter"] for h in state.scoring["hills"]] == list("ABCDEFG")
    assert state.tiles[0].letter == "G" and dict(state.laurels)["G"] == 6
    public = GAME.view(state, None)
    assert all(p["type"] is not None for p in public["pieces"])


def test_a_hill_whose_pieces_all_score_zero_discards_its_laurel() -> None:
    # §7.4: a merchant with no inhabitant next to it earns 0; every player at 0 discards the
    # laurel even though a piece stands on the hill's fields.
    final, _ = scored(board_state(), {"B3": (0, "M")})
    assert hill(final, "B")["influence"] == [{"field": "B3", "owner": 0, "kind": "M", "points": 0}]
    assert hill(final, "B")["award"] == {"result": "discarded", "seats": [], "value": 0}
    result = GAME.outcome(final)
    assert result is not None
    assert result.scores == (0, 0, 0)
