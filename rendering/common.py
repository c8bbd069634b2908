"""Shared drawing pieces: fonts, the colour-blind-safe palette, text helpers, PNG encoding."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from PIL import Image, ImageDraw, ImageFont

# Player colours, shapes and markers live in ``rendering.palette`` (shared by every game);
# they are re-exported here for the renderers that import them from this module.
from rendering.fonts import FONT_DIR, font, font_scale, record_font_sizes, scaled
from rendering.palette import (
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    PLAYER_MARKS,
    PLAYER_SHAPES,
    draw_marker,
    player_colour,
)

__all__ = [
    "BLACK",
    "FONT_DIR",
    "INK",
    "MUTED",
    "NAME_LIMIT",
    "PAPER",
    "PLAYER_COLOURS",
    "PLAYER_COLOUR_NAMES",
    "PLAYER_MARKS",
    "PLAYER_SHAPES",
    "WHITE",
    "centred_text",
    "draw_marker",
    "encode_png",
    "font",
    "font_scale",
    "name_seats",
    "player_colour",
    "player_name",
    "record_font_sizes",
    "scaled",
    "seat_names",
]

INK = (33, 33, 33)
PAPER = (250, 246, 236)
MUTED = (100, 100, 100)  # 4.5:1 or more on every light background used
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


# The players' names for the render in progress (set by ``rendering.render`` from the view's
# optional "names"); renderers ask ``player_name`` rather than threading names everywhere.
_NAMES: ContextVar[tuple[str, ...]] = ContextVar("seat_names", default=())
NAME_LIMIT = 14


@contextmanager
def seat_names(names: Sequence[str]) -> Iterator[None]:
    token = _NAMES.set(tuple(str(n) for n in names))
    try:
        yield
    finally:
        _NAMES.reset(token)


def player_name(seat: int, default: str, limit: int = NAME_LIMIT) -> str:
    """The seat's player's name when the front end gave names (cut to ``limit`` characters),
    else ``default``."""
    names = _NAMES.get()
    if 0 <= seat < len(names) and names[seat]:
        name = names[seat]
        return name if len(name) <= limit else name[: limit - 1] + "…"
    return default


def name_seats(text: str) -> str:
    """Replace the engine's seat placeholders ``{p0}``, ``{p1}``, ... with players' names."""
    return re.sub(r"\{p(\d+)\}", lambda m: player_name(int(m[1]), f"Player {int(m[1]) + 1}"),
                  text)


def centred_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int] = INK,
    stroke: tuple[int, int, int] | None = None,
) -> None:
    """Text centred on a point (anchor "mm"), with an optional 1-pixel outline for contrast."""
    draw.text(
        xy,
        text,
        font=fnt,
        fill=fill,
        anchor="mm",
        stroke_width=1 if stroke else 0,
        stroke_fill=stroke,
    )


def quantized(image: Image.Image) -> Image.Image:
    """The image on a palette of at most 256 colours, without dithering. The pictures are flat
    colours and anti-aliased text, so the palette is lossless to the eye (``bench/
    bench_render.py`` prints the mean difference) and the PNG is much smaller."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    # The palette is chosen from every other pixel of every other row (flat colours repeat;
    # a quarter of the pixels finds them in a quarter of the time), then every pixel takes
    # its nearest colour in it.
    sample = rgb.resize((max(1, rgb.width // 2), max(1, rgb.height // 2)),
                        Image.Resampling.NEAREST)
    palette = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                              dither=Image.Dither.NONE)
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def encode_png(image: Image.Image) -> bytes:
    """A palette PNG (see ``quantized``) at compression level 1: smaller and faster to encode
    than an RGB PNG (``bench/bench_render.py`` prints both)."""
    buffer = io.BytesIO()
    quantized(image).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
