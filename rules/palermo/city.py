"""What each laid tile puts on the cells: roofs, streets, the door and the door cell (spec 4.1).

The door faces the *door cell*, a street cell of the same tile (where a pawn stops to collect);
``door_roof`` is the roof cell whose wall carries the door, for drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.palermo.components import Config, HouseKind
from rules.palermo.geometry import Geometry
from rules.palermo.state import START_KIND, STREET_KIND, Tile

LayoutKey = tuple[tuple[str, int] | None, ...]


@dataclass(frozen=True)
class TileCells:
    roof: tuple[int, ...]
    street: tuple[int, ...]
    door: int = -1
    door_roof: int = -1


def house_cells(geo: Geometry, space: int, kind: HouseKind, rotation: int) -> TileCells:
    corners = geo.space_cells(space)
    roof_corners = kind.roof_at(rotation)
    door_corner = kind.door_at(rotation)
    roof = tuple(corners[c] for c in roof_corners)
    street = tuple(corners[c] for c in range(4) if c not in roof_corners)
    # The wall carrying the door: the roof corner after the door going anticlockwise first,
    # so the choice is stable under rotation.
    walls = [(door_corner - 1) % 4, (door_corner + 1) % 4]
    door_roof = next(corners[c] for c in walls if c in roof_corners)
    return TileCells(roof, street, corners[door_corner], door_roof)


def tile_cells(cfg: Config, geo: Geometry, space: int, tile: Tile) -> TileCells:
    if tile.kind in (START_KIND, STREET_KIND):
        return TileCells((), geo.space_cells(space))
    return house_cells(geo, space, cfg.house(tile.kind), tile.rotation)


def layout_key(tiles: tuple[Tile | None, ...]) -> LayoutKey:
    return tuple(None if t is None else (t.kind, t.rotation) for t in tiles)


@dataclass(frozen=True)
class City:
    """The cells of a (partly) built city: which are roofs, streets, Start/Finish, doors."""

    roof: frozenset[int]
    street: frozenset[int]
    start: frozenset[int]
    doors: tuple[int, ...]  # door cell per tile space, -1 where none
    empty: tuple[int, ...]  # free tile spaces


@lru_cache(maxsize=256)
def city(cfg: Config, geo: Geometry, key: LayoutKey) -> City:
    roof: set[int] = set()
    street: set[int] = set()
    start: set[int] = set()
    doors: list[int] = []
    empty: list[int] = []
    for space, entry in enumerate(key):
        if entry is None:
            empty.append(space)
            doors.append(-1)
            continue
        cells = tile_cells(cfg, geo, space, Tile(entry[0], entry[1]))
        roof.update(cells.roof)
        street.update(cells.street)
        if entry[0] == START_KIND:
            start.update(cells.street)
        doors.append(cells.door)
    return City(frozenset(roof), frozenset(street), frozenset(start), tuple(doors), tuple(empty))
