"""Audit scenarios for the actions of both sheets of Hadrian's Wall: every building's
requirement, cost and reward, track locks, per-Year limits and thresholds (spec sections 3 and
4). Expected values are written from the specification, not read from the data files."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rules.core import IllegalAction
from rules.hadrians_wall import GAME
from rules.hadrians_wall.state import Sheet, State
from tests.rules.test_hadrians_wall_kit import act, chosen, edit, hand, legal_types, start

# Fort box that raises Infrastructure to k (spec 3.4): 1, 3, 5, 9, 11, 13, 15, 17.
INFRA_BOX = {0: 0, 1: 1, 2: 3, 3: 5, 4: 9, 5: 11, 6: 13, 7: 15, 8: 17}

# Spec 3.6, 3.9, 4.2-4.10: requirement, prerequisite, cost and the one-off reward.
BUILDINGS: dict[str, dict[str, Any]] = {
    "granary_medium": {"need": ("infrastructure", 1), "cost": {"servant": 1, "builder": 1,
                                                               "resource": 1}},
    "granary_large": {"need": ("infrastructure", 5), "after": "granary_medium",
                      "cost": {"servant": 1, "builder": 1, "resource": 2}, "attrs": {"renown": 1}},
    "hotel_small": {"need": ("infrastructure", 2), "cost": {"servant": 1, "builder": 1,
                                                            "resource": 1},
                    "goods": {"civilian": 1}},
    "hotel_large": {"need": ("infrastructure", 6), "after": "hotel_small",
                    "cost": {"servant": 1, "builder": 1, "resource": 2},
                    "attrs": {"renown": 1}, "goods": {"civilian": 1}},
    "workshop_small": {"need": ("infrastructure", 3), "cost": {"resource": 3},
                       "goods": {"builder": 1}},
    "workshop_large": {"need": ("infrastructure", 7), "after": "workshop_small",
                       "cost": {"resource": 4}, "attrs": {"renown": 1}, "goods": {"builder": 1}},
    "road_small": {"need": ("infrastructure", 4), "cost": {"servant": 2, "builder": 1,
                                                           "resource": 1},
                   "choice": ("piety", "discipline")},
    "road_large": {"need": ("infrastructure", 8), "after": "road_small",
                   "cost": {"servant": 2, "builder": 1, "resource": 2},
                   "choice": ("renown", "valour")},
    "precinct_small": {"need": ("traders", 3), "cost": {"servant": 1, "civilian": 1},
                       "attrs": {"piety": 1}, "goods": {"resource": 1}, "production": 1},
    "precinct_medium": {"need": ("traders", 6), "after": "precinct_small",
                        "cost": {"servant": 1, "civilian": 2}, "attrs": {"discipline": 1},
                        "goods": {"resource": 1}, "production": 1},
    "precinct_large": {"need": ("traders", 9), "after": "precinct_medium",
                       "cost": {"servant": 1, "civilian": 3}, "attrs": {"renown": 1},
                       "goods": {"resource": 1}, "production": 1},
    "market": {"need": ("traders", 4), "cost": {"servant": 1, "builder": 1, "resource": 2},
               "attrs": {"renown": 1}},
    "theatre": {"need": ("performers", 1), "cost": {"servant": 1, "builder": 1, "resource": 1},
                "attrs": {"renown": 1}},
    "ludus": {"need": ("performers", 3), "cost": {"servant": 2, "builder": 1, "resource": 2},
              "attrs": {"renown": 1}},
    "gardens_small": {"need": ("priests", 4), "cost": {"servant": 1, "builder": 1,
                                                       "resource": 1},
                      "attrs": {"piety": 1},
                      "citizens": {"traders": 1, "performers": 1, "priests": 1}},
    "gardens_large": {"need": ("priests", 7), "after": "gardens_small",
                      "cost": {"servant": 1, "builder": 1, "resource": 2},
                      # 1 Piety printed, 1 more from Priests box 8 (priests 7 -> 8).
                      "attrs": {"piety": 2},
                      "citizens": {"traders": 1, "performers": 1, "priests": 1,
                                   "apparitores": 1, "patricians": 1}},
    "temple_small": {"need": ("priests", 1), "cost": {"servant": 1, "builder": 1,
                                                      "resource": 1},
                     "attrs": {"piety": 1}},
    "temple_medium": {"need": ("priests", 3), "after": "temple_small",
                      "cost": {"servant": 1, "builder": 1, "resource": 2},
                      "attrs": {"piety": 1}},
    "temple_large": {"need": ("priests", 6), "after": "temple_medium",
                     "cost": {"servant": 2, "builder": 1, "resource": 2},
                     "attrs": {"piety": 1}},
    "baths": {"need": ("apparitores", 3), "cost": {"servant": 2, "builder": 1, "resource": 2},
              "attrs": {"renown": 1}},
    "courthouse": {"need": ("apparitores", 4), "cost": {"servant": 2, "builder": 1,
                                                        "resource": 2},
                   "attrs": {"renown": 1}},
}


def _year1() -> State:
    return chosen(start(1))


def _ready(name: str, level: int) -> Any:
    """A sheet meeting ``name``'s prerequisite building, with its requirement at ``level``."""
    spec = BUILDINGS[name]
    key, _ = spec["need"]

    def change(sheet: Sheet) -> None:
        if "after" in spec:
            sheet["built"].append(spec["after"])
        if key == "infrastructure":
            sheet["fort"] = INFRA_BOX[level]
        else:
            sheet["citizens"][key] = level

    return change


