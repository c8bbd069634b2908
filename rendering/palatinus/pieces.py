"""Inhabitants: shape and letter give the type (circle M merchant, square F farmer, shield S
soldier, wolf head for a hidden wolf piece); colour and the seat's marker (shape and number)
give the owner."""

from __future__ import annotations

from PIL import ImageDraw

from rendering.common import (
    BLACK,
    INK,
    PLAYER_MARKS,
    WHITE,
    centred_text,
    draw_marker,
    font,
    player_colour,
)
from rendering.palatinus import layout as L
from rendering.palette import player_shape

NEUTRAL = (200, 200, 200)
MARK_TEXT = 16  # 11.6 px at preview width (550 of 760)
MARK_R = 13  # the smallest marker whose triangle still holds a MARK_TEXT digit
BADGE_R = 10

WOLF_HEAD = (
    (-0.78, -0.95), (-0.38, -0.5), (0.38, -0.5), (0.78, -0.95), (0.9, -0.05),
    (0.55, 0.45), (0.0, 0.98), (-0.55, 0.45), (-0.9, -0.05),
)  # fmt: skip


def _shape(kind: str | None, centre: L.Point, r: float) -> list[L.Point]:
    x, y = centre
    if kind == "F":
        k = r * 0.88
        return [(x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k)]
    if kind == "S":
        return [
            (x - r, y - r * 0.9), (x + r, y - r * 0.9), (x + r, y + r * 0.1),
            (x, y + r * 1.05), (x - r, y + r * 0.1),
        ]  # fmt: skip
    if kind is None:
        return [(x + dx * r * 1.05, y + dy * r * 1.05) for dx, dy in WOLF_HEAD]
    return []  # merchant: drawn as a circle


def badge(
    draw: ImageDraw.ImageDraw,
    centre: L.Point,
    text: str,
    r: float,
    fill: tuple[int, int, int] = WHITE,
    ink: tuple[int, int, int] = BLACK,
) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=BLACK)
    centred_text(draw, (x, y), text, font(max(int(r * 1.45), 16), bold=True), ink)


def marker_centre(centre: L.Point, r: float) -> L.Point:
    """Where a piece's owner marker goes: right of it, level with its top half, which keeps it
    clear of the field label above."""
    return (centre[0] + r + 10, centre[1] - r * 0.55)


def seat_marker(draw: ImageDraw.ImageDraw, centre: L.Point, r: float, seat: int) -> None:
    """The seat's marker (shape and colour) on a white halo, with its number in full-size type
    (outlined, so it reads where it spills over the halo) rather than the marker's fine print."""
    x, y = centre
    draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=WHITE)
    draw_marker(draw, centre, r, seat, label="", width=2, outline=INK)
    colour = player_colour(seat)
    ink = L.ink_on(colour)
    ty = y + (r * 0.22 if player_shape(seat) == "triangle" else 0)
    centred_text(draw, (x, ty), PLAYER_MARKS[seat % len(PLAYER_MARKS)], font(MARK_TEXT, bold=True),
                 ink, stroke=WHITE if ink == (0, 0, 0) else BLACK)


def draw_piece(
    draw: ImageDraw.ImageDraw,
    centre: L.Point,
    r: float,
    owner: int,
    kind: str | None,
    wolf: bool = False,
    neutral: bool = False,
    faded: bool = False,
    *,
    mark: bool = True,
    letter: bool = True,
    crossed: bool = False,
) -> None:
    """``kind`` is ``"M"``, ``"F"``, ``"S"`` or ``None`` (a wolf piece whose type is hidden).
    ``mark``: the owner's marker at the right (left out where a row already names the seat).
    ``crossed``: captured, crossed out under the marker and badges, which stay readable."""
    colour = NEUTRAL if neutral else player_colour(owner)
    outline = player_colour(owner) if neutral else BLACK
    if faded:
        colour = L.blend(colour, WHITE, 0.6)
        outline = L.blend(outline, WHITE, 0.4)
    width = 4 if neutral else 2
    x, y = centre
    if kind == "M":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=outline, width=width)
    else:
        draw.polygon(_shape(kind, centre, r), fill=colour, outline=outline, width=width)
    ink = L.ink_on(colour)
    if kind is None:
        # Eyes and nose, so the hidden piece reads as a wolf.
        for ex in (-0.35, 0.35):
            draw.ellipse(
                (x + ex * r - 3, y - 0.1 * r - 3, x + ex * r + 3, y - 0.1 * r + 3), fill=ink
            )
        draw.ellipse((x - 4, y + 0.45 * r - 3, x + 4, y + 0.45 * r + 3), fill=ink)
    elif letter:
        centred_text(
            draw,
            (x, y - (r * 0.12 if kind == "S" else 0)),
            kind,
            font(max(int(r * 1.05), MARK_TEXT), bold=True),
            ink,
        )
    if crossed:
        draw_cross(draw, centre, r * 0.95)
    if mark:
        seat_marker(draw, marker_centre(centre, r), MARK_R, owner)
    if wolf and kind is not None:
        # The owner's own wolf piece (or a revealed one): a dark "w" badge at the lower left.
        badge(draw, (x - r * 0.95, y + r * 0.6), "w", BADGE_R, fill=INK, ink=WHITE)
    if neutral:
        badge(draw, (x - r * 0.95, y - r * 0.8), "n", BADGE_R, fill=NEUTRAL)


def mark_last(draw: ImageDraw.ImageDraw, centre: L.Point, r: float) -> None:
    """The piece placed last: a thick double ring around it."""
    x, y = centre
    k = r * 1.3
    draw.ellipse((x - k - 3, y - k - 3, x + k + 3, y + k + 3), outline=WHITE, width=3)
    draw.ellipse((x - k, y - k, x + k, y + k), outline=L.LAST, width=4)


def draw_cross(draw: ImageDraw.ImageDraw, centre: L.Point, r: float) -> None:
    """A captured piece: a bold dark X on a white halo, over a piece drawn faded, so it reads in
    greyscale and in any colour vision (colour alone would not)."""
    x, y = centre
    for sx in (-1, 1):
        line = [(x - r, y - sx * r), (x + r, y + sx * r)]
        draw.line(line, fill=WHITE, width=11)
    for sx in (-1, 1):
        line = [(x - r, y - sx * r), (x + r, y + sx * r)]
        draw.line(line, fill=INK, width=6)
