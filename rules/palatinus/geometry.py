"""Hex geometry (spec 3): axial coordinates, tile rotation, the numbered ring positions, and the
board index (field names, neighbours, springs) built from the tiles laid so far.

Directions ``d0..d5`` run counter-clockwise; rotating a tile by one step turns it 60 degrees
counter-clockwise. Field ``C4`` is the field of tile C in local direction 3 (field n is local
direction n-1), so a field keeps its name whatever way the tile was turned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

Hex = tuple[int, int]

DIRS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# The two mirror-image sets of outer hill positions, each listed in ring order (spec 3.2).
SET_R: tuple[Hex, ...] = ((2, 1), (3, -2), (1, -3), (-2, -1), (-3, 2), (-1, 3))
SET_L: tuple[Hex, ...] = ((1, 2), (3, -1), (2, -3), (-1, -2), (-3, 1), (-2, 3))


def rotate(v: Hex, steps: int) -> Hex:
    q, r = v
    for _ in range(steps % 6):
        q, r = q + r, -q
    return (q, r)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def pixel(h: Hex) -> tuple[float, float]:
    """Centre of a pointy-top hex of size 1, y pointing down (used to number the ring)."""
    q, r = h
    return (math.sqrt(3) * (q + r / 2), 1.5 * r)


@dataclass(frozen=True)
class RingPosition:
    number: int
    """1-12, clockwise from the top."""
    hill: Hex
    hand: str
    """``"L"`` or ``"R"``: the mirror-image set this position belongs to."""
    index: int
    """Place in its set's ring order; ring neighbours differ by one (mod 6)."""


def _ring() -> tuple[RingPosition, ...]:
    entries = [(h, "R", i) for i, h in enumerate(SET_R)]
    entries += [(h, "L", i) for i, h in enumerate(SET_L)]

    def clockwise_from_top(entry: tuple[Hex, str, int]) -> float:
        x, y = pixel(entry[0])
        return (math.degrees(math.atan2(y, x)) + 90.0) % 360.0

    entries.sort(key=clockwise_from_top)
    return tuple(RingPosition(n + 1, h, hand, i) for n, (h, hand, i) in enumerate(entries))


RING: tuple[RingPosition, ...] = _ring()
RING_BY_NUMBER: dict[int, RingPosition] = {p.number: p for p in RING}
CENTRE: Hex = (0, 0)


def hill_of(position: int) -> Hex:
    """Hill of a position number: 0 is the centre, 1-12 the ring."""
    return CENTRE if position == 0 else RING_BY_NUMBER[position].hill


def ring_neighbours(number: int) -> tuple[int, int]:
    """The two positions of the same set next to ``number`` on the ring."""
    pos = RING_BY_NUMBER[number]
    out = [p.number for p in RING if p.hand == pos.hand and (p.index - pos.index) % 6 in (1, 5)]
    return (out[0], out[1])


def field_hexes(hill: Hex, rotation: int) -> tuple[Hex, ...]:
    """The six fields of a tile, in local direction order 0-5."""
    return tuple(add(hill, rotate(d, rotation)) for d in DIRS)


@dataclass(frozen=True)
class Board:
    """Index of the tiles laid so far: what the rules and views look up."""

    fields: dict[str, Hex]
    field_at: dict[Hex, str]
    hills: dict[str, Hex]
    tile_fields: dict[str, tuple[str, ...]]
    neighbours: dict[str, tuple[str, ...]]
    """Neighbouring fields on any tile (hills and off-board hexes left out)."""
    springs: frozenset[str]
    off_board: dict[str, int]
    """How many of a field's six neighbours are off the board."""


@lru_cache(maxsize=256)
def build_board(
    tiles: tuple[tuple[str, int, int], ...], springs: tuple[tuple[str, tuple[int, ...]], ...]
) -> Board:
    """``tiles`` holds (letter, position, rotation); ``springs`` maps letters to directions."""
    spring_dirs = dict(springs)
    fields: dict[str, Hex] = {}
    hills: dict[str, Hex] = {}
    tile_fields: dict[str, tuple[str, ...]] = {}
    spring_fields: set[str] = set()
    for letter, position, rotation in tiles:
        hill = hill_of(position)
        hills[letter] = hill
        names = []
        for i, h in enumerate(field_hexes(hill, rotation)):
            name = f"{letter}{i + 1}"
            fields[name] = h
            names.append(name)
            if i in spring_dirs.get(letter, ()):
                spring_fields.add(name)
        tile_fields[letter] = tuple(names)
    field_at = {h: name for name, h in fields.items()}
    on_board = set(field_at) | set(hills.values())
    neighbours: dict[str, tuple[str, ...]] = {}
    off_board: dict[str, int] = {}
    for name, h in fields.items():
        around = [add(h, d) for d in DIRS]
        neighbours[name] = tuple(field_at[n] for n in around if n in field_at)
        off_board[name] = sum(1 for n in around if n not in on_board)
    return Board(
        fields, field_at, hills, tile_fields, neighbours, frozenset(spring_fields), off_board
    )