def _action(name: str) -> dict[str, Any]:
    spec = BUILDINGS[name]
    action: dict[str, Any] = {"type": "build", "building": name}
    if "choice" in spec:
        action["attribute"] = spec["choice"][0]
    return action


@pytest.mark.parametrize("name", sorted(BUILDINGS))
def test_each_building_requirement_cost_and_reward(name: str) -> None:
    # Spec 3.6, 3.9 and 4.2-4.10: refused one below the requirement and without the cost; at
    # the requirement it takes exactly the cost and gives the printed reward once.
    spec = BUILDINGS[name]
    _, level = spec["need"]
    low = edit(edit(_year1(), 0, _ready(name, level - 1)), 0, hand(**spec["cost"]))
    with pytest.raises(IllegalAction, match=f"needs {level}"):
        act(low, 0, _action(name))
    ok = edit(_year1(), 0, _ready(name, level))
    for good in spec["cost"]:
        short = dict(spec["cost"])
        short[good] -= 1
        with pytest.raises(IllegalAction, match="costs"):
            act(edit(ok, 0, hand(**short)), 0, _action(name))
    ok = edit(ok, 0, hand(**spec["cost"]))
    assert _action(name) in GAME.legal_actions(ok, 0)
    before = ok.sheets[0]
    after, _ = act(ok, 0, _action(name))
    sheet = after.sheets[0]
    assert name in sheet["built"]
    attrs = dict(spec.get("attrs", {}))
    if "choice" in spec:
        attrs[spec["choice"][0]] = 1
    for attr in ("renown", "piety", "valour", "discipline"):
        assert sheet["attributes"][attr] - before["attributes"][attr] == attrs.get(attr, 0)
    assert sheet["production"] - before["production"] == spec.get("production", 0)
    for track in ("traders", "performers", "priests", "apparitores", "patricians"):
        assert sheet["citizens"][track] - before["citizens"][track] == spec.get(
            "citizens", {}).get(track, 0)
    if "citizens" not in spec:  # citizen boxes pay their own rewards; checked elsewhere
        assert sheet["hand"] == {g: spec.get("goods", {}).get(g, 0) for g in sheet["hand"]}
    with pytest.raises(IllegalAction, match="already built"):
        act(edit(after, 0, hand(**spec["cost"])), 0, _action(name))


@pytest.mark.parametrize("name", sorted(n for n in BUILDINGS if "after" in BUILDINGS[n]))
def test_a_larger_building_needs_the_smaller_one_first(name: str) -> None:
    # Spec 3.6, 3.9, 4.2, 4.6, 4.7: Small before Medium/Large.
    spec = BUILDINGS[name]
    _, level = spec["need"]
    state = edit(_year1(), 0, _ready(name, level))
    state = edit(state, 0, lambda s: s["built"].remove(spec["after"]))
    state = edit(state, 0, hand(**spec["cost"]))
    with pytest.raises(IllegalAction, match="before"):
        act(state, 0, _action(name))


