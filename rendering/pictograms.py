"""Small pictograms drawn with Pillow primitives, for the icons of every game.

A pictogram is a background shape and a glyph, each painted as a grey-level mask four times
larger than wanted and reduced, so that icons a dozen pixels wide keep smooth edges (Pillow's
primitives draw without anti-aliasing). Masks are cached by painter and size; stamping one is
a paste through the mask, cheap enough for every render.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

Colour = tuple[int, int, int]
Point = tuple[float, float]
SUPER = 4


class Pen:
    """Draws on a mask in unit coordinates (0..1 across ``box``), optionally turned by
    ``angle`` degrees about the box centre; ``on=False`` erases (cuts holes)."""

    def __init__(self, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                 angle: float = 0.0) -> None:
        self.draw = draw
        self.x0, self.y0 = box[0], box[1]
        self.w, self.h = box[2] - box[0], box[3] - box[1]
        self.cos, self.sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def turned(self, angle: float) -> Pen:
        pen = Pen(self.draw, (self.x0, self.y0, self.x0 + self.w, self.y0 + self.h), angle)
        return pen

    def at(self, u: float, v: float) -> Point:
        du, dv = u - 0.5, v - 0.5
        u, v = 0.5 + du * self.cos - dv * self.sin, 0.5 + du * self.sin + dv * self.cos
        return self.x0 + u * self.w, self.y0 + v * self.h

    def poly(self, points: Sequence[Point], on: bool = True) -> None:
        self.draw.polygon([self.at(u, v) for u, v in points], fill=255 if on else 0)

    def rect(self, u0: float, v0: float, u1: float, v1: float, on: bool = True) -> None:
        self.poly([(u0, v0), (u1, v0), (u1, v1), (u0, v1)], on)

    def line(self, points: Sequence[Point], width: float, on: bool = True) -> None:
        self.draw.line([self.at(u, v) for u, v in points], fill=255 if on else 0,
                       width=max(1, round(width * self.w)), joint="curve")

    def _box(self, u0: float, v0: float, u1: float, v1: float) -> tuple[float, ...]:
        # Ellipses are not turned: only round or upright parts use them.
        return (self.x0 + u0 * self.w, self.y0 + v0 * self.h,
                self.x0 + u1 * self.w, self.y0 + v1 * self.h)

    def ellipse(self, u0: float, v0: float, u1: float, v1: float, on: bool = True,
                width: float = 0.0) -> None:
        if width:
            self.draw.ellipse(self._box(u0, v0, u1, v1), outline=255 if on else 0,
                              width=max(1, round(width * self.w)))
        else:
            self.draw.ellipse(self._box(u0, v0, u1, v1), fill=255 if on else 0)

    def arc(self, box: tuple[float, float, float, float], start: float, end: float,
            width: float) -> None:
        self.draw.arc(self._box(*box), start, end, fill=255, width=max(1, round(width * self.w)))

    def rounded(self, u0: float, v0: float, u1: float, v1: float, radius: float,
                on: bool = True) -> None:
        self.draw.rounded_rectangle(self._box(u0, v0, u1, v1), radius=radius * self.w,
                                    fill=255 if on else 0)

    def pieslice(self, box: tuple[float, float, float, float], start: float, end: float,
                 on: bool = True) -> None:
        self.draw.pieslice(self._box(*box), start, end, fill=255 if on else 0)

    def star(self, cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45,
             on: bool = True) -> None:
        corners = []
        for i in range(points * 2):
            a = math.pi * i / points - math.pi / 2
            rr = r if i % 2 == 0 else r * inner
            corners.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        self.poly(corners, on)


Painter = Callable[[Pen], None]
SHAPE_INSET: dict[str, tuple[float, float, float, float]] = {
    # shape: the part of the icon's box its glyph is painted in (unit coordinates)
    "circle": (0.2, 0.2, 0.8, 0.8),
    "square": (0.16, 0.16, 0.84, 0.84),
    "diamond": (0.27, 0.27, 0.73, 0.73),
    "hex": (0.2, 0.2, 0.8, 0.8),
    "shield": (0.2, 0.12, 0.8, 0.7),
    "bare": (0.12, 0.12, 0.88, 0.88),  # no background: the caller draws its own
}


def sword(p: Pen) -> None:
    """A sword, point up and to the right: Hadrian's Wall's valour, Minerva's military."""
    s = p.turned(45)
    s.poly([(0.5, -0.09), (0.61, 0.08), (0.61, 0.66), (0.39, 0.66), (0.39, 0.08)])
    s.rect(0.18, 0.64, 0.82, 0.765)
    s.rect(0.435, 0.765, 0.565, 1.0)


def _shape(pen: Pen, shape: str) -> None:
    if shape == "circle":
        pen.ellipse(0, 0, 1, 1)
    elif shape == "square":
        pen.rect(0.04, 0.04, 0.96, 0.96)
    elif shape == "diamond":
        pen.poly([(0.5, -0.04), (1.04, 0.5), (0.5, 1.04), (-0.04, 0.5)])
    elif shape == "shield":
        pen.poly([(0.02, 0.0), (0.98, 0.0), (0.98, 0.55), (0.5, 1.0), (0.02, 0.55)])
    elif shape == "hex":
        pen.poly([(0.5 + 0.53 * math.cos(math.pi / 3 * i), 0.5 + 0.53 * math.sin(math.pi / 3 * i))
                  for i in range(6)])


@lru_cache(maxsize=512)
def masks(shape: str, glyph: Painter, px: int) -> tuple[Image.Image, Image.Image]:
    """The background and glyph masks of a ``px``-pixel icon (the glyph clipped to the
    shape, so it never spills onto the paper)."""
    n = px * SUPER
    back = Image.new("L", (n, n), 0)
    _shape(Pen(ImageDraw.Draw(back), (0, 0, n, n)), shape)
    front = Image.new("L", (n, n), 0)
    u0, v0, u1, v1 = SHAPE_INSET[shape]
    glyph(Pen(ImageDraw.Draw(front), (u0 * n, v0 * n, u1 * n, v1 * n)))
    if shape != "bare":
        front = ImageChops.multiply(front, back)
    return back.reduce(SUPER), front.reduce(SUPER)


def stamp(draw: ImageDraw.ImageDraw, cx: float, cy: float, px: int, shape: str,
          glyph: Painter, back: Colour, front: Colour) -> None:
    """One pictogram centred on (cx, cy), ``px`` pixels square."""
    px = max(6, px)
    back_mask, front_mask = masks(shape, glyph, px)
    xy = (round(cx - px / 2), round(cy - px / 2))
    if shape != "bare":
        draw.bitmap(xy, back_mask, fill=back)
    draw.bitmap(xy, front_mask, fill=front)
