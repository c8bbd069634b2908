"""Activations, effects and the special facilities of Minerva (spec §3, §9.2, §10)."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.minerva import GAME
from rules.minerva.state import MinervaState
from tests.rules.test_minerva_support import (
    code_of,
    fresh,
    legal_texts,
    play,
    set_city,
    set_player,
)


def test_trojanus_culture_example_takes_one_tile_per_stack() -> None:
    # §10.4 (seed worked example): theatre 2 marks/4 VP, art 1 mark/2 VP twice, academic
    # 3 marks/6 VP; Theatre + Statue + Library give 2/2/2 -> theatre 4 VP and one art 2 VP.
    s = fresh(4)
    s.culture = {
        "theatre": [(2, 4), (3, 6)],
        "art": [(1, 2), (1, 2), (2, 4)],
        "academic": [(3, 6), (4, 8)],
    }
    set_city(s, 0, {(1, 0): "theatre", (2, 0): "statue", (3, 0): "library"})
    s = play(s, 0, "residence 4,0", "activate west")
    assert s.stack[-1] == {"k": "eff", "type": "fountain", "at": (0, 0), "i": 0, "opt": False}
    s = play(s, 0, "take ore")
    p = s.players[0]
    assert sorted(p.culture_tiles) == [("art", 1, 2), ("theatre", 2, 4)]
    assert s.culture["art"] == [(1, 2), (2, 4)]
    assert s.culture["academic"] == [(3, 6), (4, 8)]
    assert s.points == [0, 0, 0]  # points are lost at the end of the turn
    assert s.current == 1


def test_markets_pays_per_grain_held_and_keeps_the_grain() -> None:
    # §15 markets_example: 3 grain -> 3 denarii, grain kept.
    s = fresh()
    set_city(s, 0, {(1, 1): "markets"})
    set_player(s, 0, res={"grain": 3}, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].money == 3 and s.players[0].res[0] == 3


def test_line_skips_a_temple_and_stops_at_a_residence() -> None:
    # §15 line_skips_temple_stops_at_residence and §10.3: temple skipped, residence stops.
    s = fresh()
    set_city(s, 0, {
        (1, 1): "wheat_field", (2, 1): "temple_of_mars", (3, 1): "markets",
        (4, 1): "R", (5, 1): "stall",
    })
    set_player(s, 0, res={"grain": 1}, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    p = s.players[0]
    assert p.res[0] == 3  # wheat field: 1 + 2
    assert p.money == 3  # markets: 1 per grain held (3)
    assert p.glory == 0 and s.stack == []  # the stall behind the residence was not reached


def test_line_stops_at_a_gap() -> None:
    # §10.3: the line stops at the first empty cell.
    s = fresh()
    set_city(s, 0, {(1, 1): "wheat_field", (3, 1): "wheat_field", (3, 0): "forest"})
    set_player(s, 0, res={}, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].res == [2, 0, 0, 0]


def test_a_direction_with_nothing_in_it_is_legal() -> None:
    # §9.3: a direction whose first cell is empty activates nothing, and that is legal.
    s = fresh()
    before = list(s.players[0].res)
    s = play(s, 0, "residence 0,1", "activate south")
    assert s.players[0].res == before and s.current == 1


def test_exchange_used_several_times() -> None:
    # §3 arrow: pay 1 grain for 1 glory as often as wished; the count is one decision.
    s = fresh()
    set_city(s, 0, {(1, 1): "stall"})
    set_player(s, 0, res={"grain": 3})
    s = play(s, 0, "residence 0,1", "activate east")
    assert legal_texts(s, 0)[:4] == ["exchange 0", "exchange 1", "exchange 2", "exchange 3"]
    s = play(s, 0, "exchange 2")
    assert s.players[0].glory == 2 and s.players[0].res[0] == 1


def test_resource_cap_refund_in_the_middle_of_a_line() -> None:
    # §10.2 and §15 overflow: 5 grain + wheat field 2 -> 6 grain and 1 denarius at once,
    # so the stall later in the same line can only use 6 grain.
    s = fresh()
    set_city(s, 0, {(1, 1): "wheat_field", (2, 1): "stall"})
    set_player(s, 0, res={"grain": 5}, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].res[0] == 6 and s.players[0].money == 1
    exchanges = [t for t in legal_texts(s, 0) if t.startswith("exchange")]
    assert exchanges[-1] == "exchange 6"
    s = play(s, 0, "exchange 6")
    assert s.players[0].glory == 6 and s.players[0].res[0] == 0


def test_choices_are_decisions_as_the_line_reaches_them() -> None:
    # §3 slash: Estate gives 2 grain or 2 wood; Garden a culture point of choice.
    s = fresh()
    set_city(s, 0, {(1, 1): "estate", (2, 1): "garden"})
    set_player(s, 0, res={})
    s = play(s, 0, "residence 0,1", "activate east")
    assert legal_texts(s, 0) == ["choose 2 grain", "choose 2 wood"]
    s = play(s, 0, "choose 2 wood")
    assert legal_texts(s, 0)[:3] == ["choose 1 theatre", "choose 1 art", "choose 1 academic"]
    s = play(s, 0, "choose art")
    assert s.players[0].res[1] == 2
    assert s.players[0].culture_tiles == [("art", 1, 2)]


def test_selling_is_offered_inside_a_decision() -> None:
    # §9.1: selling at any decision point of the owner, 1 denarius per resource.
    s = fresh()
    set_city(s, 0, {(1, 1): "stall"})
    set_player(s, 0, res={"grain": 2, "ore": 1}, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    assert "sell ore" in legal_texts(s, 0)
    s = play(s, 0, "sell ore", "exchange 1")
    assert s.players[0].money == 1 and s.players[0].res == [1, 0, 0, 0]


def test_an_assistant_activates_from_a_residence_without_one() -> None:
    # §9.4: assistant on an unassisted residence, any direction, stays there.
    s = fresh()
    set_city(s, 0, {(1, 0): "R", (2, 0): "wheat_field"})
    set_player(s, 0, reserve=1, res={})
    assert "assistant 1,0" in legal_texts(s, 0)
    s = play(s, 0, "assistant 1,0", "activate east")
    p = s.players[0]
    assert p.city[(1, 0)] == "A" and p.reserve == 0 and p.res[0] == 2
    s.current = 0
    assert not [t for t in legal_texts(s, 0) if t.startswith("assistant")]


def _offer(s: MinervaState, *keys: str) -> None:
    s.offer = [code_of(k) for k in keys]


def test_substitute_money_only_for_missing_resources() -> None:
    # §9.2 and §15 cost_substitution: 1 stone + 5 denarii for a 2-stone tile -> 0 stone, 2 denarii.
    s = fresh()
    _offer(s, "aqueduct")
    set_player(s, 0, res={"stone": 1}, money=5)
    s = play(s, 0, "build aqueduct 1,0")
    assert s.players[0].res[2] == 0 and s.players[0].money == 2


def test_no_money_is_paid_for_a_held_resource() -> None:
    # §9.2: money only for tokens you lack; held tokens must be used.
    s = fresh()
    _offer(s, "aqueduct")
    set_player(s, 0, res={"stone": 3}, money=5)
    s = play(s, 0, "build aqueduct 1,0", "done")
    assert s.players[0].res[2] == 1 and s.players[0].money == 5


def test_an_unpayable_tile_is_not_offered_but_sales_count() -> None:
    # §9.2: legal only if payable after optional sales.
    s = fresh()
    _offer(s, "aqueduct")
    set_player(s, 0, res={}, money=5)
    assert not [t for t in legal_texts(s, 0) if t.startswith("build aqueduct")]
    with pytest.raises(IllegalAction, match="cannot pay"):
        play(s, 0, "build aqueduct 1,0")
    set_player(s, 0, res={"wood": 1}, money=5)
    s = play(s, 0, "build aqueduct 1,0", "done")
    assert s.players[0].res == [0, 0, 0, 0] and s.players[0].money == 0


def test_placement_must_share_an_edge() -> None:
    # §10.1: a new tile needs an edge neighbour; corners do not count.
    s = fresh()
    with pytest.raises(IllegalAction, match="shares an edge"):
        play(s, 0, "residence 1,1")


def test_bathhouse_uses_three_neighbours_then_checks_culture() -> None:
    # §10.5: up to 3 distinct activated neighbours, in the player's order; one culture check.
    s = fresh()
    _offer(s, "bathhouse")
    set_city(s, 0, {
        (1, 0): "wheat_field", (1, 1): "markets", (-1, 1): "garden", (-1, 0): "R",
        (0, 2): "temple_of_mars",
    })
    set_player(s, 0, res={"wood": 1, "stone": 2}, money=0)
    s = play(s, 0, "build bathhouse 0,1")
    choices = legal_texts(s, 0)
    assert choices == ["use 0,0", "use 1,0", "use -1,1", "use 1,1", "done"]
    s = play(s, 0, "use 1,0", "use 1,1", "use -1,1")
    assert legal_texts(s, 0)[:3] == ["choose 1 theatre", "choose 1 art", "choose 1 academic"]
    s = play(s, 0, "choose academic")
    p = s.players[0]
    assert p.res[0] == 2 and p.money == 2
    assert p.culture_tiles == [("academic", 1, 2)]
    assert s.stack == [] and s.current == 1


def test_bathhouse_may_stop_early() -> None:
    # §10.5 ruling: "up to" 3 picks.
    s = fresh()
    _offer(s, "bathhouse")
    set_city(s, 0, {(1, 0): "wheat_field"})
    set_player(s, 0, res={"wood": 1, "stone": 2})
    s = play(s, 0, "build bathhouse 0,1", "use 1,0", "done")
    assert s.players[0].res[0] == 2 and s.current == 1


def _aqueduct_city() -> MinervaState:
    s = fresh()
    _offer(s, "aqueduct")
    set_city(s, 0, {(1, 0): "wheat_field", (2, 0): "markets"})
    set_player(s, 0, res={"stone": 2})
    return play(s, 0, "build aqueduct 1,1")


def test_aqueduct_move_keeps_the_city_connected() -> None:
    # §10.5: move a non-residential neighbour to a cell next to another tile; city stays one.
    s = _aqueduct_city()
    assert "move 2,0" in legal_texts(s, 0)
    s = play(s, 0, "move 2,0")
    assert "to 2,1" in legal_texts(s, 0)
    s = play(s, 0, "to 2,1")
    city = s.players[0].city
    assert (2, 0) not in city and city[(2, 1)] == code_of("markets")
    assert s.current == 1


def test_aqueduct_move_that_would_split_the_city_is_refused() -> None:
    # §10.5: moving the wheat field would cut the markets off, so it is not offered.
    s = _aqueduct_city()
    assert "move 1,0" not in legal_texts(s, 0)
    with pytest.raises(IllegalAction):
        play(s, 0, "move 1,0")
    s = play(s, 0, "move 2,0")
    with pytest.raises(IllegalAction):
        play(s, 0, "to 5,5")


def test_circus_removes_an_unassisted_residence() -> None:
    # §10.5: a neighbouring residence without assistant leaves the game; no split allowed.
    s = fresh()
    _offer(s, "circus")
    set_city(s, 0, {(1, 0): "R", (2, 0): "R", (0, 1): "A"})
    set_player(s, 0, res={"grain": 1, "wood": 1})
    s = play(s, 0, "build circus 1,1")
    assert legal_texts(s, 0) == ["remove 2,0", "done"]
    with pytest.raises(IllegalAction):
        play(s, 0, "remove 0,1")  # it has an assistant
    houses = s.players[0].houses
    s = play(s, 0, "remove 2,0")
    assert (2, 0) not in s.players[0].city and s.players[0].houses == houses


def test_trading_post_buys_repeatedly() -> None:
    # §10.5: 2 denarii per resource of choice, any number of times (6 denarii -> 3).
    s = fresh()
    _offer(s, "trading_post")
    set_player(s, 0, money=6, res={})
    s = play(s, 0, "build trading_post 1,0", "buy wood", "buy stone", "buy stone")
    assert s.players[0].res == [0, 1, 2, 0] and s.players[0].money == 0
    assert s.current == 1  # no money left: the effect ended by itself


def test_triumphal_arch_takes_a_top_tile_without_points() -> None:
    # §10.5: the top tile of any non-empty stack, not a culture check.
    s = fresh()
    _offer(s, "triumphal_arch")
    set_player(s, 0, res={"stone": 2, "ore": 1})
    s = play(s, 0, "build triumphal_arch 1,0", "culture theatre")
    assert s.players[0].culture_tiles == [("theatre", 1, 2)]


def test_dining_hall_can_be_declined() -> None:
    # §9.2 step 4: a [when built] effect may be declined and cannot be saved.
    s = fresh()
    _offer(s, "dining_hall", "dining_hall")
    before = list(s.players[0].res)
    s = play(s, 0, "build dining_hall 1,0")
    assert "take grain wood" in legal_texts(s, 0) and "done" in legal_texts(s, 0)
    s = play(s, 0, "done")
    assert s.players[0].res == before and s.current == 1


def test_colosseum_pays_identical_pairs_of_any_type() -> None:
    # §3 exchange_pairs: each repetition pays 2 identical resources for 2 glory.
    s = fresh()
    set_city(s, 0, {(1, 1): "colosseum"})
    set_player(s, 0, res={"grain": 2, "stone": 3, "ore": 1})
    s = play(s, 0, "residence 0,1", "activate east")
    assert legal_texts(s, 0)[:3] == ["pair grain", "pair stone", "done"]
    s = play(s, 0, "pair stone", "pair grain")
    assert s.players[0].glory == 4 and s.players[0].res == [0, 0, 1, 1]
    assert s.current == 1  # no pair left: the tile is done


def test_apply_leaves_its_input_unchanged() -> None:
    # Engine contract: a state is a value.
    s = fresh()
    dumped = GAME.dump(s)
    GAME.apply(s, 0, {"type": "residence", "x": 1, "y": 0})
    assert GAME.dump(s) == dumped


def test_building_a_temple_refills_the_row_and_cannot_be_undone() -> None:
    # §9.2 step 5: the row is refilled from the stack; the reveal makes the move irreversible.
    s = fresh()
    temple = s.temples[0]
    key = GAME.cat.temples[temple].key
    next_up = s.temple_stack[0]
    set_player(s, 0, res={"grain": 2, "wood": 2, "stone": 3, "ore": 1})
    action = GAME.parse_action(s, 0, f"build {key} 1,0")
    result = GAME.apply(s, 0, action)
    after = result.state
    assert result.irreversible
    assert after.players[0].city[(1, 0)] == temple
    assert temple not in after.temples and after.temples[-1] == next_up
    assert len(after.temples) == 5 and len(after.temple_stack) == len(s.temple_stack) - 1