def test_the_large_road_offers_renown_or_valour() -> None:
    # Spec 3.9: Large Road one-off reward is Renown or Valour (not Piety).
    state = edit(_year1(), 0, _ready("road_large", 8))
    state = edit(state, 0, hand(servant=2, builder=1, resource=2))
    options = {a.get("attribute") for a in GAME.legal_actions(state, 0)
               if a.get("building") == "road_large"}
    assert options == {"renown", "valour"}
    with pytest.raises(IllegalAction, match="renown or valour"):
        act(state, 0, {"type": "build", "building": "road_large", "attribute": "piety"})


# --------------------------------------------------------------------------------------------
# Left-sheet tracks (spec 3.1-3.5, 3.7, 3.8, 3.10-3.12).


@pytest.mark.parametrize(("track", "last_small", "action"), [
    ("mining", 4, {"type": "mining", "box": 5}),
    ("guard", 6, {"type": "guard", "box": 7}),
    ("fort", 7, {"type": "fort", "box": 8, "pay": "builder"}),
    ("wall", 7, {"type": "wall", "box": 8}),
])
def test_the_centre_column_of_each_track_needs_the_medium_granary(
        track: str, last_small: int, action: dict[str, Any]) -> None:
    # Spec 3 "Granary column gating": colC needs the Medium Granary, colR the Large one.
    state = edit(_year1(), 0, lambda s: s.update({"fort": 14, track: last_small}))
    state = edit(state, 0, hand(servant=1, soldier=1, builder=1, resource=1))
    with pytest.raises(IllegalAction, match="medium granary"):
        act(state, 0, action)
    state = edit(state, 0, lambda s: s["built"].append("granary_medium"))
    assert act(state, 0, action)  # Wall Guard 7 is a blank box: no cohort to choose


@pytest.mark.parametrize(("track", "last_centre", "action"), [
    ("mining", 9, {"type": "mining", "box": 10}),
    ("guard", 12, {"type": "guard", "box": 13}),
    ("fort", 14, {"type": "fort", "box": 15, "pay": "soldier"}),
    ("wall", 14, {"type": "wall", "box": 15}),
])
def test_the_right_column_of_each_track_needs_the_large_granary(
        track: str, last_centre: int, action: dict[str, Any]) -> None:
    # Spec 3 "Granary column gating" and 3.5 (Wall 15 is the first box of colR).
    state = edit(_year1(), 0, lambda s: (s.update({track: last_centre}),
                                         s.update(fort=max(s["fort"], 15)
                                                  if track == "wall" else s["fort"]),
                                         s["built"].append("granary_medium")))
    state = edit(state, 0, hand(servant=1, soldier=1, builder=1, resource=1))
    with pytest.raises(IllegalAction, match="large granary"):
        act(state, 0, action)
    state = edit(state, 0, lambda s: s["built"].append("granary_large"))
    assert act(state, 0, action)


def test_cippi_4_to_7_are_chained_to_fort_10_13_16_20() -> None:
    # Spec 3.5 Cippi links, with both granaries built.
    state = edit(_year1(), 0, lambda s: (s.update(cippi=3),
                                         s["built"].extend(["granary_medium", "granary_large"])))
    state = edit(state, 0, hand(resource=4))
    for box, fort in ((4, 10), (5, 13), (6, 16), (7, 20)):
        blocked = edit(state, 0, lambda s, f=fort: s.update(fort=f - 1))
        with pytest.raises(IllegalAction, match=f"Fort {fort}"):
            act(blocked, 0, {"type": "cippi", "box": box})
        state = edit(state, 0, lambda s, f=fort: s.update(fort=f))
        cohort = {"cohort": "left"} if box in (5, 7) else {}
        state, _ = act(state, 0, {"type": "cippi", "box": box, **cohort})
    sheet = state.sheets[0]
    assert sheet["cippi"] == 7 and sheet["cohorts"][0] == 2
    assert sheet["attributes"]["renown"] == 1  # Cippi 6
    assert sheet["hand"]["civilian"] == 1  # Cippi 4


