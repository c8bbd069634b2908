"""Scouting geometry: the 4-cell Patterns, their rotations and mirror images, and where they fit
on the 4 x 5 map (spec 4.11 and 6). Cells are ``(row, col)``, 0-based from the top left; in the
text notation rows are letters A-D and columns numbers 1-5 (``B3`` is row 1, col 2).
"""

from __future__ import annotations

from functools import cache

from rules.hadrians_wall.components import MAP_COLS, MAP_ROWS, PATTERNS

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


def normalize(cells: list[Cell] | tuple[Cell, ...]) -> Shape:
    """Translate a cell set to touch row 0 and column 0, sorted."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


@cache
def orientations(pattern: str) -> frozenset[Shape]:
    """Every rotation and mirror image of a pattern (so L and J, S and Z are one piece)."""
    shapes: set[Shape] = set()
    cells = list(PATTERNS[pattern])
    for _mirror in range(2):
        for _turn in range(4):
            cells = [(c, -r) for r, c in cells]
            shapes.add(normalize(cells))
        cells = [(r, -c) for r, c in cells]
    return frozenset(shapes)


def mask_of(cells: tuple[Cell, ...] | list[Cell]) -> int:
    m = 0
    for r, c in cells:
        m |= 1 << (r * MAP_COLS + c)
    return m


@cache
def placements(pattern: str) -> tuple[tuple[int, Shape], ...]:
    """Every placement on the map: (bit mask, sorted cells), without duplicates."""
    found: dict[int, Shape] = {}
    for shape in sorted(orientations(pattern)):
        height = 1 + max(r for r, _ in shape)
        width = 1 + max(c for _, c in shape)
        for dr in range(MAP_ROWS - height + 1):
            for dc in range(MAP_COLS - width + 1):
                cells = tuple(sorted((r + dr, c + dc) for r, c in shape))
                found.setdefault(mask_of(cells), cells)
    return tuple(sorted(found.items(), key=lambda item: item[1]))


def map_mask(cells: list[int]) -> int:
    m = 0
    for i, v in enumerate(cells):
        if v:
            m |= 1 << i
    return m


def free_placements(pattern: str, filled: int) -> list[Shape]:
    return [cells for m, cells in placements(pattern) if not m & filled]


def on_map(cell: Cell) -> bool:
    return 0 <= cell[0] < MAP_ROWS and 0 <= cell[1] < MAP_COLS


def fits(pattern: str, cells: list[Cell]) -> str | None:
    """Why these cells are not a placement of the pattern on the map, or None if they are."""
    if len(cells) != 4 or len(set(cells)) != 4:
        return "A pattern covers 4 different cells."
    if not all(on_map(c) for c in cells):
        return "The pattern would hang off the map; every cell must be on it (A-D, 1-5)."
    if normalize(cells) not in orientations(pattern):
        return f"Those cells do not make the {pattern} pattern (rotated or mirrored)."
    return None


def cell_name(cell: Cell) -> str:
    return f"{'ABCD'[cell[0]]}{cell[1] + 1}"


def complete_rows(cells: list[int]) -> int:
    return sum(all(cells[r * MAP_COLS + c] for c in range(MAP_COLS)) for r in range(MAP_ROWS))


def complete_columns(cells: list[int]) -> int:
    # A column's cells are every MAP_COLS-th cell from its first (a slice runs in C).
    return sum(1 for c in range(MAP_COLS) if all(cells[c:MAP_ROWS * MAP_COLS:MAP_COLS]))
