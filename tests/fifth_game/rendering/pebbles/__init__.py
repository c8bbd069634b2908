"""Pebbles' image: one line per seat with what it played, and the viewer's hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import PAPER, name_seats
from rendering.fonts import font

__all__ = ["alt_text", "render"]

LINE = 28


def _lines(view: Mapping[str, Any]) -> list[str]:
    lines = [name_seats(f"{{p{seat}}}: " + (" ".join(str(c) for c in played) or "-"))
             for seat, played in enumerate(view["played"])]
    if "hand" in view:
        lines.append("Your hand: " + " ".join(str(c) for c in view["hand"]))
    return lines


def render(view: Mapping[str, Any]) -> Image.Image:
    lines = _lines(view)
    image = Image.new("RGB", (360, LINE * (len(lines) + 1)), PAPER)
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(lines):
        draw.text((12, 12 + LINE * n), line, fill="black", font=font(18))
    return image


def alt_text(view: Mapping[str, Any]) -> str:
    return "Pebbles. " + "; ".join(_lines(view)) + "."