def test_fort_and_wall_printed_rewards_in_the_small_column() -> None:
    # Spec 3.4 and 3.5: Fort 4/6 civilian, Fort 7 discipline; Wall 1/3/5 civilian, Wall 4
    # renown + cohort, Wall 7 cohort.
    state = edit(_year1(), 0, hand(builder=7, resource=7))
    for box in range(1, 8):
        state, _ = act(state, 0, {"type": "fort", "box": box, "pay": "builder"})
    sheet = state.sheets[0]
    assert sheet["hand"]["civilian"] == 2 and sheet["attributes"]["discipline"] == 1
    for box in range(1, 8):
        cohort = {"cohort": "center"} if box in (4, 7) else {}
        state, _ = act(state, 0, {"type": "wall", "box": box, **cohort})
    sheet = state.sheets[0]
    assert sheet["hand"]["civilian"] == 2 + 3
    assert sheet["attributes"]["renown"] == 1 and sheet["cohorts"] == [0, 2, 0]


def test_mining_every_third_box_gives_production_and_a_resource() -> None:
    # Spec 3.2 and 3.7: Mining 2 gives production + resource; production income follows.
    state = edit(_year1(), 0, hand(servant=2))
    state, _ = act(state, 0, "mining 1")
    assert state.sheets[0]["production"] == 1
    state, _ = act(state, 0, "mining 2")
    assert state.sheets[0]["production"] == 2 and state.sheets[0]["hand"]["resource"] == 1


def test_a_production_icon_is_wasted_when_all_9_circles_are_filled() -> None:
    # Spec 2.3 wasted rewards and 3.7: nine circles.
    state = edit(_year1(), 0, lambda s: s.update(production=9, mining=1))
    state = edit(state, 0, hand(servant=1))
    state, _ = act(state, 0, "mining 2")
    assert state.sheets[0]["production"] == 9 and state.sheets[0]["hand"]["resource"] == 1


def test_wall_guard_every_printed_reward_of_the_small_column() -> None:
    # Spec 3.3: boxes 1, 3, 6 cohort; 2, 5 discipline; 4 blank.
    state = edit(_year1(), 0, hand(soldier=6))
    for box in range(1, 7):
        cohort = {"cohort": "right"} if box in (1, 3, 6) else {}
        state, _ = act(state, 0, {"type": "guard", "box": box, **cohort})
    sheet = state.sheets[0]
    assert sheet["cohorts"] == [0, 0, 3]
    # Discipline: guard 2 and 5, plus cohort box 3.
    assert sheet["attributes"]["discipline"] == 3


def test_cohort_box_6_gives_discipline_and_a_seventh_shield_is_wasted() -> None:
    # Spec 3.1: cohort boxes 3, 5, 6 give discipline, valour, discipline; 6 boxes a cohort.
    state = edit(_year1(), 0, lambda s: s.update(cohorts=[5, 6, 6]))
    state = edit(state, 0, hand(soldier=2))
    state, _ = act(state, 0, {"type": "guard", "box": 1, "cohort": "left"})
    assert state.sheets[0]["attributes"]["discipline"] == 1
    assert {"type": "guard", "box": 2} in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "guard", "box": 2, "cohort": "left"})


def test_training_grounds_has_5_boxes_one_a_year() -> None:
    # Spec 3.8: 5 boxes, 1 builder, once per Year.
    state = edit(_year1(), 0, lambda s: s.update(training=[0, 0, 0, 0], guard=1))
    state = edit(state, 0, hand(builder=2))
    state, _ = act(state, 0, "training grounds 5")
    assert state.sheets[0]["guard"] == 2 and state.sheets[0]["attributes"]["discipline"] == 1
    state = edit(state, 0, lambda s: s.update(training=[0, 0, 0, 0, 0]))
    assert "train" not in legal_types(state, 0)


def test_training_into_a_locked_guard_box_is_allowed_and_wasted_by_option() -> None:
    # Spec 3.8 design choice, option training_when_guard_locked = true: the sword is lost.
    state = chosen(start(1, training_when_guard_locked=True))
    state = edit(state, 0, lambda s: s.update(guard=6))
    state = edit(state, 0, hand(builder=1))
    state, _ = act(state, 0, {"type": "train", "box": 1})
    sheet = state.sheets[0]
    assert sheet["guard"] == 6 and sheet["training"] == [1] and sheet["hand"]["builder"] == 0


