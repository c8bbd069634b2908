"""City geometry on an unbounded square grid (spec §10.1, §10.3, §10.5, §6).

Coordinates are ``(x, y)`` with x growing east and y growing south, as on the picture; the
fountain stands at ``(0, 0)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Cell = tuple[int, int]

DIRECTIONS: dict[str, Cell] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
DIRECTION_NAMES = {"n": "north", "e": "east", "s": "south", "w": "west"}
_STEPS4 = tuple(DIRECTIONS.values())
_STEPS8 = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))

RESIDENCES = frozenset(("R", "A"))


def neighbours4(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in _STEPS4]


def ring8(cell: Cell) -> list[Cell]:
    """The 8 surrounding cells, row by row from the north-west."""
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in _STEPS8]


def frontier(city: Mapping[Cell, str]) -> list[Cell]:
    """Empty cells sharing an edge with a tile: where a new tile may go, sorted by (y, x)."""
    found = {(x + dx, y + dy) for x, y in city for dx, dy in _STEPS4} - city.keys()
    return sorted(found, key=lambda c: (c[1], c[0]))


def on_frontier(city: Mapping[Cell, str], cell: Cell) -> bool:
    """``cell in frontier(city)``, without listing the frontier: empty, with a tile next to it
    (being next to is symmetric)."""
    if cell in city:
        return False
    x, y = cell
    return any((x + dx, y + dy) in city for dx, dy in _STEPS4)


def line(city: Mapping[Cell, str], origin: Cell, direction: str) -> list[Cell]:
    """Cells an activation reaches from a residence: up to the first gap or residence."""
    dx, dy = DIRECTIONS[direction]
    x, y = origin[0] + dx, origin[1] + dy
    out: list[Cell] = []
    while True:
        code = city.get((x, y))
        if code is None or code in RESIDENCES:
            return out
        out.append((x, y))
        x, y = x + dx, y + dy


def cross(city: Mapping[Cell, str], centre: Cell) -> list[Cell]:
    """Occupied cells in the same row or column, at any distance, the centre excluded."""
    cx, cy = centre
    return [c for c in city if (c[0] == cx) != (c[1] == cy)]


def connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one edge-connected group (an empty set counts as connected)."""
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        for n in neighbours4(stack.pop()):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


def parse_cell(text: str) -> Cell | None:
    """``"3,-1"`` -> ``(3, -1)``; None if the text is not two whole numbers."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def format_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"
