"""One player's city as a picture: tiles with name, type letter and colour, residences,
assistants, the free cells where a tile may go (coordinates on the axes) and, for a pending
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
from rendering.minerva.icons import GLYPHS, badge
from rendering.minerva.style import category_colour, tint, wrap
from rendering.pictograms import stamp
from rendering.scoretable import fit

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
        # One large house says "residence" without colour; the edges stay free for an
        # activation's arrows.
        px = size * 11 // 20
        stamp(draw, size / 2, size / 2 + 2, px, "bare", GLYPHS[category], (90, 90, 90), INK)
        if assistant:
            r = max(7, size // 7)
            cx, cy = size - r - 5, r + 5
            draw_marker(draw, (cx, cy), r, seat, width=1)
        return image
    # The badge's picture and colour give the type; the name says the rest (no letter to key).
    bsize = max(12, size * 3 // 10)
    badge(draw, 4, 4, category, bsize)
    bold = size >= 64
    y = bsize + 6
    lines = _name_lines(name, size - 6, bold, max(1, min(3, (size - 3 - y) // 13)))
    for text in lines:
        draw.text((size / 2, y), text, font=font(11, bold=bold), fill=INK, anchor="ma")
        y += 13
    # The type's picture again, large, in the room the name leaves: the city reads as
    # buildings at a glance.
    room = size - 6 - y
    glyph = GLYPHS.get(category)
    if glyph and room >= 14:
        px = min(room, size * 2 // 5)
        dark = (colour[0] * 3 // 5, colour[1] * 3 // 5, colour[2] * 3 // 5)
        stamp(draw, size / 2, y + room / 2 + 1, px, "bare", glyph, dark, dark)
    return image


def _name_lines(name: str, width: int, bold: bool, most: int) -> tuple[str, ...]:
    """The name wrapped at words; a word wider than the cell is broken with a hyphen rather
    than cut, so that small cells still spell every name out."""
    fnt = font(11, bold=bold)
    words: list[str] = []
    for word in name.split():
        while fnt.getlength(word) > width:
            cut = len(word) - 1
            while cut > 1 and fnt.getlength(word[:cut] + "-") > width:
                cut -= 1
            cut = max(2, min(cut, len(word) - 3))  # never a lone letter on the next line
            words.append(word[:cut] + "-")
            word = word[cut:]
        words.append(word)
    lines: list[str] = []
    for word in words:
        trial = f"{lines[-1]} {word}" if lines and not lines[-1].endswith("-") else word
        if lines and (lines[-1].endswith("-") or fnt.getlength(trial) > width):
            lines.append(word)
        elif lines:
            lines[-1] = trial
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[:most - 1], fit(" ".join(lines[most - 1:]), fnt, width)]
    return tuple(lines)


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
    show_reach: bool = False, show_free: bool = True, min_width: int = 0,
) -> Image.Image:
    """The city of one seat; ``highlight`` is the view's pending entry when it is this seat's;
    ``build_cells`` are the cells where a bought tile may go (the seat's own view); ``title``
    replaces "<name>'s city"; ``show_reach`` marks on each free cell how many tiles a
    residence there would activate in each direction; without ``show_free`` only the tiles are
    drawn (the free ring around them costs two rows and two columns)."""
    seat = int(player["seat"])
    cells = {(c["x"], c["y"]): c for c in player["city"]}
    free = {
        (x + dx, y + dy)
        for x, y in cells for dx, dy in _DIR_STEP.values()
        if (x + dx, y + dy) not in cells
    } if show_free or build_cells or not cells else set()
    xs = [x for x, _ in (*cells, *free)] or [0]
    ys = [y for _, y in (*cells, *free)] or [0]
    x0, y0 = min(xs), min(ys)
    cols, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    head = HEADER + 10
    title_font = font(18, bold=True)
    width = max(AXIS + cols * size + 8, min_width)
    title = fit((title or f"{player_name(seat, f'Player {seat + 1}')}'s city") + (
        f"  —  {score}" if score else ""), title_font, width - 44)
    keys = [*(_key(BUILD_KEY, width) if build_cells else ()),
            *(_key(REACH_KEY, width) if show_reach else ()),
            *(_key(LINES_KEY, width) if highlight and highlight.get("lines") else ())]
    foot = 10 + 16 * len(keys) if keys else 0
    height = head + AXIS + rows * size + 8 + foot
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    colour = player_colour(seat)
    draw.rectangle((0, 0, width - 1, head - 4), fill=tint(colour, 0.5))
    draw_marker(draw, (18, (head - 4) / 2), 11, seat, label="")  # the title says whose
    draw.text((36, (head - 4) / 2), title, font=title_font, fill=INK, anchor="lm")

    left = (width - (AXIS + cols * size + 8)) // 2  # a narrow city sits in the middle

    def origin(cell: tuple[int, int]) -> tuple[int, int]:
        return left + AXIS + (cell[0] - x0) * size, head + AXIS + (cell[1] - y0) * size

    # Coordinates only on the axes: a free cell is named by its column and row.
    for i in range(cols):
        draw.text((left + AXIS + i * size + size / 2, head + AXIS / 2), str(x0 + i),
                  font=font(11), fill=MUTED, anchor="mm")
    for j in range(rows):
        draw.text((left + AXIS / 2, head + AXIS + j * size + size / 2), str(y0 + j),
                  font=font(11), fill=MUTED, anchor="mm")
    for cell in sorted(free):
        x, y = origin(cell)
        draw.rectangle((x + 3, y + 3, x + size - 4, y + size - 4), outline=(160, 155, 145))
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
    build_lines = _key(BUILD_KEY, width)
    for i, line in enumerate(reversed(keys)):
        colour = BUILD if line in build_lines else (INK if line in _key(LINES_KEY, width)
                                                    else REACH)
        draw.text((8, height - 14 - 16 * i), line, font=font(12), fill=colour, anchor="lm")
    return image


REACH_KEY = "▲2 on a free cell: a residence there activates 2 tiles upwards"
BUILD_KEY = "+ in an orange frame: a tile you buy may go there"
LINES_KEY = ("Thick frame: the residence deciding; ● arrow: a direction it may activate; "
             "arrow in a tile's corner: that direction activates it")


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
        draw.ellipse((lx - 9, ly - 9, lx + 9, ly + 9), fill=INK)
        draw.text((lx, ly), ARROWS[direction], font=font(11, bold=True), fill=WHITE,
                  anchor="mm")
        for cell in cells:
            x, y = origin(tuple(cell))
            draw.rectangle((x + 2, y + 2, x + size - 3, y + size - 3), outline=INK, width=3)
            draw.text((x + size - 6, y + size - 5), ARROWS[direction],
                      font=font(12, bold=True), fill=INK, anchor="rd")