def test_forum_with_the_other_type_reading_and_its_four_boxes() -> None:
    # Spec 3.10: 4 boxes; option forum_gain = other_type lets a builder + servant give a
    # builder (it differs from the servant).
    state = chosen(start(1, forum_gain="other_type"))
    state = edit(state, 0, hand(builder=1, servant=1))
    gains = {a["gain"] for a in GAME.legal_actions(state, 0) if a["type"] == "forum"}
    assert gains == {"builder", "servant", "civilian"}
    state = edit(_year1(), 0, lambda s: s.update(forum=[0, 0, 0, 0]))
    state = edit(state, 0, hand(builder=2))
    assert "forum" not in legal_types(state, 0)


LANDMARKS = [("archway", "renown", "valour"), ("monolith", "piety", "discipline"),
             ("column", "valour", "piety"), ("statue", "discipline", "renown")]


@pytest.mark.parametrize(("landmark", "needs", "gives"), LANDMARKS)
def test_each_landmark_needs_15_of_one_track_and_gives_2_of_another(
        landmark: str, needs: str, gives: str) -> None:
    # Spec 3.11 and 11.5: cost 1 builder + 2 resources, built once.
    state = edit(_year1(), 0, lambda s: s["attributes"].update({needs: 14}))
    state = edit(state, 0, hand(builder=2, resource=4))
    with pytest.raises(IllegalAction, match="15"):
        act(state, 0, {"type": "landmark", "landmark": landmark})
    state = edit(state, 0, lambda s: s["attributes"].update({needs: 15}))
    state, _ = act(state, 0, {"type": "landmark", "landmark": landmark})
    sheet = state.sheets[0]
    assert sheet["attributes"][gives] == 2 and sheet["hand"] == {
        "soldier": 0, "builder": 1, "servant": 0, "civilian": 0, "resource": 2}
    with pytest.raises(IllegalAction, match="already built"):
        act(state, 0, {"type": "landmark", "landmark": landmark})


@pytest.mark.parametrize(("attr", "worker", "cross"), [
    ("renown", "civilian", ("piety", "discipline", "valour")),
    ("piety", "servant", ("renown", "valour", "discipline")),
    ("valour", "soldier", ("discipline", "renown", "piety")),
    ("discipline", "builder", ("valour", "piety", "renown")),
])
def test_attribute_track_worker_boxes_and_cross_rewards(
        attr: str, worker: str, cross: tuple[str, str, str]) -> None:
    # Spec 3.12: workers at 3 6 9 12 15 19 23; boxes 17, 21, 25 fill another track.
    from rules.hadrians_wall.rewards import add_attribute
    from rules.hadrians_wall.state import new_sheet

    sheet = new_sheet([])
    gained: dict[str, int] = {}
    for _ in range(25):
        add_attribute(sheet, attr, gained)
    assert sheet["hand"][worker] == 7
    assert [sheet["attributes"][a] for a in cross] == [1, 1, 1]
    add_attribute(sheet, attr, gained)
    assert sheet["attributes"][attr] == 25 and gained["wasted " + attr] == 1


# --------------------------------------------------------------------------------------------
# Right sheet (spec 4).


def test_a_citizen_icon_for_a_full_track_is_wasted() -> None:
    # Spec 2.3 and 4.1: Theatre box 1 gives a trader; a full Traders track wastes it.
    state = edit(_year1(), 0, lambda s: (s["built"].append("theatre"),
                                         s["citizens"].update(performers=1, traders=9)))
    state = edit(state, 0, hand(resource=1))
    state, _ = act(state, 0, "theatre 1")
    assert state.sheets[0]["citizens"]["traders"] == 9
    assert state.sheets[0]["theatre"][0] == 1


def test_theatre_boxes_in_any_order_and_each_once_per_game() -> None:
    # Spec 4.4: any order, each box once, 1 performance a Year (the Year is written).
    state = edit(_year1(), 0, lambda s: (s["built"].append("theatre"),
                                         s["citizens"].update(performers=9)))
    state = edit(state, 0, hand(resource=2))
    state, _ = act(state, 0, "theatre 6")
    sheet = state.sheets[0]
    assert sheet["citizens"]["patricians"] == 1 and sheet["attributes"]["renown"] == 1
    with pytest.raises(IllegalAction, match="one performance per Year"):
        act(state, 0, {"type": "perform", "box": 1})
    # Year 2: the once-a-Year limit is over, but box 6 stays filled for the game.
    later = dataclasses.replace(state, year=2)
    with pytest.raises(IllegalAction, match="already filled"):
        act(later, 0, {"type": "perform", "box": 6})
    assert {a["box"] for a in GAME.legal_actions(later, 0) if a["type"] == "perform"} == {
        1, 2, 3, 4, 5}


