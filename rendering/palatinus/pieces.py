"""Inhabitants: shape and letter give the type (circle M merchant, square F farmer, shield S
soldier, wolf head for a hidden wolf piece); colour and the seat's marker (shape and number)
give the owner."""

from __future__ import annotations

from PIL import ImageDraw

from rendering.common import BLACK, INK, WHITE, centred_text, draw_marker, font, player_colour
from rendering.palatinus import layout as L

NEUTRAL = (200, 200, 200)

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


def draw_piece(
    draw: ImageDraw.ImageDraw,
    centre: L.Point,
    r: float,
    owner: int,
    kind: str | None,
    wolf: bool = False,
    neutral: bool = False,
    faded: bool = False,
) -> None:
    """``kind`` is ``"M"``, ``"F"``, ``"S"`` or ``None`` (a wolf piece whose type is hidden)."""
    colour = NEUTRAL if neutral else player_colour(owner)
    outline = player_colour(owner) if neutral else BLACK
    if faded:
        colour = L.blend(colour, WHITE, 0.5)
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
    else:
        centred_text(
            draw,
            (x, y - (r * 0.12 if kind == "S" else 0)),
            kind,
            font(int(r * 1.05), bold=True),
            ink,
        )
    # The owner's marker (shape, colour and number) at the upper right, large enough that its
    # shape and number tell the owner without colour (in greyscale, at preview size).
    mr = max(r * 0.62, 7)
    mx, my = x + r * 0.9, y - r * 0.78
    draw.ellipse((mx - mr - 3, my - mr - 3, mx + mr + 3, my + mr + 3), fill=WHITE)
    draw_marker(draw, (mx, my), mr, owner, width=2, outline=INK)
    if wolf and kind is not None:
        # The owner's own wolf piece (or a revealed one): a dark "w" badge at the lower left.
        badge(draw, (x - r * 0.9, y + r * 0.75), "w", max(r * 0.55, 11), fill=INK, ink=WHITE)
    if neutral:
        badge(draw, (x - r * 0.95, y - r * 0.8), "n", max(r * 0.38, 11), fill=NEUTRAL)


def mark_last(draw: ImageDraw.ImageDraw, centre: L.Point, r: float) -> None:
    """The piece placed last: a thick double ring around it."""
    x, y = centre
    k = r * 1.3
    draw.ellipse((x - k - 3, y - k - 3, x + k + 3, y + k + 3), outline=WHITE, width=3)
    draw.ellipse((x - k, y - k, x + k, y + k), outline=L.LAST, width=4)


def draw_cross(draw: ImageDraw.ImageDraw, centre: L.Point, r: float) -> None:
    """A captured piece: a thick X over it."""
    x, y = centre
    for sx in (-1, 1):
        draw.line([(x - r, y - sx * r), (x + r, y + sx * r)], fill=WHITE, width=5)
        draw.line([(x - r, y - sx * r), (x + r, y + sx * r)], fill=L.CAPTURE, width=3)
