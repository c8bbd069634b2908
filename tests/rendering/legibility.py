"""Legibility at Discord's preview width: an image is shown about 550 px wide until opened, so
text drawn at ``s`` px in an image ``W`` px wide reads at ``s * 550 / W`` px. Text that matters
must read at 11 px or more there (fine print that repeats another cue is exempt, see
``rendering.common.font``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image

import rendering
from rendering.common import record_font_sizes
from tests.rendering.textboxes import DrawnText

PREVIEW_WIDTH = 550
SMALLEST = 11.0
MAX_BYTES = 1_000_000


def render_legibly(game_id: str, view: Mapping[str, Any]) -> list[Image.Image]:
    """Every image ``rendering.render_all`` sends for a view; fails if any text reads below
    11 px at preview width (measured against the widest image, the strictest case) or an image
    is 1 MB or more as PNG."""
    with record_font_sizes() as sizes:
        images = rendering.render_all(game_id, view)
    assert images and sizes
    widest = max(image.width for image in images)
    smallest = min(sizes) * PREVIEW_WIDTH / widest
    assert smallest >= SMALLEST, (
        f"{widest} px wide: text of {min(sizes)} px reads at {smallest:.1f} px in preview")
    for image in images:
        assert len(rendering.encode_png(image)) < MAX_BYTES
    return images


def assert_legible(draw: Callable[[], Image.Image]) -> Image.Image:
    """One image drawn by ``draw()``: the same check as ``render_legibly``."""
    with record_font_sizes() as sizes:
        image = draw()
    smallest = min(sizes) * PREVIEW_WIDTH / image.width
    assert smallest >= SMALLEST, (
        f"{image.width} px wide: text of {min(sizes)} px reads at {smallest:.1f} px in preview")
    assert len(rendering.encode_png(image)) < MAX_BYTES
    return image


def label_problems(texts: Sequence[DrawnText], width: int) -> list[str]:
    """What fails the 550 px rule in the texts drawn for one image ``width`` px wide (drawn
    at that scale, pasted whole or cut): a label under 11 px once the image is shown 550 px
    wide, or two labels whose boxes overlap on the picture they were drawn on."""
    scale = PREVIEW_WIDTH / width
    labels = [t for t in texts if t.text.strip()]
    found = [f"{t.text!r} reads at {t.size * scale:.1f} px"
             for t in labels if t.size * scale < SMALLEST]
    by_canvas: dict[int, list[DrawnText]] = {}
    for t in labels:
        by_canvas.setdefault(t.canvas, []).append(t)
    for group in by_canvas.values():
        group.sort(key=lambda t: t.box[0])
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if b.box[0] >= a.box[2]:
                    break  # sorted by left edge: no later box reaches back to ``a``
                if a.overlaps(b):
                    found.append(f"{a.text!r} at {tuple(round(v) for v in a.box)} overlaps "
                                 f"{b.text!r} at {tuple(round(v) for v in b.box)}")
    return found
