"""Audit scenarios for Hadrian's Wall limits and thresholds not pinned elsewhere: Infrastructure
per Fort box, Training Grounds on a full Wall Guard, the Cippi large-granary lock, gladiator
reward columns, and the actions with no per-Year limit (spec sections 3.4, 3.5, 3.8, 4.3, 4.5,
4.8 and 4.11). Expected values come from the specification text."""

from __future__ import annotations

import dataclasses

import pytest

from rules.core import IllegalAction
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import FATE_IDS
from rules.hadrians_wall.state import Sheet, State
from tests.rules.test_hadrians_wall_kit import Edit, act, chosen, edit, hand, legal_types, start

INFRA_FLAGS = (1, 3, 5, 9, 11, 13, 15, 17)  # spec 3.4: Fort boxes with an orange flag


def _year1(fate: list[str] | None = None) -> State:
    return chosen(start(1, fate=fate))


def test_infrastructure_is_the_number_of_flagged_fort_boxes_filled() -> None:
    # Spec 3.4 infrastructure_level: 0..8, raised only by the flagged boxes.
    state = _year1()
    for fort in range(22):
        view = GAME.view(edit(state, 0, lambda s, f=fort: s.update(fort=f)), None)
        assert view["sheets"][0]["infrastructure"] == sum(1 for b in INFRA_FLAGS if b <= fort)


def test_training_grounds_are_refused_when_the_wall_guard_is_full() -> None:
    # Spec 3.8 design choice: illegal when Wall Guard is full.
    state = edit(_year1(), 0, lambda s: (s.update(guard=18),
                                         s["built"].extend(["granary_medium", "granary_large"])))
    state = edit(state, 0, hand(builder=1))
    assert "train" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="full"):
        act(state, 0, {"type": "train", "box": 1})


def test_cippi_6_needs_the_large_granary_even_with_its_fort_box() -> None:
    # Spec 3.5: Cippi 6 lies in colR (and is chained to Fort 16).
    state = edit(_year1(), 0, lambda s: (s.update(cippi=5, fort=16),
                                         s["built"].append("granary_medium")))
    state = edit(state, 0, hand(resource=1))
    with pytest.raises(IllegalAction, match="large granary"):
        act(state, 0, {"type": "cippi", "box": 6})


def _fate_with(card: str) -> list[str]:
    """F01 is the Year 1 card; ``card`` is the next draw."""
    return ["F01", card, *(c for c in FATE_IDS if c not in ("F01", card))]


def _ludus(strength: int, damage: int) -> Edit:
    def change(sheet: Sheet) -> None:
        sheet["built"].append("ludus")
        sheet["citizens"]["performers"] = 9
        sheet["gladiators"][0] = {"strength": strength, "damage": damage, "battles": []}

    return change


DEATH = {1: (2, 0), 2: (2, 0), 3: (1, 0), 4: (1, 0), 5: (0, 0), 6: (0, 0)}  # piety, renown
SURVIVE = {2: (1, 0), 3: (1, 0), 4: (2, 0), 5: (2, 0), 6: (2, 1)}  # renown, resource


@pytest.mark.parametrize("strength", sorted(DEATH))
def test_a_dying_gladiator_gains_the_piety_of_its_strength_column(strength: int) -> None:
    # Spec 4.5 death_reward_by_strength. F03 deals 1 damage to the last circled box.
    state = edit(_year1(_fate_with("F03")), 0, _ludus(strength, strength - 1))
    state = edit(state, 0, hand())
    state, _ = act(state, 0, "battle red gladiator")
    sheet = state.sheets[0]
    assert sheet["gladiators"][0]["damage"] == strength
    piety, renown = DEATH[strength]
    assert (sheet["attributes"]["piety"], sheet["attributes"]["renown"]) == (piety, renown)
    # Dead: red may neither battle nor train again (the untrained blue still may train).
    assert "battle" not in legal_types(state, 0)
    trainable = {a["gladiator"] for a in GAME.legal_actions(edit(state, 0, hand(servant=1)), 0)
                 if a["type"] == "gladiator"}
    assert trainable == {"blue"}


