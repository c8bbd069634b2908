"""Phase 1 scenarios: laying the Start/Finish tile and the houses (spec 6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules.core import IllegalAction, Rng
from rules.palermo import GAME
from rules.palermo.state import BUILD, COLLECT, HOUSE, PalermoState, Tile
from tests.rules.test_palermo_fixtures import HouseSpec, city_tiles, house


def building_state(
    houses: Mapping[str, HouseSpec], start: str = "F1", options: Mapping[str, Any] | None = None
) -> PalermoState:
    base = GAME.setup(3, "build", {"first_player": 0, **(options or {})})
    return replace(
        base,
        phase=BUILD,
        step=HOUSE,
        turn=0,
        tiles=city_tiles(base, houses, start, fill=False),
        to_place=(5, 5, 5),
    )


def builds(state: PalermoState) -> list[dict[str, Any]]:
    return GAME.legal_actions(state, state.turn)


def build(kind: str, space: str, door: str) -> dict[str, Any]:
    return {"type": "build", "kind": kind, "space": space, "door": door}


def test_the_first_player_lays_start_finish_then_a_house() -> None:
    # Spec 6.1: the first player lays the Start/Finish tile anywhere, then one house.
    state = GAME.setup(3, "s", {"first_player": 1})
    assert GAME.active_seats(state) == {1}
    legal = GAME.legal_actions(state, 1)
    assert len(legal) == 36 and all(a["type"] == "start" for a in legal)
    state = GAME.apply(state, 1, {"type": "start", "space": "C3"}).state
    assert GAME.active_seats(state) == {1} and state.step == HOUSE
    # The first house: no roof exists yet, so it may go on any free space (Rule 2).
    spaces = {a["space"] for a in GAME.legal_actions(state, 1)}
    assert len(spaces) == 35 and "C3" not in spaces
    state = GAME.apply(state, 1, build("H2", "A6", "SW")).state
    assert GAME.active_seats(state) == {2}
    assert state.to_place == (11, 10, 11)


def test_roofs_sharing_an_edge_join_but_diagonal_contact_does_not() -> None:
    # Spec 6.2 Rule 1: a new roof must share a cell edge with an existing roof; corners only
    # touching is no join. The H1 on C3 has its roof on f6 (its SE corner).
    state = building_state({"C3": house("H1", "SW", 1)})
    legal = builds(state)
    # H1 on D3 with its door at NW has its roof on g6, edge to edge with f6: a join.
    assert build("H1", "D3", "NW") in legal
    # H1 on D4 with its door at NE has its roof on g7, meeting f6 only at a corner.
    assert build("H1", "D4", "NE") not in legal
    # Joining placements exist (on D3 and C4, the spaces touching f6), so nothing else is
    # allowed: Rule 2 does not apply.
    assert {a["space"] for a in legal} == {"C4", "D3"}
    assert state.phase == BUILD


def test_diagonal_contact_can_be_forbidden_outright_by_option() -> None:
    # Spec 6.2 [design choice] diagonal_roofs = "forbidden": a placement whose roof meets
    # another only at a corner is refused even where it also joins elsewhere.
    houses = {"C3": house("H1", "SW", 1), "E3": house("H2", "SW", 2)}
    plain = builds(building_state(houses))
    strict = builds(building_state(houses, options={"diagonal_roofs": "forbidden"}))
    # H3 on D3 turned with its door at NE: roofs g5 g6 h6. g6 joins f6 (C3) edge to edge, but
    # h6 meets the E3 roof i5 only at a corner.
    assert build("H3", "D3", "NE") in plain
    assert build("H3", "D3", "NE") not in strict
    assert strict and set(map(str, strict)) < set(map(str, plain))


def test_rule_2_lets_the_house_go_anywhere_when_no_placement_can_join() -> None:
    # Spec 6.2 Rule 2: the H1 on A1 has its only roof in the board's corner (a1), whose
    # neighbours lie on its own tile, so no new roof can join it: any free space will do.
    state = building_state({"A1": house("H1", "NE", 1)})
    spaces = {a["space"] for a in builds(state)}
    assert {"F6", "C4", "A2"} <= spaces
    assert len(spaces) == 34


def test_a_placement_that_seals_a_door_is_refused() -> None:
    # Spec 6.2 Rule 3: d4 is the door cell of the H3 on B2; C2's roof closes its east side and
    # only d5 (on the empty space B3) is left open.
    state = building_state({"B2": house("H3", "SE", 1), "C2": house("H3", "SE", 2)})
    legal = builds(state)
    sealing = build("H2", "B3", "SW")  # roofs c5 d5: joins c4, but shuts d4 in
    assert sealing not in legal
    with pytest.raises(IllegalAction, match="way to the ring"):
        GAME.apply(state, 0, sealing)
    assert build("H2", "B3", "SE") in legal  # roofs c5 c6: joins and leaves d5 d6 open


def test_rule_3_is_waived_when_no_placement_can_keep_every_street_open() -> None:
    # Spec 6.2 [design choice]: with every H3 turned the same way, each street cell is
    # enclosed by roofs already, so no placement passes Rule 3; it is waived for the turn.
    state = building_state({})
    tiles = [Tile("H3", 0, 1, True)] * 36
    tiles[35] = Tile("SF")
    tiles[14] = None  # C3, the one free space
    state = replace(state, tiles=tuple(tiles))
    legal = builds(state)
    assert legal and {a["space"] for a in legal} == {"C3"}


def test_current_building_target_follows_the_latest_house() -> None:
    # Spec 6.2 [design choice] join_target = "current_building": join the building of the
    # latest house while it can grow.
    houses = {"B2": house("H2", "SW", 1), "E5": house("H2", "SW", 2)}
    state = building_state(houses, options={"join_target": "current_building"})
    geo = state.geo
    latest = geo.parse_space("E5")
    assert latest is not None
    state = replace(state, last_house=latest)
    spaces = {a["space"] for a in builds(state)}
    assert spaces and spaces <= {"D5", "F5", "E4", "E6", "D4", "F4", "D6", "F6"}
    anywhere = {a["space"] for a in builds(building_state(houses))}
    assert "B1" in anywhere and "B1" not in spaces


def test_remaining_spaces_are_filled_with_street_tiles_when_chips_run_out() -> None:
    # Spec 6.3: with 3 players 1 + 33 houses leave 2 spaces, filled with street tiles; phase 2
    # then starts with the first player.
    state = GAME.setup(3, "fill", {"first_player": 2})
    pick = Rng("fill-choices")
    events: list[str] = []
    for _ in range(40):
        if state.phase != BUILD:
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        transition = GAME.apply(state, seat, legal[pick.randbelow(len(legal))])
        events += [e.kind for e in transition.events]
        state = transition.state
    assert state.phase == COLLECT
    kinds = [t.kind for t in state.tiles if t is not None]
    assert kinds.count("S") == 2 and kinds.count("SF") == 1 and len(kinds) == 36
    assert "city_complete" in events
    assert state.turn == 2
    assert state.streets_left == 1
