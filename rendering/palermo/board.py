"""The Palermo board: the city of tiles, the bypass ring, pieces, labels and move marks.

Positions in a view are in city-cell units (the city spans ``0..cells``, the ring one unit
outside it); ``layout`` maps them to pixels and places the pieces. The ring and the labels
depend only on the geometry and the phase, so they are drawn once and cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, WHITE, centred_text, font
from rendering.palermo.layout import (
    BAND,
    CELL,
    LABEL_BAND,
    MARGIN,
    Box,
    Frame,
    Rect,
    badge_box,
    chip_centre,
    crowded_start,
    place_tokens,
    start_rect,
)
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

# The board is the image's width (the panel goes under it): 676 px, so text of TEXT px reads at
# TEXT * 550 / 676 >= 11.3 px in Discord's preview.
TEXT = 14
CHIP_R = 12

RingKey = tuple[tuple[str, tuple[float, ...], bool], ...]


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@lru_cache(maxsize=16)
def _base(cells: int, grid: int, ring: RingKey, labels: str) -> Image.Image:
    """Paper, the ring with its corners, the empty city and the coordinates players type: tile
    spaces (A1) while building, cells (a1) and ring cells (r1) after."""
    f = Frame(cells)
    image = Image.new("RGB", (f.size, f.size), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle(f.rect((0, 0, cells, cells)), fill=EMPTY)
    number_font = font(TEXT)
    for name, rect, corner in ring:
        box = f.rect(rect)
        draw.rectangle(box, fill=CORNER if corner else RING, outline=GRID, width=1)
        cx, cy = _centre(box)
        if corner:  # a small diamond (under the name, when there is one) marks a corner
            d, dy = CELL * 0.12, box[1] + 31 if labels == "cells" else cy
            draw.polygon([(cx, dy - d), (cx + d, dy), (cx, dy + d), (cx - d, dy)], fill=WHITE)
        if labels == "cells":  # the name keeps the top band; pieces and hints go under it
            centred_text(draw, (cx, box[1] + LABEL_BAND / 2 + 1), name, number_font, INK)
    # Column letters above and row numbers on the left only: one set is enough to read a cell.
    mid_edge = MARGIN / 2
    if labels == "tiles":
        label_font = font(TEXT + 2, bold=True)
        for i in range(grid):
            mid = f.px(2 * i + 1)
            centred_text(draw, (mid, mid_edge), chr(ord("A") + i), label_font)
            centred_text(draw, (mid_edge, mid), str(i + 1), label_font)
    else:
        small = font(TEXT, bold=True)
        for i in range(cells):
            mid = f.px(i + 0.5)
            centred_text(draw, (mid, mid_edge), chr(ord("a") + i), small)
            centred_text(draw, (mid_edge, mid), str(i + 1), small)
    return image


def draw_board(view: Mapping[str, Any]) -> Image.Image:
    cells, grid = view["grid"]["cells"], view["grid"]["tiles"]
    ring: RingKey = tuple((r["name"], tuple(r["rect"]), r["corner"]) for r in view["ring"])
    labels = "tiles" if view["phase"] == "build" else "cells"
    image = _base(cells, grid, ring, labels).copy()
    draw = ImageDraw.Draw(image)
    f = Frame(cells)
    start = start_rect(view)
    reachable = view.get("reachable") or ()
    texts = {tuple(e["rect"]): _mark_text(e["moves"]) for e in reachable}
    small = font(TEXT, bold=True)
    occupied = {tuple(p["rect"]) for p in (*view["pawns"], *view["police"])
                if p.get("rect") is not None}
    badges = {rect: badge_box(f, rect, draw.textlength(text, font=small), start,
                              rect in occupied)
              for rect, text in texts.items()}
    for tile in view["tiles"]:
        _draw_tile(draw, f, tile)
    _draw_grid(draw, f, cells, grid)
    for rect, text in texts.items():
        _draw_mark(draw, f, rect, text, badges[rect])
    if start is not None:  # over the hint frames, which cross the tile's middle
        _start_words(draw, f.rect(start), badges, crowded_start(view))
    for tile in view["tiles"]:  # over the hint frames: a chip may reach into a marked cell
        _draw_door(draw, f, tile)
    for space in view.get("may_build") or ():
        _draw_buildable(draw, f, space)
    for token in place_tokens(view, f, badges, labels == "cells"):
        if token.kind == "stone":
            draw_police(draw, token.box, token.seat, token.frozen)
        else:
            cx, cy = token.centre
            draw_pawn(draw, cx, cy, token.radius, token.seat, token.home)
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
    n = int((x1 - x0) // step) + 1
    for k in range(n):
        dark = START_DARK if k % 2 == 0 else START_LIGHT
        light = START_LIGHT if k % 2 == 0 else START_DARK
        a, b = x0 + k * step, y0 + k * step
        draw.rectangle((a, y0, min(a + step, x1), y0 + 5), fill=dark)
        draw.rectangle((a, y1 - 5, min(a + step, x1), y1), fill=light)
        draw.rectangle((x0, b, x0 + 5, min(b + step, y1)), fill=dark)
        draw.rectangle((x1 - 5, b, x1, min(b + step, y1)), fill=light)


def _start_words(draw: ImageDraw.ImageDraw, tile: Box, badges: Mapping[Rect, Box],
                 crowded: bool) -> None:
    """START in the tile's top band and FINISH in its bottom band; a word a hint badge or a
    second row of pawns would cover is left out (the chequer still tells the tile)."""
    x0, y0, x1, y1 = tile
    mx, bold = (x0 + x1) / 2, font(TEXT, bold=True)
    words = [("START", y0 + 5 + BAND / 2)] + ([] if crowded else [("FINISH", y1 - 5 - BAND / 2)])
    for word, y in words:
        box = draw.textbbox((mx, y), word, font=bold, anchor="mm")
        if not any(_overlaps(box, badge) for badge in badges.values()):
            centred_text(draw, (mx, y), word, bold, INK)


def _overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


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
    chip_x, chip_y = chip_centre(f, door, wall)
    draw_chip(draw, chip_x, chip_y, CHIP_R, tile.get("owner"), bool(tile.get("chip")))


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


def _draw_mark(draw: ImageDraw.ImageDraw, f: Frame, rect: Rect, text: str, badge: Box) -> None:
    """A cell the pawn can end on: a yellow frame and a badge with the costs."""
    x0, y0, x1, y1 = f.rect(rect)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=MARK, width=3)
    draw.rectangle(badge, fill=MARK, outline=INK, width=1)  # stays in sight in greyscale
    centred_text(draw, _centre(badge), text, font(TEXT, bold=True), INK)
