"""Shared drawing pieces: fonts, the colour-blind-safe palette, text helpers, PNG encoding."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# Player colours, shapes and markers live in ``rendering.palette`` (shared by every game);
# they are re-exported here for the renderers that import them from this module.
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
    "name_seats",
    "player_colour",
    "player_name",
    "scaled",
    "seat_names",
]

FONT_DIR = Path(__file__).with_name("fonts")
INK = (33, 33, 33)
PAPER = (250, 246, 236)
MUTED = (120, 120, 120)
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


# Font sizes asked for during a render, when a test records them (see ``record_font_sizes``).
_FONT_LOG: ContextVar[list[int] | None] = ContextVar("font_log", default=None)
# A drawing made at a larger scale (see ``scaled``) asks for fonts at its own scale.
_SCALE: ContextVar[float] = ContextVar("font_scale", default=1.0)


@contextmanager
def scaled(factor: float) -> Iterator[None]:
    """Inside the block, ``font(size)`` is ``size * factor`` pixels: a picture laid out in
    fixed coordinates is drawn larger (with ``ScaledDraw``) so parts of it can be cut out that
    read at preview size."""
    token = _SCALE.set(factor)
    try:
        yield
    finally:
        _SCALE.reset(token)


def font_scale() -> float:
    return _SCALE.get()


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def font(size: int, bold: bool = False, fine: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans shipped with the package, so images look the same on every machine.

    ``fine`` marks fine print that repeats another cue (a seat number inside a marker that
    already has the seat's shape and colour); the legibility check does not count it."""
    size = round(size * _SCALE.get())
    log = _FONT_LOG.get()
    if log is not None and not fine:
        log.append(size)
    return _font(size, bold)


@contextmanager
def record_font_sizes() -> Iterator[list[int]]:
    """Collect the size of every font asked for (but fine print) inside the block."""
    log: list[int] = []
    token = _FONT_LOG.set(log)
    try:
        yield log
    finally:
        _FONT_LOG.reset(token)


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
    return rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                        dither=Image.Dither.NONE)


def encode_png(image: Image.Image) -> bytes:
    """A palette PNG (see ``quantized``) at compression level 1: smaller and faster to encode
    than an RGB PNG (``bench/bench_render.py`` prints both)."""
    buffer = io.BytesIO()
    quantized(image).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
