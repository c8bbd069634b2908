"""One player's city as a picture: tiles with name, type letter and colour, residences,
assistants, the free cells where a tile may go (with their coordinates) and, for a pending
activation, the lines each direction would reach."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (
    INK,
    MUTED,
    PAPER,
    WHITE,
    draw_marker,
    font,
    player_colour,
    player_name,
)
from rendering.minerva.icons import GLYPHS, badge, lettered_badge
from rendering.minerva.style import category_colour, tint, wrap
from rendering.pictograms import stamp

HEADER = 30
AXIS = 22
_DIR_STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}


@lru_cache(maxsize=1024)
def _cell(name: str, category: str, size: int, assistant: bool, seat: int) -> Image.Image:
    image = Image.new("RGB", (size, size), PAPER)
    draw = ImageDraw.Draw(image)
    colour = category_colour(category)
    draw.rounded_rectangle((1, 1, size - 2, size - 2), radius=5, fill=tint(colour, 0.6),
                           outline=colour, width=2)
    bsize = max(14, size * 3 // 10)
    if category == "residential":
        # The letter goes on the house: the cell's edges hold an activation's N, E, S, W.
        badge(draw, 4, 4, category, bsize)
        # A house outline, so residences read as such without colour.
        m = size // 2
        roof = [(m - size // 4, m + 2), (m, m - size // 6), (m + size // 4, m + 2)]
        draw.polygon(roof, outline=INK, fill=(225, 225, 225))
        draw.rectangle((m - size // 5, m + 2, m + size // 5, size - 8), outline=INK,
                       fill=(225, 225, 225))
        draw.text((m, m + 2 + (size - 10 - m) * 0.4), "R", font=font(max(9, size // 7), bold=True),
                  fill=INK, anchor="mm")
        if assistant:
            r = max(7, size // 7)
            cx, cy = size - r - 5, r + 5
            draw_marker(draw, (cx, cy), r, seat, width=1)
        return image
    lettered_badge(draw, 4, 4, category, bsize, max(9, bsize * 2 // 3))
    fsize = 11 if size >= 60 else 9
    y = bsize + 7
    lines = wrap(name, fsize, size - 8, bold=True,
                 max_lines=max(1, min(3, (size - 4 - y) // (fsize + 2))))
    for text in lines:
        draw.text((size / 2, y), text, font=font(fsize, bold=True), fill=INK, anchor="ma")
        y += fsize + 2
    # The type's picture again, large, in the room the name leaves: the city reads as
    # buildings at a glance.
    room = size - 6 - y
    glyph = GLYPHS.get(category)
    if glyph and room >= 14:
        px = min(room, size * 2 // 5)
        dark = (colour[0] * 3 // 5, colour[1] * 3 // 5, colour[2] * 3 // 5)
        stamp(draw, size / 2, y + room / 2 + 1, px, "bare", glyph, dark, dark)
    return image


BUILD = (170, 75, 0)
"""The outline of a cell where a tile the seat buys may go (from its legal actions)."""
ARROWS = {"n": "▲", "e": "▶", "s": "▼", "w": "◀"}


def reach(cells: Mapping[tuple[int, int], Mapping[str, Any]], origin: tuple[int, int]
          ) -> dict[str, int]:
    """How many tiles a residence built on ``origin`` would activate in each direction: the
    line runs to the first gap or residence (rules/minerva/city.py ``line``)."""
    out: dict[str, int] = {}
    for direction, (dx, dy) in _DIR_STEP.items():
        x, y, n = origin[0] + dx, origin[1] + dy, 0
        while (x, y) in cells and cells[(x, y)]["category"] != "residential":
            n, x, y = n + 1, x + dx, y + dy
        if n:
            out[direction] = n
    return out


def city_image(
    player: Mapping[str, Any], size: int, highlight: Mapping[str, Any] | None = None,
    score: str = "", build_cells: Sequence[Sequence[int]] = (), title: str | None = None,
    show_reach: bool = False,
) -> Image.Image:
    """The city of one seat; ``highlight`` is the view's pending entry when it is this seat's;
    ``build_cells`` are the cells where a bought tile may go (the seat's own view); ``title``
    replaces "<name>'s city"; ``show_reach`` marks on each free cell how many tiles a
    residence there would activate in each direction."""
    seat = int(player["seat"])
    cells = {(c["x"], c["y"]): c for c in player["city"]}
    free = {
        (x + dx, y + dy)
        for x, y in cells for dx, dy in _DIR_STEP.values()
        if (x + dx, y + dy) not in cells
    }
    xs = [x for x, _ in (*cells, *free)]
    ys = [y for _, y in (*cells, *free)]
    x0, y0 = min(xs), min(ys)
    cols, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    title = (title or f"{player_name(seat, f'Player {seat + 1}')}'s city") + (
        f"  —  {score}" if score else "")
    head = HEADER if size < 60 else HEADER + 10
    title_font = font(14 if size < 60 else 18, bold=True)
    width = max(AXIS + cols * size + 8, int(title_font.getlength(title)) + 50)
    keys = [*(_key(BUILD_KEY, width) if build_cells else ()),
            *(_key(REACH_KEY, width) if show_reach else ())]
    foot = 10 + 16 * len(keys) if keys else 0
    height = head + AXIS + rows * size + 8 + foot
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    colour = player_colour(seat)
    draw.rectangle((0, 0, width - 1, head - 4), fill=tint(colour, 0.5))
    draw_marker(draw, (18, (head - 4) / 2), 11, seat)
    draw.text((36, (head - 4) / 2), title, font=title_font, fill=INK, anchor="lm")

    def origin(cell: tuple[int, int]) -> tuple[int, int]:
        return AXIS + (cell[0] - x0) * size, head + AXIS + (cell[1] - y0) * size

    for i in range(cols):
        draw.text((AXIS + i * size + size / 2, head + AXIS / 2), str(x0 + i),
                  font=font(11), fill=MUTED, anchor="mm")
    for j in range(rows):
        draw.text((AXIS / 2, head + AXIS + j * size + size / 2), str(y0 + j),
                  font=font(11), fill=MUTED, anchor="mm")
    for cell in sorted(free):
        x, y = origin(cell)
        draw.rectangle((x + 3, y + 3, x + size - 4, y + size - 4), outline=(160, 155, 145))
        draw.text((x + size / 2, y + (size * 0.3 if show_reach else size / 2)),
                  f"{cell[0]},{cell[1]}",
                  font=font(11 if size >= 56 else 8, fine=size < 56), fill=MUTED, anchor="mm")
        if show_reach:
            _draw_reach(draw, reach(cells, cell), x, y, size)
    for cx, cy in build_cells:
        x, y = origin((cx, cy))
        draw.rectangle((x + 2, y + 2, x + size - 3, y + size - 3), outline=BUILD, width=4)
        draw.text((x + 12, y + 12), "+", font=font(16, bold=True), fill=BUILD, anchor="mm")
    for cell, info in cells.items():
        image.paste(
            _cell(info["name"], info["category"], size, bool(info["assistant"]), seat),
            origin(cell),
        )
    if highlight:
        _draw_highlight(draw, highlight, origin, size)
    for i, line in enumerate(reversed(keys)):
        colour = BUILD if line in _key(BUILD_KEY, width) else REACH
        draw.text((8, height - 14 - 16 * i), line, font=font(12), fill=colour, anchor="lm")
    return image


REACH_KEY = "▲2 on a free cell: a residence there activates 2 tiles upwards"
BUILD_KEY = "+ in an orange frame: a tile you buy may go there"


def _key(text: str, width: int) -> tuple[str, ...]:
    return wrap(text, 12, width - 16, max_lines=3)


def _draw_reach(draw: ImageDraw.ImageDraw, counts: Mapping[str, int], x: int, y: int,
                size: int) -> None:
    """Arrow and count at each edge of a free cell: the tiles a residence there activates."""
    marks = [f"{ARROWS[d]}{n}" for d, n in counts.items()]
    rows = [marks[i:i + 2] for i in range(0, len(marks), 2)]
    for i, row in enumerate(reversed(rows)):
        draw.text((x + size / 2, y + size - 13 - 15 * i), " ".join(row),
                  font=font(12, bold=True), fill=REACH, anchor="mm")


REACH = (0, 95, 140)
"""Arrows on free cells: what a residence there would activate (dark blue: 6:1 on paper)."""


def _draw_highlight(
    draw: ImageDraw.ImageDraw, pending: Mapping[str, Any], origin: Any, size: int
) -> None:
    at = pending.get("at")
    if at is None:
        return
    ax, ay = origin(tuple(at))
    draw.rectangle((ax, ay, ax + size - 1, ay + size - 1), outline=INK, width=3)
    lines: Mapping[str, Sequence[Sequence[int]]] = pending.get("lines") or {}
    for direction, cells in lines.items():
        dx, dy = _DIR_STEP[direction]
        # The direction letter on the residence's edge, then the reached tiles outlined.
        lx = ax + size / 2 + dx * (size / 2 - 9)
        ly = ay + size / 2 + dy * (size / 2 - 9)
        draw.ellipse((lx - 8, ly - 8, lx + 8, ly + 8), fill=INK)
        draw.text((lx, ly), direction.upper(), font=font(10, bold=True), fill=WHITE, anchor="mm")
        for cell in cells:
            x, y = origin(tuple(cell))
            draw.rectangle((x + 2, y + 2, x + size - 3, y + size - 3), outline=INK, width=3)
            draw.text((x + size - 6, y + size - 5), direction.upper(), font=font(10, bold=True),
                      fill=INK, anchor="rd")
