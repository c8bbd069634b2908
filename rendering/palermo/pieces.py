"""Palermo's pieces and colours, drawn the same way on the board and in the side panel.

Every piece carries its seat's colour, marker shape and number; a pawn stands in a white collar
(gold once home), a police stone is a square badge, a chip a small marker on a door.
"""

from __future__ import annotations

from PIL import ImageDraw

from rendering.common import (
    INK,
    PLAYER_COLOUR_NAMES,
    WHITE,
    centred_text,
    draw_marker,
    font,
    player_colour,
    player_name,
)

Colour = tuple[int, int, int]

ROOF = (178, 84, 52)
ROOF_EDGE = (110, 48, 28)
STREET = (222, 219, 212)
RING = (196, 196, 200)
CORNER = (150, 150, 160)
EMPTY = (240, 233, 214)
GRID = (90, 90, 90)
DOOR = (74, 44, 22)
START_LIGHT = (250, 250, 250)
START_DARK = (40, 40, 40)
MARK = (255, 214, 0)
HOME = (212, 175, 55)
# The smallest text on a Palermo image (676 px wide): 14 px reads at 11.4 px at 550 px wide.
MIN_TEXT = 14


def seat_label(seat: int) -> str:
    return str(seat + 1)


def seat_name(seat: int) -> str:
    colour = PLAYER_COLOUR_NAMES[seat % len(PLAYER_COLOUR_NAMES)]
    return f"{player_name(seat, f'Player {seat + 1}')} ({colour})"


def text_on(colour: Colour) -> Colour:
    """Black or white lettering, whichever reads better on ``colour``."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


def _pawn_outline(cx: float, cy: float, r: float, grow: float = 0.0
                  ) -> tuple[tuple[float, float, float, float], list[tuple[float, float]]]:
    """A standing pawn about 3r tall centred on (cx, cy): its head and its flared body."""
    cy += 0.33 * r  # the figure's middle, head included, on (cx, cy)
    k, g = 0.62 * r + grow, grow
    hy = cy - 1.55 * r
    head = (cx - k, hy - k, cx + k, hy + k)
    top, foot = cy - 0.85 * r - g, cy + 1.5 * r + g
    body = [(cx - 0.45 * r - g, top), (cx + 0.45 * r + g, top), (cx + 1.15 * r + g, foot),
            (cx - 1.15 * r - g, foot)]
    return head, body


def draw_pawn(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int, home: bool = False
) -> None:
    """A pawn: a standing figure (head and flared body) in the seat's colour with its number,
    on a white edge (gold once home for good); twice a chip's height, and unlike a chip's
    flat marker even at preview size."""
    edge = HOME if home else WHITE
    head, body = _pawn_outline(cx, cy, r, 2.5)
    draw.ellipse(head, fill=edge)
    draw.polygon(body, fill=edge)
    colour = player_colour(seat)
    head, body = _pawn_outline(cx, cy, r)
    draw.polygon(body, fill=colour, outline=INK, width=1)
    draw.ellipse(head, fill=colour, outline=INK, width=1)
    if r >= 5:
        draw.text((cx, cy + 0.8 * r), seat_label(seat),
                  font=font(max(MIN_TEXT, round(r * 1.3)), bold=True), fill=text_on(colour),
                  anchor="mm")


def draw_police(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    seat: int,
    frozen: bool = False,
    with_number: bool = True,
) -> None:
    """A square badge with "P" and the seat number in the board's text size; a badge too
    small for both keeps the number (its square shape says police stone)."""
    x0, y0, x1, y1 = box
    colour = player_colour(seat)
    draw.rounded_rectangle(box, radius=4, fill=colour, outline=INK, width=2)
    text = ("P" if with_number and x1 - x0 >= 28 else "") + seat_label(seat)
    centred_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), text, font(MIN_TEXT, bold=True),
                 fill=text_on(colour))
    if frozen:  # a black bar across: the stone may not move on its owner's next turn
        draw.line((x0 + 2, y1 - 2, x1 - 2, y0 + 2), fill=INK, width=3)


def draw_chip(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int | None, present: bool
) -> None:
    if seat is None:
        return
    if present:
        draw_marker(draw, (cx, cy), r, seat, width=1, min_text=MIN_TEXT)
    else:  # collected: the white circle of the business shows again
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=1)
