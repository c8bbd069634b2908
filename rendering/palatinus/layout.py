"""Sizes, colours and hex geometry of the Palatinus images (pointy-top hexes, y down)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]

SIZE = 46
"""Hex radius in pixels (centre to corner)."""
HEADER = 44
BOARD_W = 760
BOARD_H = 690
# The panel sits under the board, so the image is only as wide as the board: at Discord's
# preview width (550 px) text of TEXT px reads as TEXT * 550 / 760, and TEXT >= 16 stays >= 11.
WIDTH = BOARD_W
TEXT = 16
HEIGHT = HEADER + BOARD_H
PANEL_Y = HEIGHT
CENTRE: Point = (BOARD_W / 2, HEADER + BOARD_H / 2)

FIELD = (196, 222, 164)
SPRING = (250, 228, 140)
SPRING_EDGE = (40, 110, 190)
FREE = (255, 255, 255)
FREE_EDGE = (40, 40, 40)
LAST = (200, 0, 120)  # the piece placed last: a ring unlike any player colour
HILL = (170, 128, 86)
HILL_DARK = (110, 78, 48)
TILE_EDGE = (70, 52, 36)
GRID = (150, 170, 130)
LAUREL = (52, 120, 60)
GHOST = (232, 226, 210)


def hex_centre(q: float, r: float, origin: Point = CENTRE, size: float = SIZE) -> Point:
    return (origin[0] + size * math.sqrt(3) * (q + r / 2), origin[1] + size * 1.5 * r)


def corner(centre: Point, size: float, angle_deg: float) -> Point:
    a = math.radians(angle_deg)
    return (centre[0] + size * math.cos(a), centre[1] + size * math.sin(a))


def hex_points(centre: Point, size: float) -> list[Point]:
    """Corners of a pointy-top hex, clockwise from the upper right."""
    return [corner(centre, size, -30 + 60 * i) for i in range(6)]


def edge(centre: Point, size: float, direction: int) -> tuple[Point, Point]:
    """The side facing axial direction ``direction`` (d0 east, then counter-clockwise)."""
    angle = -60 * direction
    return corner(centre, size, angle - 30), corner(centre, size, angle + 30)


def blend(colour: Sequence[int], other: Sequence[int], t: float) -> tuple[int, int, int]:
    """``colour`` moved a fraction ``t`` towards ``other``."""
    return (
        round(colour[0] + (other[0] - colour[0]) * t),
        round(colour[1] + (other[1] - colour[1]) * t),
        round(colour[2] + (other[2] - colour[2]) * t),
    )


def ink_on(colour: Sequence[int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``colour``."""
    luminance = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (0, 0, 0) if luminance > 140 else (255, 255, 255)
