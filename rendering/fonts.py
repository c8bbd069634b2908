"""The fonts every image uses (DejaVu Sans, shipped with the package), and a record of the
sizes asked for during a render, which the legibility test reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

# Font sizes asked for during a render, when a test records them (see ``record_font_sizes``).
_FONT_LOG: ContextVar[list[int] | None] = ContextVar("font_log", default=None)
# The box the text drawn now must stay inside, when a renderer names one (see ``inside``).
_CONTAINER: ContextVar[tuple[float, float, float, float] | None] = ContextVar(
    "text_container", default=None)
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


@contextmanager
def inside(box: tuple[float, float, float, float]) -> Iterator[None]:
    """Text drawn inside the block belongs in ``box`` (a cell, a panel): the legibility test
    checks each text's measured box against it, not only against the image's edges."""
    token = _CONTAINER.set(box)
    try:
        yield
    finally:
        _CONTAINER.reset(token)


def current_container() -> tuple[float, float, float, float] | None:
    return _CONTAINER.get()


# Set while a renderer draws a picture that is never shown (to measure where things fall).
_UNSEEN: ContextVar[bool] = ContextVar("unseen", default=False)


@contextmanager
def unseen() -> Iterator[None]:
    """Text drawn inside the block is never shown: the legibility tests do not measure it."""
    token = _UNSEEN.set(True)
    try:
        yield
    finally:
        _UNSEEN.reset(token)


def drawing_unseen() -> bool:
    return _UNSEEN.get()
