"""Audit scenarios for the Year cycle of Hadrian's Wall: setup, income, the Pict attack, favours,
the Fate deck, the 1-2 player Neutral cards, neighbours, scoring and hidden information (spec
sections 2, 3.14, 7, 8 and 9). Expected values are written from the specification, not read
from the data files, so a wrong data file fails here."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from rules.core import IllegalAction
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import FATE_CARDS, FATE_IDS, PLAYER_CARD_IDS
from rules.hadrians_wall.scoring import breakdown, outcome, path_points, penalty
from rules.hadrians_wall.state import Sheet, State, new_sheet
from tests.rules.test_hadrians_wall_kit import act, chosen, edit, hand, pass_all, start

GOODS = ("soldier", "builder", "servant", "civilian", "resource")


def _goods(card: str) -> dict[str, int]:
    return dict(FATE_CARDS[card].gains)


def _at_year(state: State, year: int, attack: list[str]) -> State:
    """The same situation in another Year, with these cards on top of the Fate draw pile."""
    rest = [c for c in FATE_IDS if c not in attack and c not in state.fate_discard]
    return dataclasses.replace(state, year=year, fate_draw=(*attack, *rest))


# --------------------------------------------------------------------------------------------
# Setup and Year setup (spec 2.1, 2.2).


def test_a_new_sheet_has_only_the_small_granary_and_production_circle_1() -> None:
    # Spec 2.1: Small Granary prebuilt, production 1, everything else empty, no goods; the
    # only goods at the start of Year 1 are the Fate card's (2.2 step 1).
    state = start(2)
    for sheet in state.sheets:
        assert sheet["production"] == 1 and sheet["built"] == []
        assert sheet["cohorts"] == [0, 0, 0] and sheet["fort"] == sheet["wall"] == 0
        assert set(sheet["attributes"].values()) == {0} and sheet["disdain"] == 0
        assert sheet["hand"] == _goods("F01")
    assert state.year == 1 and state.year_card == "F01" and state.fate_discard == ("F01",)
    assert GAME.view(state, None)["sheets"][0]["granary"] == 1  # the small granary


def test_year_setup_gives_fate_card_then_prospect_gain_then_sheet_income() -> None:
    # Spec 2.2: Fate card items, then the Prospect card's gain at the reveal, then +1 resource
    # per production circle. Seat 0 draws architect and aristocrat; Path architect leaves the
    # aristocrat Prospect (builder + civilian).
    state = start(1)
    assert state.sheets[0]["drawn"] == ["architect", "aristocrat"]
    before = dict(state.sheets[0]["hand"])
    state = chosen(state)
    expected = dict(before)
    expected["builder"] += 1
    expected["civilian"] += 1
    expected["resource"] += 1  # production circle 1
    assert state.sheets[0]["hand"] == expected
    assert state.sheets[0]["paths"] == ["architect"]
    assert state.sheets[0]["prospects"] == ["aristocrat"]


@pytest.mark.parametrize(("players", "revealed"), [(1, 2), (2, 1), (3, 0), (6, 0)])
def test_neutral_cards_are_revealed_after_the_path_reveal(players: int, revealed: int) -> None:
    # Spec 9: 2 Neutral cards a Year in solo, 1 with two players, none with three or more;
    # they appear right after the Path and Prospect reveal, not before.
    state = start(players)
    assert state.neutral == ()
    state = chosen(state)
    assert len(state.neutral) == revealed
    if revealed:
        # The Neutral deck order pinned by the kit is the Player cards reversed.
        assert [n["card"] for n in state.neutral] == list(reversed(PLAYER_CARD_IDS))[:revealed]


def test_income_pays_every_circle_and_road_income_resolves_attribute_rewards() -> None:
    # Spec 2.2 step 3: hotel circles give civilians, workshop circles builders, road circles an
    # attribute of choice, resolved at once with the track's worker box (Piety 3: servant).
    state = start(1)
    state = edit(state, 0, lambda s: (s.update(production=4), s["built"].extend(
        ["hotel_small", "hotel_large", "workshop_small", "road_small"]),
        s["attributes"].update(piety=2)))
    before = dict(state.sheets[0]["hand"])
    state = chosen(state)
    hand_now = state.sheets[0]["hand"]
    assert hand_now["resource"] - before["resource"] == 4
    assert hand_now["civilian"] - before["civilian"] == 2 + 1  # + aristocrat Prospect
    assert hand_now["builder"] - before["builder"] == 1 + 1
    state, _ = act(state, 0, "road income: +1 piety")
    assert state.sheets[0]["attributes"]["piety"] == 3
    assert state.sheets[0]["hand"]["servant"] == hand_now["servant"] + 1


def test_every_path_card_is_used_once_over_six_years() -> None:
    # Spec 2.2 step 2: 2 cards a Year from a 12-card deck; one Path and one Prospect each Year.
    state = start(2)
    for _ in range(6):
        state = pass_all(chosen(state, pick=1))
    assert state.phase == "over"
    for sheet in state.sheets:
        assert len(sheet["paths"]) == 6 and len(sheet["prospects"]) == 6
        assert sorted(sheet["paths"] + sheet["prospects"]) == sorted(PLAYER_CARD_IDS)
        # pick=1: the second card drawn each Year is the Path.
        assert sheet["paths"] == list(PLAYER_CARD_IDS[1::2])


# --------------------------------------------------------------------------------------------
# The Pict attack (spec 2.4, 7).

ATTACKS = {
    "easy": [1, 2, 3, 4, 6, 8],
    "normal": [1, 2, 4, 6, 8, 10],
    "hard": [1, 3, 5, 7, 9, 12],
}
GREY = [1, 2, 2, 3, 3, 4]


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_attack_cards_and_grey_flag_of_every_year(difficulty: str) -> None:
    # Spec 7: attack cards per Year and difficulty, grey flag G; spec 2.4: every player gains
    # G split between Valour and Disdain.
    state = start(1, difficulty=difficulty)
    seen: list[tuple[int, int]] = []
    for year in range(1, 7):
        assert state.year == year
        state = pass_all(chosen(state))
        last = state.last_attack
        result = last["results"][0]
        assert result["valour"] + result["disdain"] == GREY[year - 1]
        seen.append((len(last["cards"]), last["grey_flag"]))
    assert seen == list(zip(ATTACKS[difficulty], GREY, strict=True))
    assert state.phase == "over"


def test_the_attack_cards_come_after_the_years_fate_card_in_deck_order() -> None:
    # Spec 2.2 step 1 and 2.4 step 2: the Year card is the top card; the attack draws the next
    # ones, shared by every player.
    state = pass_all(chosen(start(3)))
    assert state.last_attack["cards"] == ["F02"]
    assert state.year_card == "F03"  # Year 2 begins with the next card


def test_valour_from_the_attack_chains_and_its_workers_are_kept() -> None:
    # Spec 2.4 "Gain Valour" and 3.12: Valour 17 gives Discipline, Valour 19 a soldier, kept
    # into the next Year.
    state = chosen(start(1))
    cards = ["F04", "F06", "F08", "F01", "F05", "F02"]  # 3 left, 2 center, 1 right
    state = _at_year(state, 4, cards)
    state = edit(state, 0, lambda s: (s.update(cohorts=[3, 2, 1]),
                                      s["attributes"].update(valour=16)))
    state = pass_all(state)
    sheet = state.sheets[0]
    assert sheet["attributes"]["valour"] == 19 and sheet["attributes"]["discipline"] == 1
    assert state.year == 5
    year5 = _goods(state.year_card)
    assert sheet["hand"]["soldier"] == year5["soldier"] + 1


def test_attacks_on_one_cohort_are_not_stopped_by_another() -> None:
    # Spec 2.4: through = sum over cohorts of max(0, a[c] - d[c]); surplus defence elsewhere
    # does not help.
    state = chosen(start(1))
    state = _at_year(state, 3, ["F04", "F06", "F08", "F01"])  # 3 left, 1 center
    state = edit(state, 0, lambda s: s.update(cohorts=[1, 6, 6]))
    state = pass_all(state)
    result = state.last_attack["results"][0]
    assert (result["through"], result["valour"], result["disdain"]) == (2, 0, 2)


def test_disdain_circles_only_empty_boxes_and_stops_at_15() -> None:
    # Spec 3.14: a filled (bribed) box is not empty again; Disdain beyond the 15th box is not
    # recorded. 14 circled of which 3 filled: one empty box is left.
    state = chosen(start(1))
    state = _at_year(state, 4, ["F04", "F06", "F08", "F01", "F05", "F02"])
    state = edit(state, 0, lambda s: s.update(disdain=14, disdain_removed=3))
    state = pass_all(state)
    sheet = state.sheets[0]
    assert state.last_attack["results"][0]["disdain"] == 3
    assert (sheet["disdain"], sheet["disdain_removed"]) == (15, 3)
    assert GAME.view(state, None)["sheets"][0]["final_disdain"] == 12


def test_a_favour_gained_this_year_serves_in_this_years_attack() -> None:
    # Spec 13.4 (assumed yes) and 4.10: a diplomat bought during the Year gives favours for
    # the attack at its end.
    state = chosen(start(1))
    state = _at_year(state, 2, ["F02", "F07"])  # two right attacks
    state = edit(state, 0, lambda s: s["citizens"].update(patricians=1))
    state = edit(state, 0, hand(servant=1, soldier=1, resource=2))
    state, _ = act(state, 0, "diplomat for right cohort")
    state, _ = act(state, 0, "pass")
    assert state.phase == "attack"
    state, _ = act(state, 0, {"type": "favour", "cohort": "right", "with": "diplomat"})
    state, _ = act(state, 0, {"type": "favour", "cohort": "right", "with": "diplomat"})
    result = state.last_attack["results"][0]
    assert (result["through"], result["valour"], result["disdain"]) == (0, 2, 0)
    assert state.sheets[0]["diplomats"][0]["used"] == 2


def test_favours_lapse_at_year_end_when_the_option_says_so() -> None:
    # Spec 10.10 design choice, option favours_persist = false.
    state = chosen(start(1, favours_persist=False))
    diplomat = {"cohort": "left", "favours": 2, "used": 0}
    state = edit(state, 0, lambda s: s.update(favours=1, diplomats=[diplomat]))
    state = pass_all(state)
    assert state.phase == "attack"  # the temple favour could stop the right attack
    state, _ = act(state, 0, "resolve attack")
    assert state.year == 2
    sheet = state.sheets[0]
    assert sheet["favours_used"] == 1 and sheet["diplomats"][0]["used"] == 2


def test_favour_prompt_always_asks_a_player_whose_cohorts_hold() -> None:
    # Spec 2.4 (favours are optional), option favour_prompt = always: a matching favour is
    # offered even when the cohort would hold anyway.
    for prompt, asked in (("always", True), ("when_useful", False)):
        state = chosen(start(1, favour_prompt=prompt))
        state = edit(state, 0, lambda s: s.update(favours=1, cohorts=[1, 1, 1]))
        state = pass_all(state)
        assert (state.phase == "attack") is asked
        if asked:
            assert {"type": "favour", "cohort": "right", "with": "temple"} in (
                GAME.legal_actions(state, 0))


def test_only_players_with_a_useful_favour_are_asked_the_others_resolve_at_once() -> None:
    # Spec 2.4 step 3: each player resolves alone; the Year goes on when all are done.
    state = chosen(start(3))
    state = edit(state, 1, lambda s: s.update(favours=1))
    state = pass_all(state)
    assert state.phase == "attack" and GAME.active_seats(state) == {1}
    results = state.last_attack["results"]
    assert results[0] is not None and results[2] is not None and results[1] is None
    state, _ = act(state, 1, "resolve attack")
    assert state.year == 2 and state.phase == "choose"


def test_year_6_attack_ends_the_game_and_its_valour_workers_are_wasted() -> None:
    # Spec 2.4 "In Year 6 they are wasted" and 2.5: the game ends after the Year 6 attack.
    state = chosen(start(1))
    cards = ["F04", "F06", "F08", "F01", "F05", "F02", "F03", "F07", "F10", "F11"]
    state = _at_year(state, 6, cards)
    state = edit(state, 0, lambda s: (s.update(cohorts=[6, 6, 6]),
                                      s["attributes"].update(valour=2)))
    state = pass_all(state)
    sheet = state.sheets[0]
    assert state.phase == "over" and GAME.active_seats(state) == frozenset()
    assert sheet["attributes"]["valour"] == 6  # G = 4; box 3 showed a soldier
    assert sum(sheet["hand"].values()) == 0
    assert GAME.outcome(state) is not None


# --------------------------------------------------------------------------------------------
# The Fate deck (spec 2.7).


def test_an_empty_draw_pile_is_refilled_without_the_face_up_attack_cards() -> None:
    # Spec 2.7: the discard pile is shuffled into a new draw pile, except the cards face up in
    # the attack being resolved. Year 2 draws 2 attack cards with one card left.
    state = chosen(start(1))
    others = tuple(c for c in FATE_IDS if c != "F10")
    state = dataclasses.replace(state, year=2, fate_draw=("F10",), fate_discard=others)
    t = GAME.apply(state, 0, {"type": "pass"})
    after = t.state
    assert any(e.kind == "reshuffle" for e in t.events)
    cards = after.last_attack["cards"]
    assert cards[0] == "F10" and cards[1] != "F10" and len(set(cards)) == 2
    # No card is lost or doubled: draw + discard hold the 48 cards (Year 3 card included).
    assert sorted([*after.fate_draw, *after.fate_discard]) == sorted(FATE_IDS)


def test_without_reshuffle_an_empty_deck_refuses_deck_trades_and_battles() -> None:
    # Spec 2.7 design choice, option fate_reshuffle = false.
    state = chosen(start(1, fate_reshuffle=False))
    state = dataclasses.replace(state, fate_draw=())
    state = edit(state, 0, lambda s: (s["built"].extend(["market", "ludus"]),
                                      s["citizens"].update(traders=4, performers=3),
                                      s["gladiators"].__setitem__(
                                          0, {"strength": 1, "damage": 0, "battles": []})))
    state = edit(state, 0, hand(resource=1))
    kinds = {(a["type"], a.get("from")) for a in GAME.legal_actions(state, 0)}
    assert ("market", "deck") not in kinds and ("battle", None) not in kinds
    with pytest.raises(IllegalAction, match="Fate deck is empty"):
        act(state, 0, {"type": "battle", "gladiator": "red"})


# --------------------------------------------------------------------------------------------
# Neighbours and the Neutral cards (spec 2.6, 9).


def _market_ready(sheet: Sheet) -> None:
    sheet["built"].append("market")
    sheet["citizens"]["traders"] = 4
    sheet["citizens"]["patricians"] = 2


def test_solo_sources_are_the_neutral_cards_the_deck_and_own_card_for_scouting() -> None:
    # Spec 2.6 "Solo": no neighbours; the Neutral cards stand in for them.
    state = chosen(start(1))
    state = edit(state, 0, _market_ready)
    state = edit(state, 0, hand(resource=1, soldier=1))
    legal = GAME.legal_actions(state, 0)
    assert {a["from"] for a in legal if a["type"] == "market"} == {"neutral1", "neutral2", "deck"}
    assert {a["from"] for a in legal if a["type"] == "scout"} == {"own", "neutral1", "neutral2"}
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "market", "box": 1, "from": "left"})


def test_two_players_the_opponent_is_the_one_neighbour_and_gets_paid() -> None:
    # Spec 2.6 "Two players" design choice: the opponent is both neighbours; the Neutral card
    # is an extra source. The resource goes to the opponent, who may use it.
    state = chosen(start(2))
    state = edit(state, 0, _market_ready)
    state = edit(state, 0, hand(resource=1))
    legal = GAME.legal_actions(state, 0)
    assert {a["from"] for a in legal if a["type"] == "market"} == {"neighbour", "neutral1", "deck"}
    before = state.sheets[1]["hand"]["resource"]
    opponent_card = state.sheets[1]["prospects"][-1]
    state, _ = act(state, 0, {"type": "market", "box": 1, "from": "neighbour"})
    assert state.sheets[1]["hand"]["resource"] == before + 1
    goods = {"aristocrat": 1}  # the kit gives every seat aristocrat as Year 1 Prospect
    assert state.sheets[0]["market"][0] == goods[opponent_card]


def test_a_neutral_trade_good_puts_the_resource_on_the_card_and_adds_an_attack_card() -> None:
    # Spec 9: payment placement on the Neutral card, 1 extra attack card per item, items go
    # back and the Neutral cards are discarded. Neutral card 1 is the vanguard (trade good 2).
    state = chosen(start(1))
    state = edit(state, 0, _market_ready)
    state = edit(state, 0, lambda s: s["citizens"].update(traders=5))
    state = edit(state, 0, hand(resource=2))
    state, _ = act(state, 0, {"type": "market", "box": 1, "from": "neutral1"})
    state, _ = act(state, 0, {"type": "market", "box": 2, "from": "neutral2"})
    assert state.sheets[0]["market"][:2] == [2, 4]  # vanguard 2, trainer 4
    assert [n["resources"] for n in state.neutral] == [1, 1]
    state = pass_all(state)
    assert len(state.last_attack["cards"]) == 1 + 2
    assert state.year == 2 and [n["card"] for n in state.neutral] == []
    state = chosen(state)
    assert [n["resources"] + n["soldiers"] for n in state.neutral] == [0, 0]


def test_a_passed_player_is_not_reactivated_when_the_option_is_off() -> None:
    # Spec 2.3 design choice, option gift_reactivates = false.
    state = chosen(start(3, gift_reactivates=False))
    state = edit(state, 0, _market_ready)
    state = edit(state, 0, hand(resource=1))
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 0, {"type": "market", "box": 1, "from": "left"})
    assert state.sheets[2]["hand"]["resource"] >= 1
    assert 2 not in GAME.active_seats(state)


def test_a_scouting_soldier_reactivates_the_passed_neighbour() -> None:
    # Spec 2.3 design choice and 2.6: the soldier paid for a neighbour's pattern goes to them.
    state = chosen(start(3))
    state = edit(state, 0, _market_ready)
    state = edit(state, 0, hand(soldier=1))
    state = edit(state, 1, hand())
    state, _ = act(state, 1, "pass")
    state, _ = act(state, 0, "scout A1 A2 A3 B2 from right neighbour")  # aristocrat: T
    assert state.sheets[1]["hand"]["soldier"] == 1 and 1 in GAME.active_seats(state)


def test_own_card_scouting_pays_the_supply() -> None:
    # Spec 2.6: with one's own Prospect card, the soldier goes to the supply.
    state = chosen(start(3))
    state = edit(state, 0, _market_ready)
    state = edit(state, 0, hand(soldier=1))
    others = [dict(s["hand"]) for s in state.sheets[1:]]
    state, _ = act(state, 0, "scout A1 A2 A3 B2 from own card")
    assert state.sheets[0]["hand"]["soldier"] == 0
    assert [dict(s["hand"]) for s in state.sheets[1:]] == others


# --------------------------------------------------------------------------------------------
# Scoring (spec 2.5, 8).


def _sheet(**changes: object) -> Sheet:
    sheet = new_sheet([])
    sheet.update(changes)
    return sheet


def test_disdain_penalty_table() -> None:
    # Spec 8.1: 0 1 3 5 7 9 12 15 18, then 22 for 9 or more.
    assert [penalty(d) for d in range(13)] == [0, 1, 3, 5, 7, 9, 12, 15, 18, 22, 22, 22, 22]


TIER_CASES = [
    ("architect", "landmarks", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3)]),
    ("aristocrat", "final_disdain", [(5, 0), (4, 1), (3, 1), (2, 2), (1, 2), (0, 3)]),
    ("defender", "wall_sections", [(0, 0), (1, 1), (2, 2), (3, 3)]),
    ("engineer", "large_buildings", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3)]),
    ("fighter", "complete_cohorts", [(0, 0), (1, 1), (2, 2), (3, 3)]),
    ("forager", "production", [(2, 0), (3, 1), (5, 1), (6, 2), (8, 2), (9, 3)]),
    ("merchant", "market_goods", [(3, 0), (4, 1), (5, 1), (6, 2), (7, 2), (8, 3)]),
    ("planner", "complete_citizen_tracks", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 3)]),
    ("pontiff", "complete_temples", [(0, 0), (1, 1), (2, 2), (3, 3)]),
    ("ranger", "complete_map_columns", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)]),
    ("trainer", "gladiator_strength", [(3, 0), (4, 1), (7, 1), (8, 2), (11, 2), (12, 3)]),
    ("vanguard", "wall_guard_sections", [(0, 0), (1, 1), (2, 2), (3, 3)]),
]


@pytest.mark.parametrize(("card", "measure", "cases"), TIER_CASES)
def test_path_card_tiers_at_every_boundary(card: str, measure: str,
                                           cases: list[tuple[int, int]]) -> None:
    # Spec 8.2: the highest tier reached, else 0.
    for value, points in cases:
        assert path_points(card, {measure: value}) == points, (card, value)


def test_section_measures_need_every_box_of_the_granary_column() -> None:
    # Spec 8.2: Defender counts Wall columns of 7 filled boxes, Vanguard Wall Guard columns of
    # 6, Pontiff temples with every box (2, 6, 6), Merchant counts duplicates.
    def paths(**changes: object) -> dict[str, int]:
        return breakdown(_sheet(paths=list(PLAYER_CARD_IDS), **changes), GAME.options())

    assert paths(wall=13)["path defender"] == 1 and paths(wall=14)["path defender"] == 2
    assert paths(guard=17)["path vanguard"] == 2 and paths(guard=18)["path vanguard"] == 3
    assert paths(temple_boxes=7)["path pontiff"] == 1
    assert paths(temple_boxes=14)["path pontiff"] == 3
    assert paths(market=[1, 1, 1, 1, 0, 0, 0, 0])["path merchant"] == 1


def test_six_path_cards_score_independently_and_add_up() -> None:
    # Spec 8.1: each Path card scores on its own, at most 3 VP each.
    sheet = _sheet(paths=["fighter", "forager", "vanguard", "architect", "defender", "ranger"],
                   cohorts=[6, 6, 6], production=9, guard=6)
    score = breakdown(sheet, GAME.options())
    assert [score["path " + c] for c in sheet["paths"]] == [3, 3, 1, 0, 0, 0]
    assert score["paths"] == 7 and score["total"] == 7


def test_a_higher_total_beats_less_disdain() -> None:
    # Spec 2.5: the tie-breaks only apply to equal totals.
    a = _sheet(attributes={"renown": 20, "piety": 0, "valour": 0, "discipline": 0},
               disdain=2)  # 20 - 3 = 17
    b = _sheet(attributes={"renown": 16, "piety": 0, "valour": 0, "discipline": 0})
    result = outcome((a, b), GAME.options())
    assert result.scores == (17, 16) and result.ranking == ((0,), (1,))


def test_equal_total_and_disdain_more_path_points_win() -> None:
    # Spec 2.5 second tie-break, with Disdain equal but not zero.
    a = _sheet(attributes={"renown": 13, "piety": 0, "valour": 0, "discipline": 0},
               disdain=1)
    b = _sheet(attributes={"renown": 11, "piety": 0, "valour": 0, "discipline": 0}, disdain=1,
               paths=["fighter"], cohorts=[6, 6, 0])
    result = outcome((a, b), GAME.options())
    assert result.scores == (12, 12) and result.ranking == ((1,), (0,))


def test_the_final_view_carries_the_outcome_and_breakdown() -> None:
    # Spec 8.1 scoring column rows; the views at the end include the outcome.
    state = start(2)
    for _ in range(6):
        state = pass_all(chosen(state))
    view = GAME.view(state, None)
    result = GAME.outcome(state)
    assert result is not None and view["outcome"] == result.to_json()
    for parts in view["outcome"]["breakdown"]:
        assert parts["total"] == (parts["renown"] + parts["piety"] + parts["valour"]
                                  + parts["discipline"] + parts["paths"]
                                  + parts["disdain_penalty"])


# --------------------------------------------------------------------------------------------
# Hidden information (DESIGN: secrets leave only through view(state, seat)).


def _three(seat1_cards: list[str]) -> State:
    cards = [list(PLAYER_CARD_IDS), seat1_cards, list(PLAYER_CARD_IDS)]
    return start(3, player_cards=cards)


def test_a_seats_draw_and_choice_reach_no_other_seat_nor_the_channel() -> None:
    # Spec 2.2 step 2 (face down until all have chosen), for every observer and every event.
    other_order = [*PLAYER_CARD_IDS[4:], *PLAYER_CARD_IDS[:4]]  # fighter, forager first
    a, b = _three(list(PLAYER_CARD_IDS)), _three(other_order)
    ta = GAME.apply(a, 1, {"type": "choose", "path": a.sheets[1]["drawn"][1]})
    tb = GAME.apply(b, 1, {"type": "choose", "path": b.sheets[1]["drawn"][0]})
    for observer in (None, 0, 2):
        va, vb = GAME.view(ta.state, observer), GAME.view(tb.state, observer)
        assert va == vb
        assert GAME.describe(va) == GAME.describe(vb)
        seen_a = [e.text for e in ta.events if e.visible_to(observer)]
        seen_b = [e.text for e in tb.events if e.visible_to(observer)]
        assert seen_a == seen_b
    public = json.dumps(GAME.view(tb.state, None))
    assert '"fighter"' not in public and '"forager"' not in public


def test_the_public_view_names_no_fate_card_still_in_the_draw_pile() -> None:
    # Spec 2.1: the Fate draw pile is face down; only the Year card and attack cards show.
    state = pass_all(chosen(start(1)))
    state = chosen(state)
    text = json.dumps(GAME.view(state, None))
    named = set(re.findall(r"F\d\d", text))
    shown = {state.year_card, *state.last_attack["cards"]}
    assert named <= shown
    assert not named & set(state.fate_draw)
    assert state.rng not in text


def test_the_neutral_deck_order_is_hidden() -> None:
    # Spec 9: the Neutral deck is face down; two orders that agree on the revealed cards give
    # the same views.
    base = list(reversed(PLAYER_CARD_IDS))
    swapped = [*base[:2], *reversed(base[2:])]
    a = chosen(GAME.setup(1, "n", {"fate_order": list(FATE_IDS), "neutral_order": base,
                                   "player_cards": [list(PLAYER_CARD_IDS)]}))
    b = chosen(GAME.setup(1, "n", {"fate_order": list(FATE_IDS), "neutral_order": swapped,
                                   "player_cards": [list(PLAYER_CARD_IDS)]}))
    assert a.neutral_deck != b.neutral_deck
    for observer in (None, 0):
        assert GAME.view(a, observer) == GAME.view(b, observer)


def test_the_next_years_draws_are_dealt_by_private_events_only() -> None:
    # Spec 2.2 step 2: each player sees only their own two cards; the channel learns nothing.
    orders = [list(PLAYER_CARD_IDS[i:]) + list(PLAYER_CARD_IDS[:i]) for i in (0, 4, 8)]
    state = chosen(start(3, player_cards=orders))
    for seat in (0, 1):
        state, _ = act(state, seat, "pass")
    t = GAME.apply(state, 2, {"type": "pass"})
    assert t.state.year == 2 and t.irreversible
    draws = [e for e in t.events if e.kind == "draw"]
    assert [sorted(e.to or ()) for e in draws] == [[0], [1], [2]]
    dealt = {c for s in t.state.sheets for c in s["drawn"]}
    assert len(dealt) == 6
    for event in t.events:
        if event.to is None:
            assert not any(card in event.text for card in dealt), event.text
            assert not any(card in json.dumps(dict(event.data)) for card in dealt)
    assert not any(f'"{card}"' in json.dumps(GAME.view(t.state, None)) for card in dealt)