@pytest.mark.parametrize(("strength", "performers"), [(0, 3), (1, 4), (2, 5), (3, 6), (4, 8),
                                                      (5, 9)])
def test_gladiator_training_column_needs_its_performers(strength: int, performers: int) -> None:
    # Spec 4.5 column_requirement: strength box k needs 3, 4, 5, 6, 8, 9 Performers.
    state = edit(_year1(), 0, lambda s: (
        s["built"].append("ludus"), s["citizens"].update(performers=performers - 1),
        s["gladiators"].__setitem__(1, {"strength": strength, "damage": 0, "battles": []})))
    state = edit(state, 0, hand(servant=1))
    with pytest.raises(IllegalAction, match=f"needs {performers} performers"):
        act(state, 0, {"type": "gladiator", "gladiator": "blue", "pay": "servant"})
    state = edit(state, 0, lambda s: s["citizens"].update(performers=performers))
    state, _ = act(state, 0, {"type": "gladiator", "gladiator": "blue", "pay": "servant"})
    assert state.sheets[0]["gladiators"][1]["strength"] == strength + 1


def test_a_wounded_gladiator_trains_on_and_both_may_battle_in_one_year() -> None:
    # Spec 4.5: training circles the next box even after damage; battles are once a Year per
    # gladiator, so red and blue may both fight. F12 and F03 deal 1 damage each.
    from rules.hadrians_wall.components import FATE_IDS

    fate = ["F01", "F12", "F03", *(c for c in FATE_IDS if c not in ("F01", "F12", "F03"))]
    state = chosen(start(1, fate=fate))
    state = edit(state, 0, lambda s: (
        s["built"].append("ludus"), s["citizens"].update(performers=9),
        s["gladiators"].__setitem__(0, {"strength": 2, "damage": 0, "battles": []}),
        s["gladiators"].__setitem__(1, {"strength": 6, "damage": 0, "battles": []})))
    state = edit(state, 0, hand(civilian=1))
    state, _ = act(state, 0, "battle red gladiator")
    state, _ = act(state, 0, "battle blue gladiator")
    red, blue = state.sheets[0]["gladiators"]
    assert (red["damage"], blue["damage"]) == (1, 1)
    # Survivors: red strength 2 -> 1 Renown; blue strength 6 -> 2 Renown and a resource.
    assert state.sheets[0]["attributes"]["renown"] == 3
    assert state.sheets[0]["hand"]["resource"] >= 1
    state, _ = act(state, 0, {"type": "gladiator", "gladiator": "red", "pay": "civilian"})
    assert state.sheets[0]["gladiators"][0]["strength"] == 3
    assert "battle" not in legal_types(state, 0)


@pytest.mark.parametrize(("box", "priests"), [(1, 1), (3, 3), (5, 5), (7, 6), (9, 6), (11, 8),
                                              (13, 9)])
def test_each_temple_row_needs_its_priests(box: int, priests: int) -> None:
    # Spec 4.7 rows: small 1; medium 3, 5, 6; large 6, 8, 9 (JSON boxes 1-14 in fill order).
    temples = ["temple_small", "temple_medium", "temple_large"]
    state = edit(_year1(), 0, lambda s: (s.update(temple_boxes=box - 1),
                                         s["built"].extend(temples),
                                         s["citizens"].update(priests=priests - 1)))
    state = edit(state, 0, hand(soldier=1))
    with pytest.raises(IllegalAction, match=f"needs {priests} priests"):
        act(state, 0, {"type": "temple", "box": box, "pay": "soldier"})
    state = edit(state, 0, lambda s: s["citizens"].update(priests=priests))
    state, _ = act(state, 0, {"type": "temple", "box": box, "pay": "soldier"})
    assert state.sheets[0]["temple_boxes"] == box


