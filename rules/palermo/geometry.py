"""Board geometry (spec 3): tile spaces, cells, the bypass ring, names and fixed links.

Cells have ids: a city cell ``(x, y)`` is ``y * C + x`` with ``C = 2 * grid_tiles``; the ring
cells follow, numbered clockwise from the north-west corner. Names (what players type and read
off the board):

* tile spaces: column letter ``A``.. and row number ``1``.., e.g. ``C4``;
* city cells: column letter ``a``.. and row number ``1``.., e.g. ``e7``;
* ring cells: ``r1``.. clockwise from the north-west corner (``r1`` is that corner).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from rules.palermo.components import CORNER_OFFSETS

RING_SIDES = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Geometry:
    grid: int  # tile spaces per side
    ring_side: int  # ring spaces per side, corners not counted

    @cached_property
    def cells(self) -> int:
        """City cells per side."""
        return 2 * self.grid

    @cached_property
    def city_count(self) -> int:
        return self.cells * self.cells

    @cached_property
    def ring_count(self) -> int:
        return 4 * self.ring_side + 4

    @cached_property
    def node_count(self) -> int:
        return self.city_count + self.ring_count

    # ---------------------------------------------------------------- tile spaces and cells

    def space_cells(self, space: int) -> tuple[int, int, int, int]:
        """The city cells of a tile space, indexed by corner (NW, NE, SE, SW)."""
        i, j = space % self.grid, space // self.grid
        c = self.cells
        out = [(2 * j + dy) * c + (2 * i + dx) for dx, dy in CORNER_OFFSETS]
        return (out[0], out[1], out[2], out[3])

    def space_of(self, cell: int) -> int:
        x, y = cell % self.cells, cell // self.cells
        return (y // 2) * self.grid + x // 2

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.cells, cell // self.cells

    def is_ring(self, node: int) -> bool:
        return node >= self.city_count

    def ring_index(self, node: int) -> int:
        return node - self.city_count

    def corner_nodes(self) -> tuple[int, int, int, int]:
        """NW, NE, SE, SW corner nodes."""
        base, n = self.city_count, self.ring_side
        return (base, base + n + 1, base + 2 * n + 2, base + 3 * n + 3)

    def is_corner(self, node: int) -> bool:
        return self.is_ring(node) and self.ring_index(node) % (self.ring_side + 1) == 0

    # ---------------------------------------------------------------- names

    def space_name(self, space: int) -> str:
        return f"{chr(ord('A') + space % self.grid)}{space // self.grid + 1}"

    def cell_name(self, node: int) -> str:
        return self.names[node]

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(self._name(n) for n in range(self.node_count))

    def _name(self, node: int) -> str:
        if self.is_ring(node):
            return f"r{self.ring_index(node) + 1}"
        x, y = self.xy(node)
        return f"{chr(ord('a') + x)}{y + 1}"

    def parse_space(self, text: str) -> int | None:
        m = re.fullmatch(r"([a-z])(\d{1,2})", text.strip().lower())
        if not m:
            return None
        i, j = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
        if 0 <= i < self.grid and 0 <= j < self.grid:
            return j * self.grid + i
        return None

    def parse_cell(self, text: str) -> int | None:
        t = text.strip().lower()
        m = re.fullmatch(r"r(\d{1,3})", t)
        if m:
            k = int(m.group(1)) - 1
            return self.city_count + k if 0 <= k < self.ring_count else None
        m = re.fullmatch(r"([a-z])(\d{1,2})", t)
        if not m:
            return None
        x, y = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
        if 0 <= x < self.cells and 0 <= y < self.cells:
            return y * self.cells + x
        return None

    # ---------------------------------------------------------------- ring layout

    def ring_rect(self, node: int) -> tuple[float, float, float, float]:
        """The ring cell's rectangle in city-cell units; the city spans [0, C) on both axes."""
        k, n, c = self.ring_index(node), self.ring_side, float(self.cells)
        side, pos = divmod(k, n + 1)
        if pos == 0:  # a corner
            x0, y0 = ((-1.0, -1.0), (c, -1.0), (c, c), (-1.0, c))[side]
            return (x0, y0, x0 + 1, y0 + 1)
        p = pos - 1
        lo, hi = p * c / n, (p + 1) * c / n
        if side == 0:
            return (lo, -1.0, hi, 0.0)
        if side == 1:
            return (c, lo, c + 1, hi)
        if side == 2:
            return (c - hi, c, c - lo, c + 1)
        return (-1.0, c - hi, 0.0, c - lo)

    def ring_steps(self, node: int) -> tuple[int, int]:
        """The two ring cells next to this one along the ring."""
        k, m, base = self.ring_index(node), self.ring_count, self.city_count
        return (base + (k - 1) % m, base + (k + 1) % m)

    def ring_jumps(self, node: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Bypass fast moves from this ring cell (spec 7.3 b, d), each with the ring cells it
        skips: a side cell jumps to the corners at the ends of its side, a corner to the
        neighbouring corners."""
        k, n, m, base = self.ring_index(node), self.ring_side, self.ring_count, self.city_count
        side, pos = divmod(k, n + 1)
        if pos == 0:
            before, after = (k - (n + 1)) % m, (k + n + 1) % m
            skipped_b = tuple(base + (k - d) % m for d in range(1, n + 1))
            skipped_a = tuple(base + (k + d) % m for d in range(1, n + 1))
            return ((base + before, skipped_b), (base + after, skipped_a))
        start, end = side * (n + 1), (side * (n + 1) + n + 1) % m
        back = tuple(base + start + d for d in range(pos - 1, 0, -1))
        ahead = tuple(base + (k + d) % m for d in range(1, n + 1 - pos))
        return ((base + start, back), (base + end, ahead))

    @property
    def edge_links(self) -> tuple[tuple[int, int], ...]:
        return _edge_links(self.grid, self.ring_side)


@lru_cache(maxsize=16)
def _edge_links(grid: int, n: int) -> tuple[tuple[int, int], ...]:
    """Pairs (city edge cell, ring cell) that touch: their sides overlap by a positive length."""
    geo = Geometry(grid, n)
    c, base = geo.cells, geo.city_count
    links: list[tuple[int, int]] = []
    for p in range(n):
        for t in range(c):
            if t * n < (p + 1) * c and p * c < (t + 1) * n:
                # p counts west->east on N, north->south on E, east->west on S, south->north on W
                links.append((t, base + 1 + p))
                links.append((t * c + c - 1, base + n + 2 + p))
                links.append(((c - 1) * c + (c - 1 - t), base + 2 * n + 3 + p))
                links.append(((c - 1 - t) * c, base + 3 * n + 4 + p))
    return tuple(sorted(links))


@lru_cache(maxsize=16)
def geometry(grid: int, ring_side: int) -> Geometry:
    return Geometry(grid, ring_side)
