"""Builders for Palermo scenario states, shared by the Palermo rule tests (and checked here).

A scenario city is written as tile spaces with what lies on them; every space not named is a
street tile. Cells are given by name (``d4``), as players write them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.palermo import GAME
from rules.palermo.components import CORNERS
from rules.palermo.state import COLLECT, MOVE, OFF, PalermoState, Tile

HouseSpec = tuple[str, str, int]  # kind, door corner, owner seat


def house(kind: str, door: str, owner: int) -> HouseSpec:
    return (kind, door, owner)


def rotation_for(kind: str, door: str) -> int:
    cfg = GAME.setup(3, "fixture").config
    return (CORNERS.index(door) - cfg.house(kind).door) % 4


def city_tiles(
    state: PalermoState, houses: Mapping[str, HouseSpec], start: str = "A1", fill: bool = True
) -> tuple[Tile | None, ...]:
    geo = state.geo
    tiles: list[Tile | None] = [Tile("S") if fill else None for _ in state.tiles]
    start_space = geo.parse_space(start)
    assert start_space is not None
    tiles[start_space] = Tile("SF")
    for name, (kind, door, owner) in houses.items():
        space = geo.parse_space(name)
        assert space is not None, name
        tiles[space] = Tile(kind, rotation_for(kind, door), owner, True)
    return tuple(tiles)


def cell(state: PalermoState, name: str) -> int:
    node = state.geo.parse_cell(name)
    assert node is not None, name
    return node


def collecting_state(
    players: int = 3,
    houses: Mapping[str, HouseSpec] | None = None,
    start: str = "A1",
    pawns: Mapping[int, str] | None = None,
    police: Mapping[int, str] | None = None,
    collected: Mapping[int, int] | None = None,
    turn: int = 0,
    step: str = MOVE,
    options: Mapping[str, Any] | None = None,
    **fields: Any,
) -> PalermoState:
    """A phase-2 state on a scenario city: ``pawns``/``police`` map seats to cell names."""
    base = GAME.setup(players, "scenario", {"first_player": 0, **(options or {})})
    tiles = city_tiles(base, houses or {}, start)
    pawn_nodes = [OFF] * players
    for seat, name in (pawns or {}).items():
        pawn_nodes[seat] = cell(base, name)
    stones = [OFF] * players
    for seat, name in (police or {}).items():
        stones[seat] = cell(base, name)
    got = [0] * players
    for seat, n in (collected or {}).items():
        got[seat] = n
    return replace(
        base,
        phase=COLLECT,
        step=step,
        turn=turn,
        tiles=tiles,
        to_place=(0,) * players,
        pawns=tuple(pawn_nodes),
        police=tuple(stones),
        collected=tuple(got),
        **fields,
    )


# The corridor city used by several scenarios: a dead-end corridor d4-d5-d6 that opens at d7
# into the open street tiles below. d4 is the door cell of a player-1 H3 house on B2; every
# other side of the corridor is roof.
CORRIDOR: dict[str, HouseSpec] = {
    "B2": house("H3", "SE", 1),  # roofs c3 d3 c4, door cell d4
    "C2": house("H3", "SE", 2),  # roofs e3 f3 e4: seals d4's east side
    "B3": house("H2", "SE", 2),  # roofs c5 c6, streets d5 d6
    "C3": house("H2", "SE", 2),  # roofs e5 e6, streets f5 f6
}


def legal_moves(state: PalermoState) -> list[dict[str, Any]]:
    return [a for a in GAME.legal_actions(state, state.turn) if a["type"] == "move"]


def test_the_corridor_city_is_a_dead_end_of_three_cells() -> None:
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4"})
    moves = legal_moves(state)
    # Budget 3 from d4: the only full-length ending is d7, three steps down the corridor.
    assert {(m["to"], m["cost"], m["end"]) for m in moves} == {("d7", 3, "exact")}


def test_scenario_states_survive_a_json_round_trip() -> None:
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4", 1: "d7"}, police={2: "r5"})
    assert GAME.load(GAME.dump(state)) == state