def test_the_large_temple_waits_for_a_full_medium_temple_and_ends_with_a_favour() -> None:
    # Spec 4.7: no Large box before the Medium is full; the last box gives Piety + Favour.
    temples = ["temple_small", "temple_medium", "temple_large"]
    state = edit(_year1(), 0, lambda s: (s.update(temple_boxes=7), s["built"].extend(temples),
                                         s["citizens"].update(priests=9)))
    state = edit(state, 0, hand(builder=1, servant=1, resource=0, civilian=7))
    with pytest.raises(IllegalAction, match="next temple box is 8"):
        act(state, 0, {"type": "temple", "box": 9, "pay": "builder"})
    state, _ = act(state, 0, {"type": "temple", "box": 8, "pay": "builder"})
    assert state.sheets[0]["favours"] == 1
    for box in range(9, 15):
        state, _ = act(state, 0, {"type": "temple", "box": box, "pay": "civilian"
                                  if box < 14 else "servant"})
    sheet = state.sheets[0]
    assert sheet["favours"] == 2 and sheet["attributes"]["piety"] == 1 + 3
    assert "temple" not in legal_types(state, 0)


@pytest.mark.parametrize(("box", "apparitores", "cost"), [(1, 3, 1), (2, 4, 1), (3, 5, 2),
                                                          (4, 6, 2), (5, 7, 3), (6, 8, 3)])
def test_each_baths_box_needs_its_apparitores_and_resources(box: int, apparitores: int,
                                                            cost: int) -> None:
    # Spec 4.8 bribe boxes.
    state = edit(_year1(), 0, lambda s: (s["built"].append("baths"), s.update(disdain=1),
                                         s["citizens"].update(apparitores=apparitores - 1)))
    state = edit(state, 0, hand(resource=cost))
    with pytest.raises(IllegalAction, match=f"needs {apparitores} apparitores"):
        act(state, 0, {"type": "bribe", "box": box})
    state = edit(state, 0, lambda s: s["citizens"].update(apparitores=apparitores))
    short = edit(state, 0, hand(resource=cost - 1))
    with pytest.raises(IllegalAction, match=f"costs {cost}"):
        act(short, 0, {"type": "bribe", "box": box})
    state, _ = act(state, 0, {"type": "bribe", "box": box})
    sheet = state.sheets[0]
    assert sheet["disdain_removed"] == 1 and sheet["hand"]["resource"] == 0


@pytest.mark.parametrize(("column", "needs", "pay", "gain"), [
    (1, (4, 5, 6), {}, {"servant": 1}),
    (2, (5, 6, 7), {"builder": 1}, {"servant": 2}),
    (3, (6, 7, 8), {"servant": 1}, {"builder": 1}),
])
def test_courthouse_columns_go_top_to_bottom_with_rising_requirements(
        column: int, needs: tuple[int, int, int], pay: dict[str, int],
        gain: dict[str, int]) -> None:
    # Spec 4.9: one ruling per column per Year; box k of a column needs its Apparitores.
    for k, need in enumerate(needs):
        state = edit(_year1(), 0, lambda s, k=k, need=need: (
            s["built"].append("courthouse"), s["citizens"].update(apparitores=need - 1),
            s["courthouse"].__setitem__(column - 1, [0] * k)))
        state = edit(state, 0, hand(**pay))
        with pytest.raises(IllegalAction, match=f"needs {need} apparitores"):
            act(state, 0, {"type": "ruling", "column": column})
        state = edit(state, 0, lambda s, need=need: s["citizens"].update(apparitores=need))
        state, _ = act(state, 0, {"type": "ruling", "column": column})
        assert state.sheets[0]["hand"] == {g: gain.get(g, 0) for g in state.sheets[0]["hand"]}
    full = edit(_year1(), 0, lambda s: (s["built"].append("courthouse"),
                                        s["citizens"].update(apparitores=9),
                                        s["courthouse"].__setitem__(column - 1, [0, 0, 0])))
    with pytest.raises(IllegalAction, match="full"):
        act(edit(full, 0, hand(servant=1, builder=1)), 0, {"type": "ruling", "column": column})


