"""The static layer of the board: tiles, springs, hills, laurels and field labels.

The layer depends only on the tiles laid (and their laurels), so it is cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, WHITE, centred_text, font
from rendering.palatinus import layout as L
from rules.palatinus.geometry import DIRS

FieldKey = tuple[str, tuple[int, int], bool, bool]
TileKey = tuple[str, tuple[int, int], int | None, tuple[FieldKey, ...]]


def tile_key(tile: Mapping[str, Any]) -> TileKey:
    fields = tuple(
        (str(f["name"]), (int(f["hex"][0]), int(f["hex"][1])), bool(f["spring"]), bool(f["arrow"]))
        for f in tile["fields"]
    )
    hill = (int(tile["hill"][0]), int(tile["hill"][1]))
    return (str(tile["letter"]), hill, tile.get("laurel"), fields)


def laurel_badge(draw: ImageDraw.ImageDraw, centre: L.Point, value: int, radius: float) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=L.LAUREL, outline=WHITE)
    # Two leaf marks either side, so the badge reads as a laurel and not a plain number.
    for side in (-1, 1):
        lx = x + side * (radius + 4)
        draw.ellipse((lx - 3, y - 7, lx + 3, y + 1), fill=L.LAUREL)
        draw.ellipse((lx - 3, y - 1, lx + 3, y + 7), fill=L.LAUREL)
    centred_text(draw, (x, y), str(value), font(int(radius * 1.2), bold=True), WHITE)


def arrow_mark(draw: ImageDraw.ImageDraw, field: L.Point, hill: L.Point, size: float) -> None:
    """A small triangle at the rim of the hill pointing at the arrow field (where counting
    starts); kept on the hill so it never covers a field label or piece."""
    fx, fy = field
    hx, hy = hill
    dx, dy = (fx - hx), (fy - hy)
    norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / norm, dy / norm
    base = size * 0.62
    k = size * 0.14
    tip = (hx + ux * (base + k * 1.6), hy + uy * (base + k * 1.6))
    back1 = (hx + ux * base - uy * k, hy + uy * base + ux * k)
    back2 = (hx + ux * base + uy * k, hy + uy * base - ux * k)
    draw.polygon([tip, back1, back2], fill=(255, 255, 255), outline=INK)


def draw_tile(
    draw: ImageDraw.ImageDraw,
    key: TileKey,
    origin: L.Point,
    size: float,
    labels: str = "names",
) -> None:
    """One flower. ``labels``: ``"names"`` (C4), ``"numbers"`` (4) or ``"none"``."""
    letter, hill, laurel, fields = key
    hill_xy = L.hex_centre(*hill, origin=origin, size=size)
    draw.polygon(L.hex_points(hill_xy, size), fill=L.HILL, outline=L.GRID)
    cells = {hill}
    for name, h, spring, _ in fields:
        cells.add(h)
        xy = L.hex_centre(*h, origin=origin, size=size)
        draw.polygon(L.hex_points(xy, size), fill=L.SPRING if spring else L.FIELD, outline=L.GRID)
        if spring:
            # Close to the rim, so the outline never crosses the field label.
            draw.polygon(L.hex_points(xy, size * 0.9), outline=L.SPRING_EDGE, width=3)
        if labels == "names":
            fill = L.SPRING if spring else L.FIELD
            centred_text(
                draw, (xy[0], xy[1] - size * 0.55), name, font(L.TEXT, bold=True), INK, stroke=fill
            )
        elif labels == "numbers":
            centred_text(draw, xy, name[1:], font(max(L.TEXT, int(size * 0.7)), bold=True), INK)
    for h in cells:
        xy = L.hex_centre(*h, origin=origin, size=size)
        for d, (dq, dr) in enumerate(DIRS):
            if (h[0] + dq, h[1] + dr) not in cells:
                a, b = L.edge(xy, size, d)
                draw.line([a, b], fill=L.TILE_EDGE, width=3 if size > 30 else 2)
    for _, h, _, arrow in fields:
        if arrow:
            arrow_mark(draw, L.hex_centre(*h, origin=origin, size=size), hill_xy, size)
    letter_font = font(max(int(size * 0.62), L.TEXT), bold=True)
    if laurel is None:
        centred_text(draw, hill_xy, letter, letter_font, WHITE, stroke=L.HILL_DARK)
        return
    centred_text(
        draw, (hill_xy[0], hill_xy[1] - size * 0.3), letter, letter_font, WHITE, stroke=L.HILL_DARK
    )
    laurel_badge(draw, (hill_xy[0], hill_xy[1] + size * 0.36), int(laurel), size * 0.3)


@lru_cache(maxsize=32)
def board_layer(tiles: tuple[TileKey, ...]) -> Image.Image:
    """The board without pieces (callers copy it before drawing on it)."""
    image = Image.new("RGB", (L.BOARD_W, L.HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    for key in tiles:
        draw_tile(draw, key, L.CENTRE, L.SIZE)
    return image


def preview_key(letter: str, springs: Sequence[int], arrow: int, rotation: int) -> TileKey:
    """The drawn tile turned ``rotation`` steps, centred on (0, 0), for the laying panel."""
    fields = tuple(
        (f"{letter}{i + 1}", DIRS[(i + rotation) % 6], i in springs, i == arrow) for i in range(6)
    )
    return (letter, (0, 0), None, fields)
