"""Palermo: scenarios for the rule facts of the specification not pinned down elsewhere.

Each test cites the section of ``rules/palermo.md`` it checks. States are built through the
public API, or with the scenario builders of ``test_palermo_fixtures`` where a position deep in
a game is needed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core import Rng
from rules.palermo import GAME
from rules.palermo.city import house_cells
from rules.palermo.collecting import city_graph, is_stop, legal_moves
from rules.palermo.state import BUILD, COLLECT, MOVE, POLICE, WALK, PalermoState
from tests.rules.test_palermo_building import building_state, builds
from tests.rules.test_palermo_fixtures import CORRIDOR, cell, collecting_state, house
from tests.rules.test_palermo_fixtures import legal_moves as move_actions
from tests.rules.test_palermo_movement import enumerate_endings, sample_states


def move(to: str, cost: int, end: str) -> dict[str, Any]:
    return {"type": "move", "to": to, "cost": cost, "end": end}


def triples(state: PalermoState) -> set[tuple[str, int, str]]:
    return {(m["to"], m["cost"], m["end"]) for m in move_actions(state)}


def own_corridor(owner: int) -> dict[str, Any]:
    """The corridor city with the door on d4 belonging to ``owner``."""
    return {**CORRIDOR, "B2": house("H3", "SE", owner)}


# A game with one chip each, so that a single collection sends a pawn home on a small budget.
ONE_CHIP: dict[str, Any] = {"chips_per_player": {"3": 1, "4": 1, "5": 1}, "street_tiles": 35}


# ---------------------------------------------------------------------------- components, setup


@pytest.mark.parametrize(("players", "chips"), [(3, 11), (4, 8), (5, 7)])
def test_each_player_count_deals_its_chips_and_starts_every_allowance_at_3(
    players: int, chips: int
) -> None:
    # Spec 5: 11 / 8 / 7 chips each with 3 / 4 / 5 players; spec 7.1: allowance 3 + chips.
    state = GAME.setup(players, "chips", {"first_player": 0})
    assert state.to_place == (chips,) * players
    assert all(state.allowance(s) == 3 for s in range(players))
    full = replace(state, collected=(chips,) * players)
    assert full.allowance(0) == 3 + chips and full.all_collected(0)


def test_with_three_players_the_movement_card_runs_from_3_to_14() -> None:
    # Spec 2: the turn-movement card has slots 3 to 14; 3 players collect 11 chips each.
    state = GAME.setup(3, "card", {"first_player": 0})
    assert [replace(state, collected=(n, 0, 0)).allowance(0) for n in (0, 11)] == [3, 14]


def test_house_layouts_follow_the_spec_table() -> None:
    # Spec 4.1: H1 roof NW door NE; H2 roofs NW NE door SW; H3 roofs NW NE SW door SE. On A1
    # the corners NW, NE, SW, SE are the cells a1, b1, a2, b2.
    state = GAME.setup(3, "layouts", {"first_player": 0})
    geo, cfg = state.geo, state.config
    expected = {
        "H1": ({"a1"}, "b1"),
        "H2": ({"a1", "b1"}, "a2"),
        "H3": ({"a1", "b1", "a2"}, "b2"),
    }
    for kind, (roof, door) in expected.items():
        cells = house_cells(geo, 0, cfg.house(kind), 0)
        assert {geo.cell_name(c) for c in cells.roof} == roof
        assert geo.cell_name(cells.door) == door and cells.door in cells.street
        # Four rotations, each with its door on a different street corner of the tile.
        doors = {house_cells(geo, 0, cfg.house(kind), r).door for r in range(4)}
        assert len(doors) == 4


def test_the_default_tile_supply_is_12_of_each_house_3_streets_and_start_finish() -> None:
    # Spec 4.2: 12 x H1, 12 x H2, 12 x H3, 3 street tiles and 1 Start/Finish tile = 40.
    view = GAME.view(GAME.setup(4, "supply", {"first_player": 0}), None)
    assert view["supply"] == {"H1": 12, "H2": 12, "H3": 12}
    assert view["street_tiles"] == 3
    assert sum(view["supply"].values()) + view["street_tiles"] + 1 == 40


def test_the_bypass_ring_has_52_cells_lined_up_with_the_city_edge() -> None:
    # Spec 3.2: 12 ring cells a side plus 4 corners; every city edge cell touches the ring
    # cell directly outside it, and the corners touch only ring cells.
    state = collecting_state(houses={})
    geo, g = state.geo, city_graph(state)
    assert geo.ring_count == 52
    links = {(geo.cell_name(c), geo.cell_name(r)) for c, r in geo.edge_links}
    assert len(links) == 48
    assert {("a1", "r2"), ("l1", "r13"), ("l1", "r15"), ("l12", "r26"), ("l12", "r28"),
            ("a12", "r39"), ("a12", "r41"), ("a1", "r52")} <= links
    for corner in ("r1", "r14", "r27", "r40"):
        assert all(geo.is_ring(n) for n in g.steps[cell(state, corner)])
    assert {geo.cell_name(n) for n in g.steps[cell(state, "r1")]} == {"r2", "r52"}
    assert {geo.cell_name(n) for n in g.steps[cell(state, "f6")]} == {"f5", "f7", "e6", "g6"}


def test_a_house_kind_that_has_run_out_is_not_offered() -> None:
    # Spec 4.2: when a kind runs out, players pick another kind.
    state = building_state({"C3": house("H1", "SW", 1)})
    state = replace(state, supply=(("H1", 3), ("H2", 0), ("H3", 1)))
    kinds = {a["kind"] for a in builds(state)}
    assert kinds == {"H1", "H3"}


# ---------------------------------------------------------------------------- phase 1


def play_phase_1(players: int, seed: str) -> tuple[PalermoState, list[int]]:
    """A random phase 1 through the public API; returns the state and who built each house."""
    state = GAME.setup(players, seed, {"first_player": 1})
    pick = Rng(f"phase1-{seed}")
    builders: list[int] = []
    while state.phase == BUILD:
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        action = legal[pick.randbelow(len(legal))]
        if action["type"] == "build":
            builders.append(seat)
        state = GAME.apply(state, seat, action).state
    return state, builders


@pytest.mark.parametrize(("players", "streets"), [(4, 3), (5, 0)])
def test_phase_1_goes_clockwise_and_leftover_spaces_become_streets(
    players: int, streets: int
) -> None:
    # Spec 6.1: clockwise from the start player, one house per turn, the same number of turns
    # for everyone; spec 6.3: 3 spaces stay empty with 4 players, none with 5, and street
    # tiles fill them; spec 7.1: phase 2 starts with the same player.
    state, builders = play_phase_1(players, f"clockwise{players}")
    chips = {4: 8, 5: 7}[players]
    assert builders == [(1 + k) % players for k in range(players * chips)]
    kinds = [t.kind for t in state.tiles if t is not None]
    assert len(kinds) == 36 and kinds.count("S") == streets and kinds.count("SF") == 1
    assert state.phase == COLLECT and state.turn == 1
    assert all(t.chip for t in state.tiles if t is not None and t.owner >= 0)


# A 3-player city from a game of random legal moves, before its last house (seat 2 to build,
# only H1 left in the supply).
# Each entry is kind, door corner and owner; ".." is a free space. D2 is a free space enclosed
# by roofs on every side: any house there joins a roof, but its streets reach nowhere.
RULE_2_CITY = """
H2NW0 H3NE1 H2NE2 H3NE0 H1NW2 ..
H2SW0 H2NW1 H2NW2 ..    H2SE1 H1SW0
H3NE1 SF    H3NW0 H3SW1 H2NE2 H3NW2
H3NE1 H3NW2 H2SE0 H2NW0 H2SE2 H3SW1
H1SW0 H3SE0 H2SE1 H2SW1 H1NE2 H1SE2
H1SE1 H1SW1 H3SE0 H3SE2 H1NE0 ..
"""


def city_from_rows(rows: str) -> tuple[dict[str, tuple[str, str, int]], str, list[str]]:
    houses: dict[str, tuple[str, str, int]] = {}
    start, free = "", []
    for j, line in enumerate(rows.split()[i : i + 6] for i in range(0, 36, 6)):
        for i, token in enumerate(line):
            space = f"{'ABCDEF'[i]}{j + 1}"
            if token == "SF":
                start = space
            elif token == "..":
                free.append(space)
            else:
                houses[space] = house(token[:2], token[2:4], int(token[4:]))
    return houses, start, free


def test_rule_2_applies_when_every_joining_placement_would_cut_off_a_street() -> None:
    # Spec 6.2 Rule 2: "if no legal placement satisfies Rule 1 (... together with Rule 3)"
    # the house may go on any free space. Every H1 on D2 joins a roof but shuts its own street
    # cells in, so the joining placements fail Rule 3 and the free corners F1 and F6, which
    # touch no roof, become legal.
    houses, start, free = city_from_rows(RULE_2_CITY)
    assert sorted(free) == ["D2", "F1", "F6"]
    state = building_state(houses, start=start)
    state = replace(state, turn=2, to_place=(0, 0, 1), supply=(("H1", 4), ("H2", 0), ("H3", 0)))
    legal = builds(state)
    assert {a["space"] for a in legal} == {"F1", "F6"}
    assert len(legal) == 8  # both spaces, every rotation
    after = GAME.apply(state, 2, legal[0]).state
    assert after.phase == COLLECT and after.lost == (0, 0, 0)


def test_a_door_test_and_a_street_cell_test_agree_on_the_default_tiles() -> None:
    # Spec 6.2 Rule 3: the seed asks for reachable entrances; the engine test asks every street
    # cell (Start/Finish included) to reach the ring. On the default tiles the street cells of
    # a house touch each other, so a house's door reaches the ring exactly when all its street
    # cells do. Hence the engine's waiver, which first keeps every door and Start/Finish open
    # where it can, waives exactly what the spec's waiver does on these tiles.
    state = GAME.setup(3, "tiles", {"first_player": 0})
    geo, cfg = state.geo, state.config
    for kind in cfg.houses:
        for rotation in range(4):
            streets = {geo.xy(c) for c in house_cells(geo, 0, kind, rotation).street}
            seen: set[tuple[int, int]] = set()
            todo = [min(streets)]
            while todo:
                x, y = todo.pop()
                if (x, y) not in seen:
                    seen.add((x, y))
                    todo += [n for n in streets if abs(n[0] - x) + abs(n[1] - y) == 1]
            assert seen == streets, (kind.name, rotation)


# ---------------------------------------------------------------------------- phase 2 moves


def test_on_its_first_turn_a_pawn_may_start_from_any_start_finish_cell() -> None:
    # Spec 7.1: every pawn stands on the Start/Finish tile (A1: a1 b1 a2 b2) and its owner
    # chooses the cell it starts from. e2 is 3 steps from b2 only, a5 3 steps from a2 only.
    state = collecting_state(houses=CORRIDOR)
    moves = triples(state)
    assert {("e2", 3, "exact"), ("a5", 3, "exact"), ("e1", 3, "exact")} <= moves
    # Ending on a Start/Finish cell is fine, whoever else stands there.
    assert ("b1", 3, "exact") in moves


def test_a_pawn_may_pass_through_a_cell_holding_another_pawn() -> None:
    # Spec 7.4 "through traffic": d5 holds a pawn, yet the pawn walks on to d7.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4", 1: "d5"})
    assert triples(state) == {("d7", 3, "exact")}


def test_every_opponent_stone_entered_costs_one_point_more() -> None:
    # Spec 7.4: +1 for each space entered that holds another colour's stone. d5 and d7 hold
    # stones of seats 1 and 2: d4 -> d7 costs 2 + 1 + 2 = 5.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d4"}, police={1: "d5", 2: "d7"}, collected={0: 2}
    )
    assert triples(state) == {("d7", 5, "exact")}
    # With 4 points d7 is out of reach and the pawn stops on d6, one point short.
    short = collecting_state(
        houses=CORRIDOR, pawns={0: "d4"}, police={1: "d5", 2: "d7"}, collected={0: 1}
    )
    assert triples(short) == {("d6", 3, "blocked")}


def test_a_corner_jump_onto_an_opponents_stone_costs_two() -> None:
    # Spec 7.3 (b), (d) and 7.4: a jump enters the corner, so a stone there adds +1. From r5
    # with 2 points: r1 costs 2 (and the move may end on the stone), r40 beyond it costs 3.
    state = collecting_state(houses=CORRIDOR, pawns={0: "r5"}, police={1: "r1"}, penalty=(1, 0, 0))
    moves = triples(state)
    assert ("r1", 2, "exact") in moves and ("r27", 2, "exact") in moves
    assert not any(to == "r40" for to, _, _ in moves)


def test_a_corner_jumps_only_to_the_neighbouring_corners() -> None:
    # Spec 7.3 (c), (d): from a corner the pawn steps along the ring or jumps to a
    # neighbouring corner; corners touch no city cell. With 1 point from r1:
    state = collecting_state(houses=CORRIDOR, pawns={0: "r1"}, options={"start_allowance": 1})
    assert triples(state) == {
        ("r2", 1, "exact"), ("r52", 1, "exact"), ("r14", 1, "exact"), ("r40", 1, "exact")
    }


def test_no_stop_at_the_players_door_while_another_pawn_stands_on_it() -> None:
    # Spec 7.4: only one pawn per space at the end of a move, business doors included.
    state = collecting_state(houses=own_corridor(0), pawns={0: "d7", 1: "d4"})
    legal = GAME.legal_actions(state, 0)
    assert {"type": "walk_on"} not in legal
    assert not any(a["type"] == "move" and (a["to"] == "d4" or a["end"] == "business")
                   for a in legal)


def test_only_a_door_with_the_players_own_chip_still_on_it_is_a_stop() -> None:
    # Spec 7.4 ending 2: the door of one of its own businesses whose chip is still there. An
    # opponent's door, or one already collected, is an ordinary street cell.
    theirs = collecting_state(houses=CORRIDOR, pawns={0: "d7"})  # d4 is seat 1's door
    assert ("d4", 3, "exact") in triples(theirs)
    mine = collecting_state(houses=own_corridor(0), pawns={0: "d7"}, collected={0: 1})
    b2 = mine.geo.parse_space("B2")
    assert b2 is not None
    tile = mine.tiles[b2]
    assert tile is not None
    tiles = list(mine.tiles)
    tiles[b2] = replace(tile, chip=False)  # collected on an earlier turn
    taken = replace(mine, tiles=tuple(tiles))
    moves = triples(taken)
    assert ("d4", 4, "exact") not in moves and not any(e == "business" for *_, e in moves)
    assert {"type": "walk_on"} not in GAME.legal_actions(taken, 0)


def test_income_is_the_budget_left_after_police_surcharges_and_the_pending_penalty() -> None:
    # Spec 7.2 and 7.4 ending 2: B = allowance - penalty = 7 - 1 = 6; the way d7 -> d4 costs
    # 1 + 2 (seat 1's stone on d5) + 1 = 4, so the income is 6 - 4 = 2.
    state = collecting_state(
        houses=own_corridor(0), pawns={0: "d7"}, police={1: "d5"}, collected={0: 4},
        penalty=(1, 0, 0),
    )
    assert move("d4", 4, "business") in GAME.legal_actions(state, 0)
    after = GAME.apply(state, 0, move("d4", 4, "business")).state
    assert after.income[0] == 2 and after.penalty[0] == 0 and after.allowance(0) == 8


def test_the_pending_penalty_lasts_for_one_turn_only() -> None:
    # Spec 7.2: the penalty applies only to the turn after the pawn ended on a stone.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d4", 1: "r5", 2: "r30"}, police={1: "d6"}
    )
    state = GAME.apply(state, 0, move("d6", 3, "exact")).state
    for seat in (1, 2):
        if state.step == POLICE:
            state = GAME.apply(state, seat, {"type": "keep"}).state
        state = GAME.apply(state, seat, move_actions(state)[0]).state
    assert state.turn == 0 and GAME.view(state, 0)["budget"] == 2
    if state.step == POLICE:
        state = GAME.apply(state, 0, {"type": "keep"}).state
    state = GAME.apply(state, 0, move("d8", 2, "exact")).state
    assert state.penalty[0] == 0 and state.pawns[0] == cell(state, "d8")


def test_a_blocked_stop_is_offered_only_when_no_stop_and_no_full_move_exist() -> None:
    # Spec 7.4 ending 4: blocked only if none of endings 1-3 is reachable. The full move would
    # end on the pawn on d7, but the player's own door d6 is reachable: it must stop there.
    houses = {**CORRIDOR, "B3": house("H2", "SE", 0)}  # door cell d6
    state = collecting_state(houses=houses, pawns={0: "d4", 1: "d7"})
    assert GAME.legal_actions(state, 0) == [move("d6", 2, "business")]


def test_before_every_chip_is_collected_start_finish_is_an_ordinary_street() -> None:
    # Spec 7.4: passing (or ending on) Start/Finish before all chips are collected does
    # nothing. From c1 with 4 points, a3 lies behind the Start/Finish tile on A1.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "c1"}, options={**ONE_CHIP, "start_allowance": 4}
    )
    moves = triples(state)
    assert {("a3", 4, "exact"), ("a1", 4, "exact"), ("b2", 4, "exact")} <= moves
    assert not any(e == "home" for *_, e in moves)


def test_with_every_chip_collected_entering_start_finish_ends_the_move() -> None:
    # Spec 7.4 ending 3: the move ends the moment the pawn enters a Start/Finish cell, so it
    # cannot walk through the tile to a3; any Start/Finish cell it reaches is home, at any
    # cost up to the whole budget.
    state = collecting_state(houses=CORRIDOR, pawns={0: "c1"}, collected={0: 1}, options=ONE_CHIP)
    moves = triples(state)
    assert not any(to == "a3" for to, _, _ in moves)
    assert {("b1", 1, "home"), ("b2", 2, "home"), ("a1", 4, "home")} <= moves
    after = GAME.apply(state, 0, move("a1", 4, "home")).state
    assert after.home_order == (0,) and after.leftover[0] == 0
    assert after.collected[0] == 1 and after.score(0) == 0


def test_the_stop_or_walk_on_split_offers_exactly_the_endings_of_the_rules() -> None:
    # Spec 7.4: every legal ending stays reachable through the two-step decision. The stops
    # come first; 'walk on' is offered exactly when full moves exist beside them, and leads
    # to every full move and nothing else. The reference is an independent enumeration of
    # simple paths classified straight from the rules.
    checked = 0
    for players, seed in ((3, "split1"), (4, "split2"), (5, "split3")):
        for state in sample_states(players, seed, 12):
            seat = state.turn
            first = GAME.legal_actions(state, seat)
            offered = {(a["to"], a["cost"], a["end"]) for a in first if a["type"] == "move"}
            if {"type": "walk_on"} in first:
                walking = GAME.apply(state, seat, {"type": "walk_on"}).state
                assert walking.step == WALK
                later = GAME.legal_actions(walking, seat)
                assert later and all(a["type"] == "move" and a["end"] == "exact" for a in later)
                assert not offered & {(a["to"], a["cost"], a["end"]) for a in later}
                offered |= {(a["to"], a["cost"], a["end"]) for a in later}
            else:
                # Either only stops (no full move exists) or no stop at all.
                kinds = {a["end"] in ("business", "home") for a in first}
                assert len(kinds) == 1
            expected = {
                (state.geo.cell_name(n), c, e) for n, c, e in enumerate_endings(state, seat)
            }
            assert offered == expected, (players, seed, state.turns)
            stops = [m for m in legal_moves(state, seat) if is_stop(m)]
            full = [m for m in legal_moves(state, seat) if not is_stop(m)]
            assert ({"type": "walk_on"} in first) == bool(stops and full)
            checked += 1
    assert checked >= 20


# ---------------------------------------------------------------------------- police, home


def test_police_spacing_counts_the_link_between_city_and_ring() -> None:
    # Spec 7.5: no stone orthogonally next to another; the ring cell r5 lies directly above d1.
    # Stones go on street or ring cells only, never on roofs.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d7"}, police={1: "r5"}, step=POLICE)
    targets = {a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "police"}
    assert {"d1", "r4", "r6", "r5"}.isdisjoint(targets)
    assert {"c1", "e1", "r3", "r7", "r1", "d2"} <= targets
    assert {"c3", "d3", "c4", "e3"}.isdisjoint(targets)  # roofs of B2 and C2


def test_a_home_player_whose_stone_is_frozen_scores_the_bonus_and_the_turn_passes() -> None:
    # Spec 7.5 and 7.6: the stone cannot move on its owner's next turn after an opponent's
    # pawn ended on it; the home player has no decision, scores the waiting bonus, and the
    # block ends with that turn.
    state = collecting_state(
        houses=CORRIDOR,
        pawns={0: "b1", 1: "r5", 2: "r30"},
        police={0: "k10"},
        turn=2,
        home_order=(0,),
        frozen=(True, False, False),
    )
    if state.step == POLICE:
        state = GAME.apply(state, 2, {"type": "keep"}).state
    transition = GAME.apply(state, 2, move_actions(state)[0])
    after = transition.state
    assert after.turn == 1 and after.bonus[0] == 5 and not after.frozen[0]
    assert [e.kind for e in transition.events].count("waiting_bonus") == 1


def test_a_home_players_stone_under_a_pawn_stays_and_the_turn_passes() -> None:
    # Spec 7.5: while any pawn rests on a police stone it cannot move, home or not.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "b1", 1: "k10", 2: "r30"}, police={0: "k10"}, turn=2,
        home_order=(0,),
    )
    after = GAME.apply(state, 2, move_actions(state)[0]).state
    assert after.turn == 1 and after.bonus[0] == 5 and after.police[0] == cell(after, "k10")


def test_a_player_stays_home_and_never_moves_the_pawn_again() -> None:
    # Spec 7.6: a home pawn has finished; its owner only places the stone (or keeps it).
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "b1", 1: "r5", 2: "r30"}, turn=2, home_order=(0,)
    )
    after = GAME.apply(state, 2, move_actions(state)[0]).state
    assert after.turn == 0 and after.step == POLICE
    assert {a["type"] for a in GAME.legal_actions(after, 0)} == {"police", "keep"}
    after = GAME.apply(after, 0, {"type": "police", "to": "k10"}).state
    assert after.turn == 1 and after.step in (POLICE, MOVE) and after.pawns[0] == cell(after, "b1")


# ---------------------------------------------------------------------------- nothing hidden


def test_nothing_is_hidden_from_anyone_and_no_view_carries_the_generator() -> None:
    # Spec 9: no hidden information. Every event goes to everyone; every seat's view is the
    # public view (the player to move also gets its list of destinations, or where it may
    # build); the generator state never shows.
    state = GAME.setup(3, "privacy")
    pick = Rng("privacy-choices")
    for _ in range(60):
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        transition = GAME.apply(state, seat, legal[pick.randbelow(len(legal))])
        assert all(e.to is None for e in transition.events)
        state = transition.state
        public = GAME.view(state, None)
        text = repr(public) + GAME.describe(public)
        assert "rng" not in public and state.rng not in text
        for s in range(3):
            mine = GAME.view(state, s)
            strip = ("reachable", "may_build", "observer")
            assert {k: v for k, v in mine.items() if k not in strip} == {
                k: v for k, v in public.items() if k not in strip
            }
    assert state.phase == COLLECT


def test_the_text_account_names_every_step_of_a_turn() -> None:
    # README "A turn, as decisions": after 'walk on' the text account (also the image's alt
    # text) says the pawn walks on with its whole budget.
    houses = {**CORRIDOR, "B3": house("H2", "SE", 0)}  # door cell d6
    state = collecting_state(houses=houses, pawns={0: "d4"})
    walking = GAME.apply(state, 0, {"type": "walk_on"}).state
    assert walking.step == WALK
    text = GAME.describe(GAME.view(walking, None))
    assert "To play: {p0} walks their pawn on, using all 3 movement points." in text