@pytest.mark.parametrize("strength", sorted(SURVIVE))
def test_a_surviving_gladiator_gains_the_renown_of_its_strength_column(strength: int) -> None:
    # Spec 4.5 survive_reward_by_strength (column = right-most circled box = strength).
    state = edit(_year1(_fate_with("F03")), 0, _ludus(strength, 0))
    state = edit(state, 0, hand())
    state, _ = act(state, 0, "battle red gladiator")
    sheet = state.sheets[0]
    renown, resource = SURVIVE[strength]
    assert (sheet["attributes"]["renown"], sheet["hand"]["resource"]) == (renown, resource)
    assert sheet["attributes"]["piety"] == 0


def test_damage_beyond_the_circled_boxes_is_not_recorded() -> None:
    # Spec 4.5 and seed: "do not fill in boxes that were not previously circled". F04 deals 3.
    state = edit(_year1(_fate_with("F04")), 0, _ludus(4, 2))
    state, _ = act(state, 0, "battle red gladiator")
    assert state.sheets[0]["gladiators"][0] == {"strength": 4, "damage": 4, "battles": [1]}


def test_market_purchases_and_scouting_have_no_yearly_limit() -> None:
    # Spec 4.3 per_year_limit none; 4.11 per_year_limit none (same pattern reused).
    state = edit(_year1(), 0, lambda s: (s["built"].append("market"),
                                         s["citizens"].update(traders=9, patricians=9)))
    state = edit(state, 0, hand(resource=3, soldier=2))
    for box in (1, 2, 3):
        state, _ = act(state, 0, {"type": "market", "box": box, "from": "neutral2"})
    state, _ = act(state, 0, "scout A1 A2 A3 B2 from own card")
    state, _ = act(state, 0, "scout C1 C2 C3 D2 from own card")
    sheet = state.sheets[0]
    assert sheet["market"][:3] == [4, 4, 4] and sheet["scouts"] == 2
    assert sheet["attributes"]["renown"] == 1  # one distinct trade good


def test_a_second_bribe_needs_disdain_left() -> None:
    # Spec 4.8 legal_if: at least one circled, unfilled Disdain box, checked for each bribe.
    state = edit(_year1(), 0, lambda s: (s["built"].append("baths"), s.update(disdain=1),
                                         s["citizens"].update(apparitores=4)))
    state = edit(state, 0, hand(resource=2))
    state, _ = act(state, 0, "bribe 1")
    assert "bribe" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="no Disdain"):
        act(state, 0, {"type": "bribe", "box": 2})


def test_an_empty_deck_without_reshuffle_gives_no_attack_and_no_year_card() -> None:
    # Spec 2.7 option fate_reshuffle = false: draws stop. No attack card means nothing gets
    # through (2.4: G Valour); the next Year card is missing, so nobody gains from it.
    state = chosen(start(1, fate_reshuffle=False))
    state = dataclasses.replace(state, fate_draw=())
    t = GAME.apply(state, 0, {"type": "pass"})
    after = t.state
    assert after.last_attack["cards"] == [] and after.last_attack["results"][0]["valour"] == 1
    assert after.year == 2 and after.year_card is None
    assert sum(after.sheets[0]["hand"].values()) == 0
    texts = [e.text for e in t.events if e.kind == "year"]
    assert texts and "Fate deck is empty" in texts[0] and "None" not in texts[0]


# --------------------------------------------------------------------------------------------
# Printed data, box by box, against the specification text (spec 3.2-3.5, 4.1, 6).


def _printed(track: str) -> dict[int, tuple[str, ...]]:
    from rules.hadrians_wall.components import TRACKS

    rewards = TRACKS[track].rewards
    return {b: rewards[b] for b in range(1, len(rewards)) if rewards[b]}


