"""Scenario tests for the left sheet of Hadrian's Wall (spec section 3)."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, InvalidAction
from rules.hadrians_wall import GAME
from rules.hadrians_wall.state import Sheet
from tests.rules.test_hadrians_wall_kit import act, chosen, edit, hand, legal_types, start


def _year1() -> object:
    return chosen(start(1))


def test_granary_column_lock_and_its_unlock() -> None:
    # Spec 3 "Granary column gating" and 3.6: Mining box 5 lies in the medium granary column.
    def setup(sheet: Sheet) -> None:
        sheet["mining"] = 4
        sheet["fort"] = 1  # Infrastructure 1, enough for the medium granary
        sheet["hand"] = {"soldier": 0, "builder": 1, "servant": 2, "civilian": 0, "resource": 1}

    state = edit(_year1(), 0, setup)
    assert "mining" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="medium granary"):
        act(state, 0, {"type": "mining", "box": 5})
    state, _ = act(state, 0, "build medium granary (1 servant, 1 builder, 1 resource)")
    assert "granary_medium" in state.sheets[0]["built"]
    state, _ = act(state, 0, "mining 5 (1 servant)")
    assert state.sheets[0]["mining"] == 5
    # Box 5 shows production + resource.
    assert state.sheets[0]["production"] == 2 and state.sheets[0]["hand"]["resource"] == 1


def test_large_granary_needs_the_medium_one_and_infrastructure_5() -> None:
    # Spec 3.6.
    state = edit(_year1(), 0, hand(servant=2, builder=2, resource=4))
    state = edit(state, 0, lambda s: s.update(fort=11))
    with pytest.raises(IllegalAction, match="medium granary"):
        act(state, 0, {"type": "build", "building": "granary_large"})
    state, _ = act(state, 0, {"type": "build", "building": "granary_medium"})
    state, _ = act(state, 0, {"type": "build", "building": "granary_large"})
    sheet = state.sheets[0]
    assert sheet["attributes"]["renown"] == 1  # the large granary shows a Renown


def test_a_wall_box_is_refused_until_its_fort_box() -> None:
    # Spec 3.5: Wall box i is chained to Fort box i.
    state = edit(_year1(), 0, lambda s: s.update(fort=2, wall=2))
    state = edit(state, 0, hand(resource=2, builder=1))
    assert "wall" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="Fort 3"):
        act(state, 0, {"type": "wall", "box": 3})
    state, _ = act(state, 0, "fort 3 (1 builder)")
    assert state.sheets[0]["fort"] == 3
    state, _ = act(state, 0, "wall 3 (1 resource)")
    assert state.sheets[0]["wall"] == 3
    assert state.sheets[0]["hand"]["civilian"] == 1  # Wall 3 shows a civilian


def test_cippi_are_chained_to_fort_boxes_1_4_7() -> None:
    # Spec 3.5: Cippi 1, 2, 3 need Fort 1, 4, 7; Cippi 3 shows a cohort shield.
    state = edit(_year1(), 0, hand(resource=5))
    state = edit(state, 0, lambda s: s.update(fort=1))
    state, _ = act(state, 0, "cippi 1")
    with pytest.raises(IllegalAction, match="Fort 4"):
        act(state, 0, {"type": "cippi", "box": 2})
    state = edit(state, 0, lambda s: s.update(fort=6))
    state, _ = act(state, 0, "cippi 2")
    with pytest.raises(IllegalAction, match="Fort 7"):
        act(state, 0, {"type": "cippi", "box": 3})
    state = edit(state, 0, lambda s: s.update(fort=7))
    legal = GAME.legal_actions(state, 0)
    assert {"type": "cippi", "box": 3, "cohort": "center"} in legal
    state, _ = act(state, 0, "cippi 3 (1 resource), centre cohort")
    assert state.sheets[0]["cohorts"] == [0, 1, 0]
    # Cippi 4 lies in the medium granary column (and needs Fort 10).
    state = edit(state, 0, lambda s: s.update(fort=10))
    with pytest.raises(IllegalAction, match="medium granary"):
        act(state, 0, {"type": "cippi", "box": 4})


def test_a_cohort_shield_needs_a_choice_and_is_wasted_when_all_are_full() -> None:
    # Spec 2.3 "Wasted rewards" and 3.3 (Wall Guard 1 shows a cohort shield).
    state = edit(_year1(), 0, hand(soldier=2))
    with pytest.raises(IllegalAction, match="which cohort"):
        act(state, 0, {"type": "guard", "box": 1})
    with pytest.raises(InvalidAction, match="which cohort"):
        GAME.parse_action(state, 0, "wall guard 1")
    state = edit(state, 0, lambda s: s.update(cohorts=[6, 6, 6]))
    assert {"type": "guard", "box": 1} in GAME.legal_actions(state, 0)
    state, _ = act(state, 0, "wall guard 1 (1 soldier)")
    assert state.sheets[0]["cohorts"] == [6, 6, 6] and state.sheets[0]["guard"] == 1


def test_cohort_boxes_give_discipline_and_valour() -> None:
    # Spec 3.1: cohort boxes 3, 5, 6 show discipline, valour, discipline.
    state = edit(_year1(), 0, hand(soldier=1))
    state = edit(state, 0, lambda s: s.update(cohorts=[4, 0, 0]))
    state, _ = act(state, 0, {"type": "guard", "box": 1, "cohort": "left"})
    assert state.sheets[0]["attributes"]["valour"] == 1


def test_training_grounds_once_per_year_and_never_past_a_locked_guard_box() -> None:
    # Spec 3.8 and design choice 5.
    state = edit(_year1(), 0, hand(builder=3))
    state, _ = act(state, 0, "training grounds 1: sword to wall guard, right cohort")
    sheet = state.sheets[0]
    assert sheet["guard"] == 1 and sheet["cohorts"] == [0, 0, 1] and sheet["training"] == [1]
    assert "train" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="once per Year"):
        act(state, 0, {"type": "train", "box": 2})
    locked = edit(state, 0, lambda s: s.update(guard=6, training=[]))
    with pytest.raises(IllegalAction, match="medium granary"):
        act(locked, 0, {"type": "train", "box": 1})


def test_fort_boxes_raise_infrastructure_for_common_buildings() -> None:
    # Spec 3.4 and 3.9: the small hotel needs Infrastructure 2 (Fort box 3).
    state = edit(_year1(), 0, hand(builder=3, servant=1, resource=1, soldier=1))
    state, _ = act(state, 0, "fort 1 (1 builder)")
    state, _ = act(state, 0, "fort 2 (1 soldier)")
    assert "hotel_small" not in {a.get("building") for a in GAME.legal_actions(state, 0)}
    state, _ = act(state, 0, "fort 3 (1 builder)")
    state, _ = act(state, 0, "build small hotel")
    assert state.sheets[0]["hand"]["civilian"] == 1


def test_forum_gives_a_type_that_was_not_paid_once_per_year() -> None:
    # Spec 3.10 and design choice 6.
    state = edit(_year1(), 0, hand(builder=1, servant=3, soldier=2))
    gains = {a["gain"] for a in GAME.legal_actions(state, 0)
             if a["type"] == "forum" and a["pay"] == ["builder", "servant"]}
    assert gains == {"civilian"}
    with pytest.raises(IllegalAction, match="differ"):
        act(state, 0, {"type": "forum", "box": 1, "pay": ["servant", "servant"],
                       "gain": "servant"})
    with pytest.raises(InvalidAction):
        act(state, 0, {"type": "forum", "box": 1, "pay": ["soldier", "servant"],
                       "gain": "builder"})
    state, _ = act(state, 0, "forum: pay 2 servants, gain builder")
    assert state.sheets[0]["hand"]["builder"] == 2 and state.sheets[0]["hand"]["servant"] == 1
    assert "forum" not in legal_types(state, 0)


def test_landmark_needs_15_and_fills_another_track() -> None:
    # Spec 3.11: the Archway needs 15 Renown and gives 2 Valour.
    state = edit(_year1(), 0, hand(builder=1, resource=2))
    assert "landmark" not in legal_types(state, 0)
    state = edit(state, 0, lambda s: s["attributes"].update(renown=15))
    state, _ = act(state, 0, "landmark archway")
    assert state.sheets[0]["attributes"]["valour"] == 2
    assert state.sheets[0]["landmarks"] == ["archway"]


def test_attribute_chains_resolve_depth_first() -> None:
    # Spec 3.12: Renown 17 gives Piety; Piety 17 gives Renown (18), Renown 3 gives a civilian.
    state = edit(_year1(), 0, hand(builder=1, resource=2))
    state = edit(state, 0, lambda s: s["attributes"].update(renown=15, discipline=15, piety=16))
    state, _ = act(state, 0, "landmark statue")  # +2 renown: 16, 17 -> piety 17 -> renown 18
    attrs = state.sheets[0]["attributes"]
    assert attrs["renown"] == 18 and attrs["piety"] == 17
    assert state.sheets[0]["hand"]["civilian"] == 0  # boxes 16-18 show no worker


def test_attributes_above_25_are_wasted() -> None:
    # Spec 3.12.
    state = edit(_year1(), 0, hand(builder=1, resource=2))
    state = edit(state, 0, lambda s: s["attributes"].update(valour=25, renown=15))
    state, _ = act(state, 0, "landmark archway")
    assert state.sheets[0]["attributes"]["valour"] == 25


def test_road_income_is_a_choice_taken_before_acting() -> None:
    # Spec 2.2 step 3: +1 attribute of choice per filled Road circle.
    state = start(1)
    state = edit(state, 0, lambda s: s.update(built=["road_small", "road_large"]))
    state = chosen(state)
    assert state.sheets[0]["road_pending"] == 2
    assert legal_types(state, 0) == {"road"}
    with pytest.raises(IllegalAction, match="Road income"):
        act(state, 0, {"type": "pass"})
    state, _ = act(state, 0, "road income: +1 piety")
    state, _ = act(state, 0, "road discipline")
    assert state.sheets[0]["attributes"]["piety"] == 1
    assert state.sheets[0]["attributes"]["discipline"] == 1
    assert "pass" in legal_types(state, 0)


def test_building_the_small_road_gives_piety_or_discipline() -> None:
    # Spec 3.9: the small road's one-off reward is a choice.
    state = edit(_year1(), 0, hand(servant=2, builder=1, resource=1))
    state = edit(state, 0, lambda s: s.update(fort=9))
    with pytest.raises(IllegalAction, match="piety or discipline"):
        act(state, 0, {"type": "build", "building": "road_small", "attribute": "renown"})
    state, _ = act(state, 0, "build small road, +1 discipline")
    assert state.sheets[0]["attributes"]["discipline"] == 1


def test_workshop_and_hotel_income_at_year_setup() -> None:
    # Spec 2.2 step 3: production, hotel and workshop circles pay each Year.
    state = start(1)
    state = edit(state, 0, lambda s: s.update(built=["hotel_small", "workshop_small",
                                                     "workshop_large"], production=3))
    before = dict(state.sheets[0]["hand"])
    state = chosen(state)
    after = state.sheets[0]["hand"]
    # Prospect aristocrat: builder + civilian.
    assert after["resource"] - before["resource"] == 3
    assert after["civilian"] - before["civilian"] == 1 + 1
    assert after["builder"] - before["builder"] == 2 + 1
