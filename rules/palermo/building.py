"""Phase 1 placement legality (spec 6.2): Rule 1 joining, Rule 2 fallback, Rule 3 access.

Cells are bits of an integer with row stride ``C + 1`` (one always-clear guard column), so a
flood fill over the whole city is a handful of shifts and masks per step.

The legal placements are the first non-empty tier of:

1. joining (Rule 1) and keeping every street cell connected to the ring (Rule 3);
2. keeping every street cell connected, anywhere (Rule 2, only when tier 1 is empty);
3. Rule 3 waived, because no placement passes it: joining and keeping at least every door and
   the Start/Finish tile connected (the seed's own wording of Rule 3 is about entrances);
4. the same, anywhere;
5. joining; 6. anywhere (only when even that cannot be kept).

With ``diagonal_roofs = "forbidden"`` each tier first excludes roofs meeting only at a corner;
should that leave nothing in the tier, the diagonal ban is lifted before access is given up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.palermo.city import LayoutKey, city, house_cells
from rules.palermo.components import Config, HouseKind
from rules.palermo.geometry import Geometry
from rules.palermo.state import PalermoState


@dataclass(frozen=True)
class Placement:
    space: int
    kind: str
    rotation: int


@dataclass(frozen=True)
class Grid:
    """Bit positions of the city cells for one geometry."""

    stride: int
    bit: tuple[int, ...]  # city cell id -> bit index
    city_mask: int
    boundary: int


@lru_cache(maxsize=16)
def grid_bits(geo: Geometry) -> Grid:
    c = geo.cells
    stride = c + 1
    bits = tuple((cell // c) * stride + cell % c for cell in range(geo.city_count))
    city_mask = sum(1 << b for b in bits)
    boundary = 0
    for cell in range(geo.city_count):
        x, y = cell % c, cell // c
        if x in (0, c - 1) or y in (0, c - 1):
            boundary |= 1 << bits[cell]
    return Grid(stride, bits, city_mask, boundary)


def _mask(grid: Grid, cells: tuple[int, ...] | frozenset[int]) -> int:
    out = 0
    for cell in cells:
        out |= 1 << grid.bit[cell]
    return out


def _grow(mask: int, stride: int) -> int:
    return mask | (mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)


def _flood(seed: int, passable: int, stride: int) -> int:
    reach = seed & passable
    while True:
        grown = _grow(reach, stride) & passable
        if grown == reach:
            return reach
        reach = grown


def _diagonal_only(grid: Grid, new_roof: int, roofs: int) -> bool:
    """Does a new roof cell meet an existing roof only at a corner (no roof on either bridge
    cell that shares an edge with both)?"""
    s = grid.stride
    all_roofs = roofs | new_roof
    cell = new_roof
    while cell:
        low = cell & -cell
        cell ^= low
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            diag = _shift(low, dx + dy * s)
            if not diag & roofs & grid.city_mask:
                continue
            bridge_a, bridge_b = _shift(low, dx), _shift(low, dy * s)
            if not (bridge_a | bridge_b) & all_roofs:
                return True
    return False


def _shift(mask: int, by: int) -> int:
    return mask << by if by >= 0 else mask >> -by


def building_mask(grid: Grid, roofs: int, start: int) -> int:
    """The roof cells joined edge to edge with ``start``: one building."""
    return _flood(start, roofs, grid.stride)


def legal_placements(state: PalermoState) -> tuple[Placement, ...]:
    return _legal_placements(state.config, state.geo, _key(state), state.supply, state.last_house)


def _key(state: PalermoState) -> LayoutKey:
    return tuple(None if t is None else (t.kind, t.rotation) for t in state.tiles)


@lru_cache(maxsize=64)
def _legal_placements(
    cfg: Config,
    geo: Geometry,
    key: LayoutKey,
    supply: tuple[tuple[str, int], ...],
    last_house: int,
) -> tuple[Placement, ...]:
    grid = grid_bits(geo)
    built = city(cfg, geo, key)
    roofs = _mask(grid, built.roof)
    required = _mask(grid, built.street)
    entrances = _mask(grid, built.start) | _mask(grid, tuple(d for d in built.doors if d >= 0))
    passable = grid.city_mask & ~roofs
    if cfg.join_target == "current_building" and last_house >= 0:
        kind = cfg.house(_kind(key, last_house))
        last = house_cells(geo, last_house, kind, _rot(key, last_house))
        join_mask = building_mask(grid, roofs, _mask(grid, last.roof))
    else:
        join_mask = roofs
    kinds = [cfg.house(name) for name, left in supply if left > 0]
    reach_cache: dict[int, int] = {}
    tiers: list[list[Placement]] = [[] for _ in range(12)]
    for space in built.empty:
        for kind in kinds:
            for rotation in range(4):
                new_roof, street, door, rim = _candidate(geo, space, kind, rotation)
                joins = bool(rim & join_mask)
                reach = reach_cache.get(new_roof)
                if reach is None:
                    reach = _flood(grid.boundary, passable & ~new_roof, grid.stride)
                    reach_cache[new_roof] = reach
                access = not ((required | street) & ~reach)
                doors_ok = not ((entrances | door) & ~reach)
                diag_ok = cfg.diagonal_roofs != "forbidden" or not _diagonal_only(
                    grid, new_roof, roofs
                )
                rank = _tier(joins, access, doors_ok, diag_ok)
                tiers[rank].append(Placement(space, kind.name, rotation))
    for tier in tiers:
        if tier:
            return tuple(tier)
    return ()


@lru_cache(maxsize=16_384)
def _candidate(geo: Geometry, space: int, kind: HouseKind, rotation: int
               ) -> tuple[int, int, int, int]:
    """A house's masks on an empty space, the same in every game on this geometry: its roof,
    its street cells, its door, and the cells edge-adjacent to its roof."""
    grid = grid_bits(geo)
    cells = house_cells(geo, space, kind, rotation)
    roof = _mask(grid, cells.roof)
    rim = _grow(roof, grid.stride) & ~roof
    return roof, _mask(grid, cells.street), _mask(grid, (cells.door,)), rim


def _tier(joins: bool, access: bool, doors_ok: bool, diag_ok: bool) -> int:
    """Access first (Rule 3), then the diagonal ban, then joining (Rule 1 before Rule 2)."""
    level = 0 if access else 1 if doors_ok else 2
    return 4 * level + (0 if diag_ok else 2) + (0 if joins else 1)


def _kind(key: LayoutKey, space: int) -> str:
    entry = key[space]
    assert entry is not None
    return entry[0]


def _rot(key: LayoutKey, space: int) -> int:
    entry = key[space]
    assert entry is not None
    return entry[1]
