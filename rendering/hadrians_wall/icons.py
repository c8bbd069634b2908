"""The printed icons of the Hadrian's Wall sheets as pictograms.

Each icon keeps the printed colour (rules spec 1) and a shape per family (workers are
circles, the resource a square, attributes diamonds, citizens hexagons, the cohort a shield),
so colour is never the only cue; the glyph inside says what it is. Where the printed picture
is hard to draw a dozen pixels wide (valour's eagle), a plainer sign stands in for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rendering.common import font
from rendering.hadrians_wall.scaled import Canvas, ScaledDraw
from rendering.pictograms import Colour, Painter, Pen, stamp, sword

Rect = tuple[int, int, int, int]


def _helmet(p: Pen) -> None:
    """A crested helmet seen from the side."""
    p.pieslice((0.08, 0.26, 0.92, 1.0), 180, 360)  # dome
    p.poly([(0.86, 0.6), (1.0, 0.92), (0.68, 0.8), (0.68, 0.6)])  # neck guard
    p.poly([(0.08, 0.6), (0.4, 0.6), (0.36, 1.0), (0.16, 0.94)])  # cheek guard
    p.arc((0.0, 0.02, 1.0, 0.9), 195, 345, 0.2)  # crest


def _shield(p: Pen) -> None:
    p.poly([(0.08, 0.0), (0.92, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)])
    p.poly([(0.22, 0.12), (0.78, 0.12), (0.78, 0.46), (0.5, 0.8), (0.22, 0.46)], on=False)
    p.rect(0.44, 0.1, 0.56, 0.84)
    p.rect(0.2, 0.3, 0.8, 0.42)


def _hammer(p: Pen) -> None:
    h = p.turned(-35)
    h.rect(0.44, 0.3, 0.58, 1.08)  # handle
    h.poly([(0.12, 0.04), (0.8, 0.04), (0.96, 0.16), (0.8, 0.32), (0.12, 0.32)])  # head


def _pick(p: Pen) -> None:
    h = p.turned(30)
    h.rect(0.44, 0.16, 0.56, 1.06)
    h.poly([(-0.04, 0.4), (0.3, 0.12), (0.5, 0.06), (0.7, 0.12), (1.04, 0.4),
            (0.66, 0.24), (0.5, 0.22), (0.34, 0.24)])


def _jug(p: Pen) -> None:
    p.ellipse(0.14, 0.36, 0.8, 1.0)
    p.rect(0.34, 0.12, 0.6, 0.46)
    p.rect(0.24, 0.02, 0.7, 0.16)
    p.ellipse(0.52, 0.22, 0.98, 0.74, width=0.1)


def _person(p: Pen) -> None:
    p.ellipse(0.32, 0.0, 0.68, 0.38)
    p.pieslice((0.06, 0.44, 0.94, 1.5), 180, 360)


def _bricks(p: Pen) -> None:
    """Mortar lines of a brick wall: the printed grey block, laid as bricks."""
    for v in (0.33, 0.67):
        p.rect(-0.3, v - 0.05, 1.3, v + 0.05)
    for u, v0, v1 in ((0.5, -0.3, 0.33), (0.25, 0.33, 0.67), (0.75, 0.33, 0.67),
                      (0.5, 0.67, 1.3)):
        p.rect(u - 0.05, v0, u + 0.05, v1)


def _star(p: Pen) -> None:
    p.star(0.5, 0.54, 0.56)


def _flame(p: Pen) -> None:
    p.poly([(0.5, -0.04), (0.66, 0.22), (0.8, 0.12), (0.92, 0.5), (0.86, 0.8), (0.5, 1.0),
            (0.14, 0.8), (0.08, 0.5), (0.22, 0.22), (0.34, 0.38)])
    p.poly([(0.5, 0.4), (0.66, 0.7), (0.5, 0.88), (0.34, 0.7)], on=False)


def _crossed_spears(p: Pen) -> None:
    for angle in (40, -40):
        s = p.turned(angle)
        s.rect(0.45, 0.2, 0.55, 1.08)
        s.poly([(0.5, -0.08), (0.66, 0.24), (0.34, 0.24)])


def _coins(p: Pen) -> None:
    for i in range(4):
        v = 0.78 - i * 0.25
        p.rounded(0.04 + 0.06 * (i % 2), v, 0.9 + 0.06 * (i % 2), v + 0.2, 0.1)


def _mask(p: Pen) -> None:
    p.pieslice((0.04, -0.5, 0.96, 1.0), 0, 180)
    p.rect(0.04, 0.0, 0.96, 0.26)
    p.ellipse(0.2, 0.16, 0.42, 0.36, on=False)
    p.ellipse(0.58, 0.16, 0.8, 0.36, on=False)
    p.pieslice((0.28, 0.36, 0.72, 0.8), 0, 180, on=False)


def _hooded(p: Pen) -> None:
    p.poly([(0.5, -0.04), (0.8, 0.2), (0.86, 0.56), (1.04, 1.04), (-0.04, 1.04), (0.14, 0.56),
            (0.2, 0.2)])
    p.ellipse(0.34, 0.26, 0.66, 0.64, on=False)


def _scales(p: Pen) -> None:
    p.rect(0.45, 0.06, 0.55, 0.94)
    p.rect(0.24, 0.88, 0.76, 1.0)
    p.rect(0.02, 0.1, 0.98, 0.18)
    for x in (0.16, 0.84):
        p.line([(x, 0.14), (x - 0.14, 0.58)], 0.06)
        p.line([(x, 0.14), (x + 0.14, 0.58)], 0.06)
        p.pieslice((x - 0.18, 0.4, x + 0.18, 0.76), 0, 180)


def _ring(p: Pen) -> None:
    p.ellipse(0.12, 0.3, 0.88, 1.02, width=0.16)
    p.poly([(0.28, 0.14), (0.4, 0.0), (0.6, 0.0), (0.72, 0.14), (0.6, 0.36), (0.4, 0.36)])


def _cross(p: Pen) -> None:
    p.line([(0.08, 0.08), (0.92, 0.92)], 0.2)
    p.line([(0.92, 0.08), (0.08, 0.92)], 0.2)


def _thumb_up(p: Pen) -> None:
    p.rect(0.0, 0.44, 0.24, 1.0)  # cuff
    p.ellipse(0.3, 0.4, 1.0, 1.0)  # fist
    p.rect(0.3, 0.44, 0.7, 1.0)
    p.poly([(0.36, 0.5), (0.44, 0.0), (0.66, 0.04), (0.62, 0.5)])  # thumb


def _sword_up(p: Pen) -> None:
    p.poly([(0.5, -0.02), (0.62, 0.14), (0.62, 0.66), (0.38, 0.66), (0.38, 0.14)])
    p.rect(0.16, 0.64, 0.84, 0.76)
    p.rect(0.43, 0.76, 0.57, 1.0)


WHITE: Colour = (255, 255, 255)
DARK: Colour = (20, 20, 20)

ICON_STYLE: dict[str, tuple[str, Colour, Colour, str, Painter]] = {
    # icon: (word for the key, printed colour, glyph colour, shape, glyph)
    "soldier": ("soldier", (20, 20, 20), WHITE, "circle", _helmet),
    "builder": ("builder", (0, 128, 128), WHITE, "circle", _hammer),
    "servant": ("servant", (120, 60, 160), WHITE, "circle", _jug),
    "civilian": ("civilian", (235, 190, 30), DARK, "circle", _person),
    "resource": ("resource", (140, 140, 140), WHITE, "square", _bricks),
    "renown": ("renown", (240, 200, 60), DARK, "diamond", _star),
    "piety": ("piety", (150, 90, 190), WHITE, "diamond", _flame),
    "valour": ("valour", (30, 30, 30), WHITE, "diamond", sword),
    "discipline": ("discipline", (0, 140, 150), WHITE, "diamond", _shield),
    "cohort": ("cohort box", (200, 40, 40), WHITE, "shield", _crossed_spears),
    "production": ("production", (170, 100, 40), WHITE, "square", _pick),
    "trader": ("trader", (40, 100, 200), WHITE, "hex", _coins),
    "performer": ("performer", (230, 110, 170), DARK, "hex", _mask),
    "priest": ("priest", (130, 130, 130), WHITE, "hex", _hooded),
    "apparitor": ("apparitor", (40, 150, 70), WHITE, "hex", _scales),
    "patrician": ("patrician", (190, 40, 40), WHITE, "hex", _ring),
    "favour_any": ("favour", (200, 30, 30), WHITE, "square", _cross),
    "remove_disdain": ("−1 Disdain", (240, 200, 60), DARK, "circle", _thumb_up),
    "sword": ("sword", (90, 90, 90), WHITE, "square", _sword_up),
}
GOOD_ORDER = ("soldier", "builder", "servant", "civilian", "resource")
KEY_ORDER = (*GOOD_ORDER, "renown", "piety", "valour", "discipline", "cohort", "production",
             "trader", "performer", "priest", "apparitor", "patrician", "favour_any",
             "remove_disdain", "sword")


# Icons drawn inside ``recording()``, with their x: a sheet part's key lists those it shows.
_SEEN: ContextVar[list[tuple[str, float]] | None] = ContextVar("icons_seen", default=None)


@contextmanager
def recording() -> Iterator[list[tuple[str, float]]]:
    seen: list[tuple[str, float]] = []
    token = _SEEN.set(seen)
    try:
        yield seen
    finally:
        _SEEN.reset(token)


def icon(draw: Canvas, name: str, cx: float, cy: float, size: int = 20) -> None:
    """A printed icon: its glyph on its coloured shape, ``size`` layout units across."""
    _word, back, front, shape, glyph = ICON_STYLE[name]
    seen = _SEEN.get()
    if seen is not None:
        seen.append((name, cx))
    raw, k = (draw.draw, draw.k) if isinstance(draw, ScaledDraw) else (draw, 1.0)
    # Diamonds stand on a corner, so they get a little more room to hold the same glyph.
    grow = 1.2 if shape == "diamond" else 1.0
    stamp(raw, cx * k, cy * k, round(size * k * grow), shape, glyph, back, front)


def icons_in(draw: Canvas, names: tuple[str, ...] | list[str], rect: Rect,
             size: int = 0) -> None:
    """Icons spread across a box."""
    if not names:
        return
    x0, y0, x1, y1 = rect
    n = len(names)
    if n == 2 and not size and x1 - x0 < 40:
        # Two icons in a small square box: corner to corner, each half again as large as
        # side by side would allow (their round or pointed corners leave room).
        size = int((x1 - x0) * 0.56)
        icon(draw, names[0], x0 + size / 2 + 1, y0 + size / 2 + 1, size)
        icon(draw, names[1], x1 - size / 2 - 1, y1 - size / 2 - 1, size)
        return
    size = size or max(10, min(int(y1 - y0) - 8, int((x1 - x0 - 4) / n) - 2))
    step = (x1 - x0) / n
    for i, name in enumerate(names):
        icon(draw, name, x0 + step * (i + 0.5), (y0 + y1) / 2, size)


def _entry(draw_scale: float, name: str, size: int, text: int) -> float:
    return size + 6 + font(text).getlength(ICON_STYLE[name][0]) / draw_scale + 18


def key_rows(names: tuple[str, ...], size: int, text: int, width: float) -> int:
    """How many rows ``key_row`` takes for ``names`` in ``width``."""
    rows, x = 1, 0.0
    for name in names:
        w = _entry(1.0, name, size, text)
        if x + w > width and x > 0:
            rows, x = rows + 1, 0.0
        x += w
    return rows if names else 0


def key_row(draw: Canvas, names: tuple[str, ...], x: float, y: float, size: int,
            text: int, colour: Colour, right: float) -> float:
    """Icons with their words from (x, y) (the row's middle), wrapping before ``right``
    (rows ``size + 10`` apart); returns the middle of the last row."""
    start = x
    k = draw.k if isinstance(draw, ScaledDraw) else 1.0
    for name in names:
        width = _entry(k, name, size, text)
        if x + width > right and x > start:
            x, y = start, y + size + 10
        icon(draw, name, x + size / 2, y, size)
        draw.text((x + size + 6, y), ICON_STYLE[name][0], font=font(text), fill=colour,
                  anchor="lm")
        x += width
    return y
