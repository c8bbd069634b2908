"""The Palermo board: the city of tiles, the bypass ring, pieces, labels and move marks.

Positions in a view are in city-cell units (the city spans ``0..cells``, the ring one unit
outside it); ``Frame`` maps them to pixels. The ring and the labels depend only on the geometry
and the phase, so they are drawn once and cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, WHITE, centred_text, font
from rendering.palermo.pieces import (
    CORNER,
    DOOR,
    EMPTY,
    GRID,
    MARK,
    RING,
    ROOF,
    ROOF_EDGE,
    START_DARK,
    START_LIGHT,
    STREET,
    draw_chip,
    draw_pawn,
    draw_police,
)
from rules.palermo.views import cheapest_moves

CELL = 44
MARGIN = 26
# The board is the image's width (the panel goes under it): 668 px, so text of TEXT px reads at
# TEXT * 550 / 668 >= 11.5 px in Discord's preview.
TEXT = 14

RingKey = tuple[tuple[str, tuple[float, ...], bool], ...]


@dataclass(frozen=True)
class Frame:
    cells: int

    @property
    def size(self) -> int:
        return 2 * MARGIN + (self.cells + 2) * CELL

    def px(self, u: float) -> float:
        return MARGIN + (u + 1) * CELL

    def rect(self, r: Sequence[float]) -> tuple[float, float, float, float]:
        return (self.px(r[0]), self.px(r[1]), self.px(r[2]), self.px(r[3]))

    def cell(self, x: int, y: int) -> tuple[float, float, float, float]:
        return self.rect((x, y, x + 1, y + 1))


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@lru_cache(maxsize=16)
def _base(cells: int, grid: int, ring: RingKey, phase_labels: str) -> Image.Image:
    """Paper, the ring with its corners, the empty city and the row/column labels."""
    f = Frame(cells)
    image = Image.new("RGB", (f.size, f.size), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle(f.rect((0, 0, cells, cells)), fill=EMPTY)
    number_font = font(TEXT)
    for name, rect, corner in ring:
        box = f.rect(rect)
        draw.rectangle(box, fill=CORNER if corner else RING, outline=GRID, width=1)
        cx, cy = _centre(box)
        if corner:  # a small diamond above the name marks a corner
            d = CELL * 0.12
            draw.polygon([(cx, cy - 16 - d), (cx + d, cy - 16), (cx, cy - 16 + d),
                          (cx - d, cy - 16)], fill=WHITE)
        centred_text(draw, (cx, cy + (5 if corner else 0)), name, number_font, INK)
    label_font = font(TEXT + 2, bold=True)
    lo, hi = MARGIN / 2, f.size - MARGIN / 2
    if phase_labels == "tiles":
        for i in range(grid):
            mid = f.px(2 * i + 1)
            for pos in ((mid, lo), (mid, hi)):
                centred_text(draw, pos, chr(ord("A") + i), label_font)
            for pos in ((lo, mid), (hi, mid)):
                centred_text(draw, pos, str(i + 1), label_font)
    else:
        small = font(TEXT, bold=True)
        for i in range(cells):
            mid = f.px(i + 0.5)
            for pos in ((mid, lo), (mid, hi)):
                centred_text(draw, pos, chr(ord("a") + i), small)
            for pos in ((lo, mid), (hi, mid)):
                centred_text(draw, pos, str(i + 1), small)
    return image


def draw_board(view: Mapping[str, Any]) -> Image.Image:
    cells, grid = view["grid"]["cells"], view["grid"]["tiles"]
    ring: RingKey = tuple((r["name"], tuple(r["rect"]), r["corner"]) for r in view["ring"])
    labels = "tiles" if view["phase"] == "build" else "cells"
    image = _base(cells, grid, ring, labels).copy()
    draw = ImageDraw.Draw(image)
    f = Frame(cells)
    for tile in view["tiles"]:
        _draw_tile(draw, f, tile)
    _draw_grid(draw, f, cells, grid)
    for tile in view["tiles"]:
        _draw_door(draw, f, tile)
    if view.get("reachable"):
        _draw_marks(draw, f, view["reachable"])
    for space in view.get("may_build") or ():
        _draw_buildable(draw, f, space)
    _draw_pieces(draw, f, view)
    return image


def _draw_tile(draw: ImageDraw.ImageDraw, f: Frame, tile: Mapping[str, Any]) -> None:
    i, j = tile["i"], tile["j"]
    roofs = {tuple(c) for c in tile["roof"]}
    for dx in (0, 1):
        for dy in (0, 1):
            x, y = 2 * i + dx, 2 * j + dy
            box = f.cell(x, y)
            if (x, y) in roofs:
                draw.rectangle(box, fill=ROOF)
                # A ridge line gives roofs a texture, not only a colour.
                draw.line((box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6), fill=ROOF_EDGE,
                          width=2)
            else:
                draw.rectangle(box, fill=STREET, outline=(200, 196, 188))
    if tile["kind"] == "SF":
        _draw_start(draw, f, i, j)
    if tile.get("last"):
        x0, y0, x1, y1 = f.rect((2 * i, 2 * j, 2 * i + 2, 2 * j + 2))
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=MARK, width=4)


def _draw_start(draw: ImageDraw.ImageDraw, f: Frame, i: int, j: int) -> None:
    """A chequered frame round the Start/Finish tile."""
    x0, y0, x1, y1 = f.rect((2 * i, 2 * j, 2 * i + 2, 2 * j + 2))
    draw.rectangle((x0, y0, x1, y1), fill=START_LIGHT)
    step = 8
    n = int((x1 - x0) // step)
    for k in range(n):
        dark = START_DARK if k % 2 == 0 else START_LIGHT
        light = START_LIGHT if k % 2 == 0 else START_DARK
        a = x0 + k * step
        draw.rectangle((a, y0, a + step, y0 + 5), fill=dark)
        draw.rectangle((a, y1 - 5, a + step, y1), fill=light)
        b = y0 + k * step
        draw.rectangle((x0, b, x0 + 5, b + step), fill=dark)
        draw.rectangle((x1 - 5, b, x1, b + step), fill=light)
    mx = (x0 + x1) / 2
    centred_text(draw, (mx, y0 + 18), "START", font(TEXT, bold=True), INK)
    centred_text(draw, (mx, y1 - 17), "FINISH", font(TEXT, bold=True), INK)


def _draw_grid(draw: ImageDraw.ImageDraw, f: Frame, cells: int, grid: int) -> None:
    for k in range(grid + 1):
        p = f.px(2 * k)
        draw.line((p, f.px(0), p, f.px(cells)), fill=GRID, width=2)
        draw.line((f.px(0), p, f.px(cells), p), fill=GRID, width=2)


def _draw_door(draw: ImageDraw.ImageDraw, f: Frame, tile: Mapping[str, Any]) -> None:
    door, wall = tile.get("door"), tile.get("door_roof")
    if door is None or wall is None:
        return
    dx, dy = door[0] - wall[0], door[1] - wall[1]
    rx0, ry0, rx1, ry1 = f.cell(wall[0], wall[1])
    cx, cy = (rx0 + rx1) / 2, (ry0 + ry1) / 2
    ex, ey = cx + dx * CELL / 2, cy + dy * CELL / 2  # middle of the wall with the door
    half, depth = 9, 6
    if dx:
        draw.rectangle((ex - depth if dx > 0 else ex, ey - half, ex if dx > 0 else ex + depth,
                        ey + half), fill=DOOR)
    else:
        draw.rectangle((ex - half, ey - depth if dy > 0 else ey, ex + half,
                        ey if dy > 0 else ey + depth), fill=DOOR)
    # The chip sits on the door's white circle, mostly on the roof so that a pawn or a police
    # stone in the door cell leaves it in sight.
    chip_x, chip_y = ex - dx * 4, ey - dy * 4
    draw_chip(draw, chip_x, chip_y, 10, tile.get("owner"), bool(tile.get("chip")))


BUILDABLE = (0, 130, 70)  # green: unlike the yellow frame of the house built last
CORNER_CELL = {"NW": (0, 0), "NE": (1, 0), "SW": (0, 1), "SE": (1, 1)}


def _draw_buildable(draw: ImageDraw.ImageDraw, f: Frame, space: Mapping[str, Any]) -> None:
    """A space the builder may build on: a thick outline, and a door mark in each corner the
    house's door may take there."""
    i, j = int(space["i"]), int(space["j"])
    x0, y0, _, _ = f.cell(2 * i, 2 * j)
    _, _, x1, y1 = f.cell(2 * i + 1, 2 * j + 1)
    draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=BUILDABLE, width=5)
    for corner in space["doors"]:
        dx, dy = CORNER_CELL.get(corner, (0, 0))
        cx0, cy0, cx1, cy1 = f.cell(2 * i + dx, 2 * j + dy)
        cx, cy = (cx0 + cx1) / 2, (cy0 + cy1) / 2
        draw.rounded_rectangle((cx - 9, cy - 12, cx + 9, cy + 12), radius=4, fill=DOOR,
                               outline=WHITE, width=2)
        draw.ellipse((cx + 2, cy - 2, cx + 6, cy + 2), fill=WHITE)  # the door knob