def test_diplomats_need_1_3_6_patricians_and_there_are_three() -> None:
    # Spec 4.10: k-th diplomat requirement, cost 1 servant 1 soldier 2 resources.
    state = edit(_year1(), 0, lambda s: s["citizens"].update(patricians=1))
    state = edit(state, 0, hand(servant=3, soldier=3, resource=6))
    state, _ = act(state, 0, "diplomat for left cohort")
    with pytest.raises(IllegalAction, match="needs 3 patricians"):
        act(state, 0, {"type": "diplomat", "cohort": "center"})
    state = edit(state, 0, lambda s: s["citizens"].update(patricians=5))
    state, _ = act(state, 0, {"type": "diplomat", "cohort": "center"})
    with pytest.raises(IllegalAction, match="needs 6 patricians"):
        act(state, 0, {"type": "diplomat", "cohort": "right"})
    state = edit(state, 0, lambda s: s["citizens"].update(patricians=6))
    state, _ = act(state, 0, {"type": "diplomat", "cohort": "right"})
    sheet = state.sheets[0]
    assert [d["cohort"] for d in sheet["diplomats"]] == ["left", "center", "right"]
    assert sheet["hand"] == {"soldier": 1, "builder": 0, "servant": 0, "civilian": 0,
                             "resource": 0}  # Valour 3 gave back a soldier
    assert "diplomat" not in legal_types(edit(state, 0, hand(servant=1, soldier=1,
                                                             resource=2)), 0)


def test_scouts_need_2_4_5_7_9_patricians_in_order() -> None:
    # Spec 4.11: five scouts used in order, each with its Patricians requirement.
    state = edit(_year1(), 0, lambda s: s["citizens"].update(patricians=1))
    state = edit(state, 0, hand(soldier=5))
    with pytest.raises(IllegalAction, match="needs 2 patricians"):
        act(state, 0, "scout A1 A2 A3 B2 from own card")
    for k, need in enumerate((2, 4, 5, 7, 9)):
        state = edit(state, 0, lambda s, k=k: s.update(scouts=k))
        state = edit(state, 0, lambda s, need=need: s["citizens"].update(patricians=need - 1))
        assert "scout" not in legal_types(state, 0)
        state = edit(state, 0, lambda s, need=need: s["citizens"].update(patricians=need))
        assert "scout" in legal_types(state, 0)


def test_one_pattern_completing_four_rows_gives_four_valour() -> None:
    # Spec 4.11: 1 Valour per completed row. A vertical I pattern (the ranger as own
    # Prospect card) completes four rows at once.
    cards = ["ranger", "architect", *[c for c in _ids() if c not in ("ranger", "architect")]]
    state = chosen(start(1, player_cards=[cards]), pick=1)  # Path architect, Prospect ranger
    assert state.sheets[0]["prospects"] == ["ranger"]
    state = edit(state, 0, lambda s: (s["citizens"].update(patricians=9),
                                      s.update(map=[0, 1, 1, 1, 1] * 4, scouts=4)))
    state = edit(state, 0, hand(soldier=1))
    state, _ = act(state, 0, "scout A1 B1 C1 D1 from own card")
    sheet = state.sheets[0]
    assert sheet["attributes"]["valour"] == 4
    # Cells A1 and D1 show a resource each.
    assert sheet["hand"]["resource"] == 2


def _ids() -> list[str]:
    from rules.hadrians_wall.components import PLAYER_CARD_IDS

    return list(PLAYER_CARD_IDS)


def test_market_boxes_take_any_order_and_boxes_7_8_give_workers() -> None:
    # Spec 4.3: any order; box 7 (8 traders) gives a servant, box 8 (9 traders) a builder;
    # duplicates are recorded with no Renown.
    state = edit(_year1(), 0, lambda s: (s["built"].append("market"),
                                         s["citizens"].update(traders=9)))
    state = edit(state, 0, hand(resource=2))
    state, _ = act(state, 0, {"type": "market", "box": 7, "from": "neutral1"})
    state, _ = act(state, 0, {"type": "market", "box": 3, "from": "neutral1"})
    sheet = state.sheets[0]
    assert sheet["market"] == [0, 0, 2, 0, 0, 0, 2, 0]
    assert sheet["hand"]["servant"] == 1 and sheet["attributes"]["renown"] == 1
