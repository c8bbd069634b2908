"""Colours and text helpers shared by the Minerva pictures."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

from rendering.common import font, player_name

# Okabe-Ito hues per building type, always shown with the type's pictogram as well.
CATEGORY_COLOURS: dict[str, tuple[int, int, int]] = {
    "production": (240, 228, 66),
    "trade": (230, 159, 0),
    "culture": (204, 121, 167),
    "military": (213, 94, 0),
    "special": (86, 180, 233),
    "temple": (0, 158, 115),
    "residential": (170, 170, 170),
}
def tint(colour: tuple[int, int, int], amount: float = 0.55) -> tuple[int, int, int]:
    """The colour mixed with white, light enough for black text."""
    r, g, b = colour
    return (
        int(r + (255 - r) * amount),
        int(g + (255 - g) * amount),
        int(b + (255 - b) * amount),
    )


def category_colour(category: str) -> tuple[int, int, int]:
    return CATEGORY_COLOURS.get(category, (200, 200, 200))


@lru_cache(maxsize=4096)
def wrap(
    text: str, size: int, width: int, bold: bool = False, max_lines: int = 3
) -> tuple[str, ...]:
    """Greedy word wrap to a pixel width; the last line is cut with an ellipsis if needed."""
    fnt: ImageFont.FreeTypeFont = font(size, bold)
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if fnt.getlength(trial) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and fnt.getlength(last + "…") > width:
            last = last[:-1]
        lines[-1] = last + "…"
    return tuple(lines)


def seat_name(seat: int) -> str:
    """The player's name, or "Player N" when the front end gave none."""
    return player_name(seat, f"Player {seat + 1}")
