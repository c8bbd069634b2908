"""Drawing the sheets larger: ``ScaledDraw`` multiplies every coordinate and line width of the
fixed layout by one factor (fonts follow through ``rendering.common.scaled``), so a part of a
sheet can be cut out at a size whose text reads in Discord's preview."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw


class ScaledDraw:
    """The ``ImageDraw`` calls the sheets use, with coordinates in layout units."""

    def __init__(self, draw: ImageDraw.ImageDraw, factor: float, record: bool = False) -> None:
        self.draw = draw
        self.k = factor
        # With ``record``, the pixel box of every text drawn (so a cut-out can leave out
        # the words it would cut in two).
        self.texts: list[tuple[float, float, float, float]] | None = [] if record else None

    def _xy(self, xy: Sequence[Any]) -> list[float]:
        flat: list[float] = []
        for item in xy:
            if isinstance(item, tuple | list):
                flat.extend(float(v) * self.k for v in item)
            else:
                flat.append(float(item) * self.k)
        return flat

    def _kw(self, kw: dict[str, Any]) -> dict[str, Any]:
        for key in ("width", "radius"):
            if kw.get(key):
                kw[key] = max(1, round(kw[key] * self.k))
        return kw

    def rectangle(self, xy: Sequence[Any], **kw: Any) -> None:
        self.draw.rectangle(self._xy(xy), **self._kw(kw))

    def rounded_rectangle(self, xy: Sequence[Any], **kw: Any) -> None:
        self.draw.rounded_rectangle(self._xy(xy), **self._kw(kw))

    def ellipse(self, xy: Sequence[Any], **kw: Any) -> None:
        self.draw.ellipse(self._xy(xy), **self._kw(kw))

    def line(self, xy: Sequence[Any], **kw: Any) -> None:
        self.draw.line(self._xy(xy), **self._kw(kw))

    def polygon(self, xy: Sequence[Any], **kw: Any) -> None:
        flat = self._xy(xy)
        self.draw.polygon(list(zip(flat[::2], flat[1::2], strict=True)), **self._kw(kw))

    def regular_polygon(self, circle: Sequence[float], sides: int, **kw: Any) -> None:
        x, y, r = circle
        self.draw.regular_polygon((x * self.k, y * self.k, r * self.k), sides, **self._kw(kw))

    def text(self, xy: Sequence[float], text: str, **kw: Any) -> None:
        if kw.get("stroke_width"):
            kw["stroke_width"] = max(1, round(kw["stroke_width"] * self.k))
        self.draw.text((xy[0] * self.k, xy[1] * self.k), text, **kw)
        if self.texts is not None:
            self.texts.append(self.draw.textbbox(
                (xy[0] * self.k, xy[1] * self.k), text, font=kw.get("font"),
                anchor=kw.get("anchor"), stroke_width=kw.get("stroke_width", 0)))


Canvas = ImageDraw.ImageDraw | ScaledDraw
"""What the sheet-drawing functions draw on."""
