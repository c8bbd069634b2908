"""Player colours and marker shapes, shared by every game's images.

Each seat has a colour *and* a shape, so a piece is told apart even where colours merge. The
colours were chosen so that every pair stays distinct under simulated protanopia, deuteranopia
and tritanopia (``tests/rendering/test_palette.py`` measures it): they differ in lightness as
well as hue, which is what survives every colour-vision deficiency. Blue and sky differ mostly in
lightness, so they also get the most different shapes (circle and diamond).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

from rendering.fonts import font

Colour = tuple[int, int, int]
Point = tuple[float, float]

PLAYER_COLOURS: tuple[Colour, ...] = (
    (0, 114, 178),  # blue
    (230, 159, 0),  # orange
    (45, 45, 45),  # black
    (80, 200, 240),  # sky
    (100, 60, 0),  # brown
    (160, 160, 160),  # grey
)
PLAYER_COLOUR_NAMES = ("blue", "orange", "black", "sky", "brown", "grey")
PLAYER_SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star")
# Seat numbers drawn inside markers, a third cue after colour and shape.
PLAYER_MARKS = ("1", "2", "3", "4", "5", "6")

INK: Colour = (33, 33, 33)
WHITE: Colour = (255, 255, 255)


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_shape(seat: int) -> str:
    return PLAYER_SHAPES[seat % len(PLAYER_SHAPES)]


def ink_on(colour: Sequence[int]) -> Colour:
    """Black or white lettering, whichever reads better on ``colour``."""
    r, g, b = colour[0], colour[1], colour[2]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


def _regular(centre: Point, r: float, sides: int, start_deg: float) -> list[Point]:
    x, y = centre
    return [
        (x + r * math.cos(math.radians(start_deg + 360 * i / sides)),
         y + r * math.sin(math.radians(start_deg + 360 * i / sides)))
        for i in range(sides)
    ]


def shape_points(shape: str, centre: Point, r: float) -> list[Point]:
    """The outline of a marker of radius ``r`` (a circle returns no points)."""
    x, y = centre
    if shape == "square":
        k = r * 0.86
        return [(x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k)]
    if shape == "triangle":
        # Pointing up, pushed down a little so its visual centre sits on ``centre``.
        return _regular((x, y + r * 0.18), r * 1.15, 3, -90)
    if shape == "diamond":
        return _regular(centre, r * 1.12, 4, -90)
    if shape == "hexagon":
        return _regular(centre, r * 1.02, 6, 0)
    if shape == "star":
        outer = _regular(centre, r * 1.2, 5, -90)
        inner = _regular(centre, r * 0.6, 5, -54)
        return [p for pair in zip(outer, inner, strict=True) for p in pair]
    return []


def draw_marker(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    r: float,
    seat: int,
    *,
    label: str | None = None,
    outline: Colour = INK,
    width: int = 2,
    fill: Colour | None = None,
    min_text: int = 8,
) -> None:
    """The seat's marker: its shape in its colour, with ``label`` (default: the seat number)
    in the middle when the marker is big enough to read it, at ``min_text`` px or more."""
    colour = fill or player_colour(seat)
    shape = player_shape(seat)
    x, y = centre
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=outline, width=width)
    else:
        draw.polygon(shape_points(shape, centre, r), fill=colour, outline=outline, width=width)
    text = PLAYER_MARKS[seat % len(PLAYER_MARKS)] if label is None else label
    if text and r >= 6:
        size = max(min_text, int(r * (0.95 if shape in ("triangle", "star") else 1.2)))
        ty = y + (r * 0.22 if shape == "triangle" else 0)
        draw.text((x, ty), text, font=font(size, bold=True, fine=True), fill=ink_on(colour),
                  anchor="mm")