def test_left_sheet_track_rewards_box_by_box() -> None:
    # Spec 3.2 Mining, 3.3 Wall Guard, 3.4 Fort, 3.5 Wall and Cippi (blank boxes omitted).
    pr = ("production", "resource")
    assert _printed("mining") == {2: pr, 5: pr, 8: pr, 11: pr, 14: pr}
    co, di = ("cohort",), ("discipline",)
    assert _printed("guard") == {1: co, 2: di, 3: co, 5: di, 6: co, 8: di, 9: co, 11: di,
                                 12: co, 14: di, 15: co, 17: di, 18: co}
    cv = ("civilian",)
    assert _printed("fort") == {4: cv, 6: cv, 7: di, 8: cv, 10: cv, 12: cv,
                                14: ("discipline", "cohort"), 16: cv, 18: cv, 20: cv,
                                21: ("discipline", "cohort")}
    rc = ("renown", "cohort")
    assert _printed("wall") == {1: cv, 3: cv, 4: rc, 5: cv, 7: co, 8: ("renown",), 9: cv,
                                11: rc, 13: cv, 14: co, 15: ("renown",), 16: cv, 18: rc,
                                19: cv, 21: co}
    assert _printed("cippi") == {3: co, 4: cv, 5: co, 6: ("renown",), 7: co}


def test_citizen_track_rewards_box_by_box() -> None:
    # Spec 4.1 (None is a blank box).
    from rules.hadrians_wall.components import CITIZEN_REWARDS

    expected = {
        "traders": ["servant", None, "builder", None, "resource", None, "builder", "renown",
                    "resource"],
        "performers": ["builder", None, "servant", None, "soldier", None, "servant", "renown",
                       "builder"],
        "priests": ["servant", None, "servant", "piety", "servant", "piety", "servant", "piety",
                    "servant"],
        "apparitores": ["builder", None, "soldier", "discipline", "builder", "discipline",
                        "soldier", "discipline", "builder"],
        "patricians": ["resource", None, "soldier", "renown", "resource", "renown", "soldier",
                       "renown", "resource"],
    }
    for track, rewards in expected.items():
        got = [r[0] if r else None for r in CITIZEN_REWARDS[track][1:]]
        assert got == rewards, track


def test_player_cards_table_row_by_row() -> None:
    # Spec 6: prospect gain, pattern and trade good of each card; the pattern cell sets.
    from rules.hadrians_wall.components import PATTERNS, PLAYER_CARDS

    table = {
        "architect": ({"resource": 2}, "I", 2),
        "aristocrat": ({"builder": 1, "civilian": 1}, "T", 1),
        "defender": ({"builder": 1, "resource": 1}, "L", 1),
        "engineer": ({"builder": 1, "resource": 1}, "L", 2),
        "fighter": ({"soldier": 1}, "O", 5),
        "forager": ({"servant": 1, "resource": 1}, "T", 3),
        "merchant": ({"civilian": 1, "resource": 1}, "O", 4),
        "planner": ({"servant": 1, "civilian": 1}, "S", 1),
        "pontiff": ({"servant": 2}, "T", 2),
        "ranger": ({"soldier": 1}, "I", 6),
        "trainer": ({"servant": 1, "resource": 1}, "S", 4),
        "vanguard": ({"builder": 1, "civilian": 1}, "S", 2),
    }
    assert {c.id: (c.prospect_gain, c.pattern, c.trade_good)
            for c in PLAYER_CARDS.values()} == table
    assert {k: sorted(v) for k, v in PATTERNS.items()} == {
        "O": [(0, 0), (0, 1), (1, 0), (1, 1)], "I": [(0, 0), (0, 1), (0, 2), (0, 3)],
        "T": [(0, 1), (1, 0), (1, 1), (1, 2)], "L": [(0, 2), (1, 0), (1, 1), (1, 2)],
        "S": [(0, 1), (0, 2), (1, 0), (1, 1)]}
