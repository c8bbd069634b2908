"""Scenario tests for the right sheet of Hadrian's Wall (spec section 4) and neighbours (2.6)."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import FATE_IDS
from rules.hadrians_wall.state import Sheet, State
from tests.rules.test_hadrians_wall_kit import act, chosen, edit, hand, legal_types, start


def _fate(*first: str) -> list[str]:
    """A Fate deck order starting with these cards (F01 is the Year 1 card unless given)."""
    return [*first, *(c for c in FATE_IDS if c not in first)]


def _market(traders: int = 9, goods: list[int] | None = None) -> object:
    def change(sheet: Sheet) -> None:
        sheet["built"].append("market")
        sheet["citizens"]["traders"] = traders
        if goods is not None:
            sheet["market"] = goods + [0] * (8 - len(goods))

    return change


def test_market_purchase_from_a_neighbour_pays_them_and_they_act_with_it() -> None:
    # Spec 2.6 and 4.3; design choice 1: the paid resource re-activates a passed neighbour.
    state = chosen(start(3))
    state = edit(state, 0, _market(traders=4))
    state = edit(state, 0, hand(resource=1))
    state = edit(state, 2, hand())
    state = edit(state, 2, lambda s: s.update(fort=1))
    state, _ = act(state, 2, "pass")
    assert 2 not in GAME.active_seats(state)
    left_card = state.sheets[2]["prospects"][-1]  # seat 2 is seat 0's left neighbour
    state, events = act(state, 0, "market 1: trade good from left neighbour (1 resource)")
    assert state.sheets[2]["hand"]["resource"] == 1
    assert 2 in GAME.active_seats(state)
    assert any("{p2} receives 1 resource" in e.text for e in events)
    assert state.sheets[0]["market"][0] == {"aristocrat": 1}[left_card]
    assert state.sheets[0]["attributes"]["renown"] == 1  # first unique trade good
    state, _ = act(state, 2, "wall 1 (1 resource)")
    assert state.sheets[2]["wall"] == 1


def test_own_card_is_not_a_market_source_but_is_a_scouting_one() -> None:
    # Spec 2.6 (resolved from the seed wording, option market_from_own_card).
    state = chosen(start(3))
    state = edit(state, 0, _market(traders=4))
    state = edit(state, 0, hand(resource=1))
    sources = {a["from"] for a in GAME.legal_actions(state, 0) if a["type"] == "market"}
    assert sources == {"left", "right", "deck"}
    with pytest.raises(IllegalAction, match="Buy from"):
        act(state, 0, {"type": "market", "box": 1, "from": "own"})
    free = chosen(start(3, market_from_own_card=True))
    free = edit(free, 0, _market(traders=4))
    free = edit(free, 0, hand(resource=1))
    assert "own" in {a["from"] for a in GAME.legal_actions(free, 0) if a["type"] == "market"}


def test_unique_trade_goods_give_renown_and_duplicates_none() -> None:
    # Spec 4.3: the 4th distinct number gives 2 Renown; a duplicate gives nothing. F11 has
    # trade good 4, F02 trade good 3.
    state = chosen(start(1, fate=_fate("F01", "F11", "F02")))
    state = edit(state, 0, _market(goods=[1, 2, 3]))
    state = edit(state, 0, hand(resource=2))
    state, events = act(state, 0, "market 4 from the fate deck")
    assert state.sheets[0]["market"][:4] == [1, 2, 3, 4]
    assert state.sheets[0]["attributes"]["renown"] == 2
    assert any("drew F11: trade good 4" in e.text for e in events)
    state, _ = act(state, 0, "market 5 from fate deck")
    assert state.sheets[0]["market"][4] == 3
    assert state.sheets[0]["attributes"]["renown"] == 2
    assert state.fate_discard[-1] == "F02"


def test_the_sixth_unique_trade_good_gives_3_renown_and_box_8_a_builder() -> None:
    # Spec 4.3: F15 has trade good 6.
    state = chosen(start(1, fate=_fate("F01", "F15")))
    state = edit(state, 0, _market(goods=[1, 2, 3, 4, 5]))
    state = edit(state, 0, hand(resource=1))
    state, _ = act(state, 0, "market 8 from fate deck")
    assert state.sheets[0]["attributes"]["renown"] == 3
    assert state.sheets[0]["hand"]["builder"] == 1


def test_market_boxes_need_their_traders() -> None:
    # Spec 4.3: box 8 needs 9 traders.
    state = chosen(start(1))
    state = edit(state, 0, _market(traders=5))
    state = edit(state, 0, hand(resource=1))
    boxes = {a["box"] for a in GAME.legal_actions(state, 0) if a["type"] == "market"}
    assert boxes == {1, 2, 3}
    with pytest.raises(IllegalAction, match="9 traders"):
        act(state, 0, {"type": "market", "box": 8, "from": "deck"})


def _ludus(strength: int, damage: int = 0) -> object:
    def change(sheet: Sheet) -> None:
        sheet["built"].append("ludus")
        sheet["citizens"]["performers"] = 9
        sheet["gladiators"][0] = {"strength": strength, "damage": damage, "battles": []}

    return change


def test_a_gladiator_that_survives_gains_the_renown_of_its_strength_column() -> None:
    # Spec 4.5: F03 deals 1 damage; strength 3 survives -> column 3: 1 Renown.
    state = chosen(start(1, fate=_fate("F01", "F03")))
    state = edit(state, 0, _ludus(3))
    state, events = act(state, 0, "battle red gladiator")
    g = state.sheets[0]["gladiators"][0]
    assert (g["strength"], g["damage"], g["battles"]) == (3, 1, [1])
    assert state.sheets[0]["attributes"]["renown"] == 1
    assert any("survives" in e.text for e in events)
    assert "battle" not in legal_types(state, 0)  # once per Year


def test_a_gladiator_that_dies_gains_the_piety_of_its_strength_column() -> None:
    # Spec 4.5: F04 deals 3 damage; strength 2 dies -> column 2: 2 Piety; no more training.
    state = chosen(start(1, fate=_fate("F01", "F04")))
    state = edit(state, 0, _ludus(2))
    state = edit(state, 0, hand(servant=1))
    state, events = act(state, 0, {"type": "battle", "gladiator": "red"})
    g = state.sheets[0]["gladiators"][0]
    assert g["damage"] == 2  # never beyond the circled boxes
    assert state.sheets[0]["attributes"]["piety"] == 2
    assert any("dies" in e.text for e in events)
    with pytest.raises(IllegalAction, match="dead"):
        act(state, 0, {"type": "gladiator", "gladiator": "red", "pay": "servant"})


def test_a_gladiator_with_no_strength_cannot_battle_and_trains_with_performers() -> None:
    # Spec 4.5 and design choice 8.
    state = chosen(start(1))
    state = edit(state, 0, _ludus(0))
    state = edit(state, 0, lambda s: s["citizens"].update(performers=3))
    state = edit(state, 0, hand(civilian=2))
    assert "battle" not in legal_types(state, 0)
    state, _ = act(state, 0, "train red gladiator (1 civilian)")
    with pytest.raises(IllegalAction, match="4 performers"):
        act(state, 0, {"type": "gladiator", "gladiator": "red", "pay": "civilian"})


def test_temple_boxes_fill_in_order_and_the_last_box_gives_a_favour() -> None:
    # Spec 4.7: small temple row 1, box 2 gives Piety and a Favour; then the medium temple.
    state = chosen(start(1))
    state = edit(state, 0, lambda s: (s["built"].append("temple_small"),
                                      s["citizens"].update(priests=3)))
    state = edit(state, 0, hand(soldier=1, civilian=1, servant=1))
    state, _ = act(state, 0, "temple small 1 (1 soldier)")
    state, _ = act(state, 0, "temple small 2 (1 civilian)")
    sheet = state.sheets[0]
    assert sheet["favours"] == 1 and sheet["attributes"]["piety"] == 1
    with pytest.raises(IllegalAction, match="medium temple"):
        act(state, 0, {"type": "temple", "box": 3, "pay": "servant"})


def test_baths_remove_disdain_twice_a_year_only_with_disdain() -> None:
    # Spec 4.8.
    state = chosen(start(1))
    state = edit(state, 0, lambda s: (s["built"].append("baths"),
                                      s["citizens"].update(apparitores=8)))
    state = edit(state, 0, hand(resource=9))
    assert "bribe" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="no Disdain"):
        act(state, 0, {"type": "bribe", "box": 1})
    state = edit(state, 0, lambda s: s.update(disdain=3))
    state, _ = act(state, 0, "baths 3 (2 resources)")
    state, _ = act(state, 0, "bribe 1")
    sheet = state.sheets[0]
    assert (sheet["disdain"], sheet["disdain_removed"]) == (3, 2)
    assert sheet["hand"]["resource"] == 6
    with pytest.raises(IllegalAction, match="2 bribes per Year"):
        act(state, 0, {"type": "bribe", "box": 2})


def test_courthouse_rulings_once_per_column_per_year() -> None:
    # Spec 4.9.
    state = chosen(start(1))
    state = edit(state, 0, lambda s: (s["built"].append("courthouse"),
                                      s["citizens"].update(apparitores=6)))
    state = edit(state, 0, hand(builder=2, servant=1))
    state, _ = act(state, 0, "courthouse 2: pay 1 builder, gain 2 servants")
    assert state.sheets[0]["hand"] == {"soldier": 0, "builder": 1, "servant": 3, "civilian": 0,
                                       "resource": 0}
    with pytest.raises(IllegalAction, match="column 2 per Year"):
        act(state, 0, {"type": "ruling", "column": 2})
    state, _ = act(state, 0, "courthouse 3")
    state, _ = act(state, 0, "ruling 1")
    assert state.sheets[0]["hand"]["builder"] == 2
    assert state.sheets[0]["courthouse"] == [[1], [1], [1]]


def test_theatre_one_performance_per_year() -> None:
    # Spec 4.4: box 4 needs 6 performers and gives Discipline and an Apparitor.
    state = chosen(start(1))
    state = edit(state, 0, lambda s: (s["built"].append("theatre"),
                                      s["citizens"].update(performers=6)))
    state = edit(state, 0, hand(resource=2))
    state, _ = act(state, 0, "theatre 4 (1 resource)")
    sheet = state.sheets[0]
    assert sheet["citizens"]["apparitores"] == 1 and sheet["attributes"]["discipline"] == 1
    assert sheet["hand"]["builder"] == 1  # apparitores box 1 shows a builder
    with pytest.raises(IllegalAction, match="one performance per Year"):
        act(state, 0, {"type": "perform", "box": 1})


def test_gardens_fill_citizen_tracks_and_waste_a_full_one() -> None:
    # Spec 4.6: the small gardens give Piety, a Trader, a Performer and a Priest.
    state = chosen(start(1))
    state = edit(state, 0, lambda s: s["citizens"].update(priests=9, traders=2))
    state = edit(state, 0, hand(servant=1, builder=1, resource=1))
    state, _ = act(state, 0, "build small gardens")
    cits = state.sheets[0]["citizens"]
    assert (cits["traders"], cits["performers"], cits["priests"]) == (3, 1, 9)


def _scouting(sheet: Sheet) -> None:
    sheet["citizens"]["patricians"] = 9
    sheet["hand"]["soldier"] = 3


def test_a_mirrored_scouting_pattern_fits_and_the_soldier_goes_on_the_neutral_card() -> None:
    # Spec 4.11 and 9: Neutral card 1 is the vanguard (pattern S); its mirror image Z is allowed.
    state = chosen(start(1))
    state = edit(state, 0, _scouting)
    assert state.neutral[0]["card"] == "vanguard"
    z_cells = [[0, 0], [0, 1], [1, 1], [1, 2]]
    action = {"type": "scout", "from": "neutral1", "cells": z_cells}
    assert action in GAME.legal_actions(state, 0)
    state, _ = act(state, 0, "scout A1 A2 B2 B3 from neutral card 1 (1 soldier)")
    sheet = state.sheets[0]
    assert [sheet["map"][i] for i in (0, 1, 6, 7)] == [1, 1, 1, 1]
    assert sheet["hand"]["resource"] >= 1 and sheet["hand"]["servant"] >= 1  # A1 and B2 icons
    assert state.neutral[0]["soldiers"] == 1 and state.neutral[0]["by"] == [1]


def test_a_scouting_pattern_that_would_hang_off_the_map_is_refused() -> None:
    # Spec 4.11: every cell of the pattern must be on the map and empty.
    state = chosen(start(1))
    state = edit(state, 0, _scouting)
    with pytest.raises(IllegalAction, match="hang off"):
        act(state, 0, {"type": "scout", "from": "own", "cells": [[3, 1], [4, 0], [4, 1], [4, 2]]})
    with pytest.raises(IllegalAction, match="do not make"):
        act(state, 0, {"type": "scout", "from": "own", "cells": [[0, 0], [0, 1], [0, 2], [0, 3]]})
    state, _ = act(state, 0, {"type": "scout", "from": "own",
                              "cells": [[0, 1], [1, 0], [1, 1], [1, 2]]})
    with pytest.raises(IllegalAction, match="filled map cell"):
        act(state, 0, {"type": "scout", "from": "own", "cells": [[0, 0], [0, 1], [0, 2], [1, 1]]})


def test_completing_a_map_row_gives_valour() -> None:
    # Spec 4.11: +1 Valour per completed row.
    state = chosen(start(1))
    state = edit(state, 0, _scouting)
    state = edit(state, 0, lambda s: s.update(map=[1, 1, 1, 0, 0] + [0] * 15, scouts=1))
    # Neutral card 2 is the trainer (pattern S): cells A4 A5 B3 B4 complete row A.
    state, _ = act(state, 0, "scout A4 A5 B3 B4 from neutral card 2")
    assert state.sheets[0]["attributes"]["valour"] == 1


def test_scouting_with_a_neighbours_pattern_pays_that_neighbour() -> None:
    # Spec 2.6: the soldier goes to the neighbour whose card is used.
    state = chosen(start(3))
    state = edit(state, 1, _scouting)
    state, _ = act(state, 1, "scout A1 A2 A3 B2 from right neighbour")
    assert state.sheets[2]["hand"]["soldier"] == 2  # 1 from the Fate card, 1 paid


def test_diplomats_serve_different_cohorts() -> None:
    # Spec 4.10.
    state = chosen(start(1))
    state = edit(state, 0, lambda s: s["citizens"].update(patricians=6))
    state = edit(state, 0, hand(servant=2, soldier=2, resource=4))
    state, _ = act(state, 0, "diplomat for left cohort")
    assert state.sheets[0]["diplomats"] == [{"cohort": "left", "favours": 2, "used": 0}]
    assert state.sheets[0]["attributes"]["valour"] == 1
    with pytest.raises(IllegalAction, match="different cohort"):
        act(state, 0, {"type": "diplomat", "cohort": "left"})


def test_citizen_tracks_pay_their_printed_rewards() -> None:
    # Spec 4.1: Traders box 1 shows a servant.
    state: State = chosen(start(1))
    state = edit(state, 0, hand(civilian=1))
    state, _ = act(state, 0, "citizen traders 1 (1 civilian)")
    assert state.sheets[0]["hand"]["servant"] == 1
    assert state.sheets[0]["citizens"]["traders"] == 1
