"""Audit scenarios of Minerva: activation lines, effect clauses, the cap, culture tiles, the
special facilities, costs, privacy and what uniform random play exercises (spec §3, §9.2,
§10, DESIGN privacy rule)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from rules.core import Action, IllegalAction, Rng, derive_seed
from rules.minerva import GAME
from rules.minerva.city import frontier
from rules.minerva.components import catalogue
from rules.minerva.state import MinervaState
from tests.rules.test_minerva_support import (
    code_of,
    fresh,
    legal_texts,
    play,
    set_city,
    set_player,
    types_of,
)

CAT = catalogue()


def _offer(s: MinervaState, *keys: str) -> None:
    s.offer = [code_of(k) for k in keys]


# ---- activation lines -----------------------------------------------------------------------


def test_line_stops_at_a_residence_with_an_assistant() -> None:
    # §10.3: a residence stops the line with or without an assistant on it.
    s = fresh()
    set_city(s, 0, {(1, 1): "wheat_field", (2, 1): "A", (3, 1): "wheat_field"})
    set_player(s, 0, res={})
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].res == [2, 0, 0, 0]


def test_line_skips_a_special_facility_without_stopping() -> None:
    # §10.3 ruling: a [when built] tile is not activated and does not block the line.
    s = fresh()
    set_city(s, 0, {(1, 1): "trading_post", (2, 1): "wheat_field"})
    set_player(s, 0, res={}, money=5)
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].res == [2, 0, 0, 0] and s.players[0].money == 5
    assert s.stack == [] and s.current == 1


def test_per_held_counts_what_earlier_tiles_of_the_line_gave() -> None:
    # §10.2: a colon tile counts the holding when it resolves (forest first: 1 + 2 wood).
    s = fresh()
    set_city(s, 0, {(1, 1): "forest", (2, 1): "charcoal_burner"})
    set_player(s, 0, res={"wood": 1}, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].money == 3 and s.players[0].res[1] == 3


def test_tax_office_pays_per_residence_with_or_without_assistant() -> None:
    # §3 per_city (design choice): 1 denarius per residential tile in the own city.
    s = fresh()
    set_city(s, 0, {(1, 1): "tax_office", (1, 0): "R", (2, 0): "A"})
    set_player(s, 0, money=0)
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].money == 3  # the new residence counts too


def test_the_line_direction_is_chosen_after_placing() -> None:
    # §9.3: the four directions are offered, even empty ones.
    s = fresh()
    s = play(s, 0, "residence 1,0")
    assert legal_texts(s, 0)[:4] == [
        "activate north", "activate east", "activate south", "activate west",
    ]


# ---- the cap and refunds --------------------------------------------------------------------


def test_resources_of_choice_over_the_cap_are_refunded() -> None:
    # §3 / §10.2: the cap applies to resources of choice too (Dining hall: 2 grain at 5).
    s = fresh()
    _offer(s, "dining_hall")
    set_player(s, 0, res={"grain": 5}, money=0)
    s = play(s, 0, "build dining_hall 1,0", "take grain grain")
    assert s.players[0].res[0] == 6 and s.players[0].money == 1


def test_a_trading_post_purchase_over_the_cap_is_refunded() -> None:
    # §10.5 / §10.2: bought above 6 -> discarded at once for 1 denarius.
    s = fresh()
    _offer(s, "trading_post")
    set_player(s, 0, res={"grain": 6}, money=2)
    s = play(s, 0, "build trading_post 1,0", "buy grain")
    assert s.players[0].res[0] == 6 and s.players[0].money == 1
    assert s.current == 1  # under 2 denarii: the effect ended by itself


def test_the_cap_is_per_type_and_money_glory_are_uncapped() -> None:
    # §2: 6 per resource type; denarii and glory have no cap.
    s = fresh()
    set_city(s, 0, {(1, 1): "stall", (2, 1): "foundry"})
    set_player(s, 0, res={"grain": 6, "wood": 6}, glory=10, money=40)
    s = play(s, 0, "residence 0,1", "activate east", "exchange 6")
    p = s.players[0]
    assert p.glory == 16 and p.money == 43 and p.res == [0, 6, 0, 0]


# ---- culture --------------------------------------------------------------------------------


def test_points_of_several_tiles_add_up_and_still_give_one_tile() -> None:
    # §10.4: Odeum 1 + Theatre 2 = 3 theatre points; one tile per category per turn even when
    # the next tile's requirement is also met.
    s = fresh()
    s.culture["theatre"] = [(3, 6), (1, 2)]
    set_city(s, 0, {(1, 1): "odeum", (2, 1): "theatre"})
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].culture_tiles == [("theatre", 3, 6)]
    assert s.culture["theatre"] == [(1, 2)] and s.points == [0, 0, 0]


def test_an_empty_culture_stack_gives_nothing() -> None:
    # §10.4: an empty stack gives nothing; the points are still lost.
    s = fresh()
    s.culture["art"] = []
    set_city(s, 0, {(1, 1): "statue"})
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.players[0].culture_tiles == [] and s.points == [0, 0, 0]


def test_points_do_not_carry_over_to_the_next_turn() -> None:
    # §10.4: 1 point this turn and 1 next turn never make the 2 a tile needs.
    s = fresh()
    s.culture["academic"] = [(2, 4)]
    set_city(s, 0, {(1, 1): "school"})
    s = play(s, 0, "residence 0,1", "activate east")
    assert s.points == [0, 0, 0]
    s = play(s, 1, "residence 1,0", "activate south")
    s = play(s, 0, "residence 1,2", "activate north")  # the School again: 1 point
    assert s.players[0].culture_tiles == [] and s.culture["academic"] == [(2, 4)]


def test_triumphal_arch_offers_only_non_empty_stacks() -> None:
    # §10.5: the top tile of any one non-empty culture stack.
    s = fresh()
    _offer(s, "triumphal_arch")
    s.culture["theatre"] = []
    set_player(s, 0, res={"stone": 2, "ore": 1})
    s = play(s, 0, "build triumphal_arch 1,0")
    assert [t for t in legal_texts(s, 0) if not t.startswith("sell")] == [
        "culture art", "culture academic", "done",
    ]


# ---- special facilities ---------------------------------------------------------------------


def test_a_when_built_effect_that_cannot_apply_still_builds_the_tile() -> None:
    # §9.2 step 4: a Circus with no residence around is built and nothing happens.
    s = fresh()
    _offer(s, "circus")
    set_player(s, 0, res={"grain": 1, "wood": 1})
    s = play(s, 0, "build circus 1,0")
    assert s.players[0].city[(1, 0)] == code_of("circus") and s.current == 1


def test_bathhouse_skips_special_tiles_temples_and_residences_and_uses_each_tile_once() -> None:
    # §10.5: only activated tiles (the fountain included) are eligible, each at most once.
    s = fresh()
    _offer(s, "bathhouse")
    set_city(s, 0, {
        (1, 0): "trading_post", (1, 1): "temple_of_mars", (-1, 1): "R", (-1, 0): "wheat_field",
    })
    set_player(s, 0, res={"wood": 1, "stone": 2})
    s = play(s, 0, "build bathhouse 0,1")
    assert legal_texts(s, 0) == ["use -1,0", "use 0,0", "done"]
    s = play(s, 0, "use -1,0")
    assert legal_texts(s, 0)[:2] == ["use 0,0", "done"]


def test_bathhouse_culture_points_are_checked_once_after_all_picks() -> None:
    # §10.5: Odeum 1 + Theatre 2 through a Bathhouse -> 3 points -> the 3-mark tile.
    s = fresh()
    _offer(s, "bathhouse")
    s.culture["theatre"] = [(3, 6)]
    set_city(s, 0, {(1, 0): "odeum", (1, 1): "theatre"})
    set_player(s, 0, res={"wood": 1, "stone": 2})
    s = play(s, 0, "build bathhouse 0,1", "use 1,0", "use 1,1", "done")
    assert s.players[0].culture_tiles == [("theatre", 3, 6)]


def _aqueduct(**options: Any) -> MinervaState:
    """Fountain, a wheat field east of it and a residence beyond; the Aqueduct south."""
    s = fresh(**options)
    _offer(s, "aqueduct")
    set_city(s, 0, {(1, 0): "wheat_field", (2, 0): "R", (0, -1): "temple_of_mars"})
    set_player(s, 0, res={"stone": 2})
    return play(s, 0, "build aqueduct 0,1")


def test_aqueduct_never_moves_a_residence_but_may_move_the_fountain_or_a_temple() -> None:
    # §10.5: any non-residential neighbour (facility, temple, fountain) may be picked.
    s = fresh()
    _offer(s, "aqueduct")
    set_city(s, 0, {(1, 0): "R", (0, 1): "temple_of_mars"})
    set_player(s, 0, res={"stone": 2})
    s = play(s, 0, "build aqueduct 1,1")
    moves = [t for t in legal_texts(s, 0) if t.startswith("move")]
    assert moves == ["move 0,0", "move 0,1"]  # the residence at 1,0 is never offered
    s = fresh()
    _offer(s, "aqueduct")
    set_city(s, 0, {(1, 0): "temple_of_mars", (2, 0): "wheat_field"})
    set_player(s, 0, res={"stone": 2})
    s = play(s, 0, "build aqueduct 1,1")
    assert "move 1,0" not in legal_texts(s, 0)  # moving it would cut the wheat field off
    assert "move 0,0" in legal_texts(s, 0)


def test_aqueduct_default_keeps_residences_connected() -> None:
    # §10.5 ruling (aqueduct_connectivity = city): a move that cuts off a residence is refused.
    s = _aqueduct()
    assert "move 1,0" not in legal_texts(s, 0)


def test_aqueduct_facilities_option_may_cut_off_a_residence() -> None:
    # §14.13 option aqueduct_connectivity = facilities: only non-residential tiles must stay
    # connected.
    s = _aqueduct(aqueduct_connectivity="facilities")
    s = play(s, 0, "move 1,0")
    assert "to 1,1" in legal_texts(s, 0)
    s = play(s, 0, "to 1,1")
    assert s.players[0].city[(1, 1)] == code_of("wheat_field") and (1, 0) not in s.players[0].city


def test_circus_may_not_split_the_city_unless_the_option_allows_it() -> None:
    # §10.5 / §14.13: removing the residence would leave the Circus and the wheat field apart.
    def circus(**options: Any) -> MinervaState:
        s = fresh(**options)
        _offer(s, "circus")
        set_city(s, 0, {(1, 0): "R", (2, 0): "wheat_field"})
        set_player(s, 0, res={"grain": 1, "wood": 1})
        return play(s, 0, "build circus 1,1")

    s = circus()
    assert s.current == 1  # no legal target: the effect ended by itself
    s = circus(circus_keeps_city_connected=False)
    assert legal_texts(s, 0) == ["remove 1,0", "done"]


# ---- building -------------------------------------------------------------------------------


def test_substitution_covers_several_missing_types() -> None:
    # §9.2: Villa (wood, stone, ore) with only wood: the wood plus 6 denarii.
    s = fresh()
    _offer(s, "villa")
    set_player(s, 0, res={"wood": 1}, money=5)
    assert not [t for t in legal_texts(s, 0) if t.startswith("build villa")]
    set_player(s, 0, res={"wood": 1}, money=6)
    s = play(s, 0, "build villa 1,0")
    assert s.players[0].res == [0, 0, 0, 0] and s.players[0].money == 0


def test_spare_resources_are_sold_for_the_substitute_money_but_needed_ones_are_used() -> None:
    # §9.2 + §9.1: a 2-stone Aqueduct with 1 stone, 2 denarii and 1 grain: the stone is used,
    # the grain sold, 3 denarii paid for the missing stone.
    s = fresh()
    _offer(s, "aqueduct")
    set_player(s, 0, res={"grain": 1, "stone": 1}, money=2)
    s = play(s, 0, "build aqueduct 1,0", "done")
    assert s.players[0].res == [0, 0, 0, 0] and s.players[0].money == 0


def test_building_on_an_occupied_cell_is_refused() -> None:
    # §10.1: a new tile goes on an empty cell.
    s = fresh()
    _offer(s, "wheat_field")
    set_city(s, 0, {(1, 0): "R"})
    for text in ("build wheat_field 0,0", "residence 1,0"):
        with pytest.raises(IllegalAction):
            play(s, 0, text)


def test_the_temple_row_shrinks_when_the_temple_stack_is_empty() -> None:
    # §9.2 step 5: refill only while the stack lasts.
    s = fresh()
    s.temple_stack = []
    key = CAT.temples[s.temples[0]].key
    set_player(s, 0, money=20)
    result = GAME.apply(s, 0, GAME.parse_action(s, 0, f"build {key} 1,0"))
    assert len(result.state.temples) == 4 and not result.irreversible


# ---- privacy --------------------------------------------------------------------------------


def _hidden_names(s: MinervaState) -> set[str]:
    """Ids of the tiles still in the stacks, and the names of the stacked temples."""
    ids = {t for t in s.deck if t != "R"} | set(s.temple_stack)
    names = {CAT.temples[t].name for t in s.temple_stack}
    return {f'"{i}"' for i in ids} | names


def test_nothing_hidden_reaches_views_public_events_or_descriptions() -> None:
    # DESIGN privacy rule: the stack order (and which tiles are still in them) stays hidden.
    s = GAME.setup(3, "privacy", {"start_seat": 0})
    rng = Rng("privacy-moves")
    for _ in range(400):  # bounded
        active = GAME.active_seats(s)
        if not active:
            break
        seat = min(active)
        legal = GAME.legal_actions(s, seat)
        busy = [a for a in legal if a["type"] not in ("pass", "sell")]
        action = busy[rng.randbelow(len(busy))] if busy and rng.randbelow(8) else legal[0]
        result = GAME.apply(s, seat, action)
        s = result.state
        hidden = _hidden_names(s)
        public = GAME.view(s, None)
        texts = [
            json.dumps(public),
            GAME.describe(public),
            *(json.dumps(e.to_json()) for e in result.events if e.to is None),
            *(json.dumps(GAME.view(s, o)) for o in range(3)),
        ]
        for text in texts:
            assert not [h for h in hidden if h in text]
        assert s.rng not in json.dumps(public)
    assert s.round > 1


# ---- uniform random play --------------------------------------------------------------------


def _can_act_by_the_spec(s: MinervaState, seat: int) -> bool:
    """An independent reading of §9.1 to §9.4 and §11: may the player do anything but pass?"""
    p = s.players[seat]
    fee = 0 if s.n == 1 or s.passes == 0 else 1
    wealth = p.money + sum(p.res)
    if s.n == 1 and any(pair[1] == "R" for pair in s.pairs):
        return True  # the round tile's coins cost nothing
    if wealth < fee:
        return False
    if p.houses > 0 or (p.reserve > 0 and "R" in p.city.values()):
        return True
    codes = [*s.offer, *(c for pair in s.pairs for c in pair if c != "R"), *s.temples]
    for code in codes:
        cost = CAT.temples[code].cost if code in CAT.temples else CAT.instances[code].cost
        assert cost is not None
        used = sum(min(have, need) for have, need in zip(p.res, cost, strict=True))
        missing = sum(max(0, need - have) for have, need in zip(p.res, cost, strict=True))
        if wealth - used >= 3 * missing + fee:
            return True
    return False


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_uniform_random_play_builds_and_passes_only_when_allowed(players: int) -> None:
    # §9.1: a pass is always offered at the start of a turn, and a pass is the only choice
    # exactly when the spec leaves nothing else (the fee cannot be paid, or no residence is
    # left and nothing on offer is payable). Uniform play still builds facilities: its games
    # are short because money runs out, not because passing is pushed on the players.
    builds: Counter[int] = Counter()
    for k in range(4):
        seed = f"uniform{k}"
        s = GAME.setup(players, seed)
        chooser = Rng(derive_seed("audit", players, seed))
        for _ in range(2000):  # bounded; these games take under 200 steps
            active = GAME.active_seats(s)
            if not active:
                break
            seat = min(active)
            legal = GAME.legal_actions(s, seat)
            if s.phase == "main" and not s.stack:
                assert {"type": "pass"} in legal
                others = types_of(legal) - {"pass", "sell"}
                assert bool(others) == _can_act_by_the_spec(s, seat)
            action: Action = legal[chooser.randbelow(len(legal))]
            if action["type"] == "build":
                builds[seat] += 1
            s = GAME.apply(s, seat, action).state
        assert s.phase == "over" and s.round == 6
    assert all(builds[seat] >= 4 for seat in range(players))


def test_a_frontier_cell_is_offered_for_every_placement() -> None:
    # §10.1: residences and facilities go on every empty edge-adjacent cell.
    s = fresh()
    cells = {f"{x},{y}" for x, y in frontier(s.players[0].city)}
    residences = {t.split()[1] for t in legal_texts(s, 0) if t.startswith("residence")}
    assert residences == cells == {"0,-1", "-1,0", "1,0", "0,1"}
