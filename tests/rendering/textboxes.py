"""Every text a render draws, measured: its box (Pillow's ``textbbox``), the image it is drawn
on, the colours of its letters and of what lies under it. ``record_texts`` wraps
``ImageDraw.text`` for the duration of a block, so the renderers need no hook of their own;
a renderer that places text inside a smaller container says so with
``rendering.fonts.inside``, and the box is checked against that container too."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageColor, ImageDraw

from rendering.fonts import current_container, drawing_unseen

Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]


@dataclass(frozen=True)
class DrawnText:
    text: str
    box: Box
    bounds: Box  # the image drawn on, or the container the renderer named
    fill: Colour
    under: Colour  # the commonest colour under the text before it was drawn
    stroke: Colour | None
    size: int
    canvas: int = 0  # which image it was drawn on (texts overlap only on the same one)

    @property
    def inside(self) -> bool:
        x0, y0, x1, y1 = self.box
        bx0, by0, bx1, by1 = self.bounds
        # Half a pixel of anti-aliasing either side is no clipping.
        return x0 >= bx0 - 1 and y0 >= by0 - 1 and x1 <= bx1 + 1 and y1 <= by1 + 1

    def overlaps(self, other: DrawnText, slack: float = 1.0) -> bool:
        """Whether the two boxes share more than ``slack`` pixels each way on one image
        (the anti-aliased edge of a glyph is no overlap)."""
        if self.canvas != other.canvas:
            return False
        w = min(self.box[2], other.box[2]) - max(self.box[0], other.box[0])
        h = min(self.box[3], other.box[3]) - max(self.box[1], other.box[1])
        return w > slack and h > slack

    @property
    def contrast(self) -> float:
        ink = self.stroke if self.stroke is not None else self.fill
        return contrast(ink, self.under if self.stroke is None else self.fill)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: Colour) -> float:
    r, g, b = (_linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _rgb(value: Any, image: Image.Image) -> Colour:
    if isinstance(value, tuple):
        return (int(value[0]), int(value[1]), int(value[2]))
    if isinstance(value, str):
        rgb = ImageColor.getrgb(value)
        return (rgb[0], rgb[1], rgb[2])
    return (0, 0, 0) if value is None else (int(value),) * 3  # type: ignore[return-value]


def _under(image: Image.Image, box: Box) -> Colour:
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
    if x1 <= x0 or y1 <= y0:
        return (255, 255, 255)
    colours = image.crop((x0, y0, x1, y1)).convert("RGB").getcolors(1 << 16) or []
    return max(colours)[1] if colours else (255, 255, 255)


def forget_drawn_parts() -> None:
    """Empties every cache of a renderer module (board layers, cards, glyphs), so that a
    render recorded next draws, and so measures, every text it shows."""
    for name, module in list(sys.modules.items()):
        if name == "rendering" or name.startswith("rendering."):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and getattr(value, "__module__", None) == name:
                    clear()


@contextmanager
def record_texts(fresh: bool = False) -> Iterator[list[DrawnText]]:
    """Every text drawn inside the block; ``fresh``: with the renderers' caches emptied
    first (see ``forget_drawn_parts``)."""
    if fresh:
        forget_drawn_parts()
    log: list[DrawnText] = []
    drawn_on: list[Image.Image] = []  # held so that no image's id is reused while recording
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None,
             anchor: Any = None, *args: Any, **kw: Any) -> None:
        if drawing_unseen():
            original(self, xy, text, fill, font, anchor, *args, **kw)
            return
        image: Image.Image = self._image  # type: ignore[attr-defined]
        stroke_width = kw.get("stroke_width", 0) or 0
        box = self.textbbox(xy, str(text), font=font, anchor=anchor,
                            stroke_width=stroke_width)
        container = current_container() or (0, 0, image.width, image.height)
        stroke = kw.get("stroke_fill") if stroke_width else None
        drawn_on.append(image)
        log.append(DrawnText(
            str(text), tuple(float(v) for v in box), container,  # type: ignore[arg-type]
            _rgb(fill, image), _under(image, box),
            _rgb(stroke, image) if stroke is not None else None,
            int(getattr(font, "size", 0)), id(image),
        ))
        original(self, xy, text, fill, font, anchor, *args, **kw)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield log
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