def _mark_text(moves: Sequence[Mapping[str, Any]]) -> str:
    prefix = {"exact": "", "business": "B", "home": "H", "blocked": "!"}
    groups: dict[str, list[str]] = {}
    for m in cheapest_moves(moves):  # the same ending for more points is never better
        groups.setdefault(prefix[m["end"]], []).append(str(m["cost"]))
    return " ".join(p + "/".join(costs) for p, costs in groups.items())


def _draw_marks(
    draw: ImageDraw.ImageDraw, f: Frame, reachable: Sequence[Mapping[str, Any]]
) -> None:
    small = font(TEXT, bold=True)
    for entry in reachable:
        x0, y0, x1, y1 = f.rect(entry["rect"])
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=MARK, width=3)
        text = _mark_text(entry["moves"])
        w = draw.textlength(text, font=small)
        tx = (x0 + x1) / 2 - w / 2
        draw.rectangle((tx - 2, y1 - 18, tx + w + 2, y1 - 1), fill=MARK)
        draw.text((tx, y1 - 17), text, font=small, fill=INK)


def _draw_pieces(draw: ImageDraw.ImageDraw, f: Frame, view: Mapping[str, Any]) -> None:
    police_at: dict[tuple[float, ...], Mapping[str, Any]] = {}
    for stone in view["police"]:
        if stone["rect"] is not None:
            police_at[tuple(stone["rect"])] = stone
    pawns_at: dict[tuple[float, ...], list[Mapping[str, Any]]] = {}
    start = _start_box(view, f)
    inside = _start_cells(view)
    # Pawns waiting on Start/Finish or home there share one tidy row layout.
    waiting = [p for p in view["pawns"]
               if p["on_start"] or (p["rect"] is not None and tuple(p["rect"]) in inside)]
    if start is not None:
        # Pawns on Start/Finish stand in one row between its two labels (standing pawns are
        # about 3.7 radii tall: a second row would cover the labels).
        x0, y0, x1, y1 = start
        many = len(waiting) > 3
        for k, pawn in enumerate(waiting):
            cx = (x0 + x1) / 2 + (k - (len(waiting) - 1) / 2) * (17 if many else 25)
            draw_pawn(draw, cx, (y0 + y1) / 2, 5 if many else 7, pawn["seat"], pawn["home"])
    for pawn in view["pawns"]:
        if pawn["rect"] is not None and pawn not in waiting:
            pawns_at.setdefault(tuple(pawn["rect"]), []).append(pawn)
    for rect, stone in police_at.items():
        x0, y0, x1, y1 = f.rect(rect)
        covered = rect in pawns_at
        draw_police(draw, (x0 + 5, y0 + 5, x1 - 5, y1 - 5), stone["seat"], stone["frozen"],
                    with_number=not covered)
    for rect, pawns in pawns_at.items():
        x0, y0, x1, y1 = f.rect(rect)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if len(pawns) == 1:
            offset = 4 if rect in police_at else 0
            draw_pawn(draw, cx + offset, cy + offset, 11, pawns[0]["seat"], pawns[0]["home"])
            continue
        # Up to four pawns side by side in the cell's quarters, never overlapping.
        spots = ((-1, -1), (1, 1), (1, -1), (-1, 1), (0, 0))
        for pawn, (sx, sy) in zip(pawns, spots, strict=False):
            draw_pawn(draw, cx + sx * 11, cy + sy * 11, 7, pawn["seat"], pawn["home"])


def _start_box(view: Mapping[str, Any], f: Frame) -> tuple[float, float, float, float] | None:
    for tile in view["tiles"]:
        if tile["kind"] == "SF":
            i, j = tile["i"], tile["j"]
            return f.rect((2 * i, 2 * j, 2 * i + 2, 2 * j + 2))
    return None



def _start_cells(view: Mapping[str, Any]) -> set[tuple[float, ...]]:
    for tile in view["tiles"]:
        if tile["kind"] == "SF":
            i, j = tile["i"], tile["j"]
            return {(float(2 * i + dx), float(2 * j + dy), float(2 * i + dx + 1),
                     float(2 * j + dy + 1)) for dy in (0, 1) for dx in (0, 1)}
    return set()
