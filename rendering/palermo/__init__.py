"""Palermo's images: the board (city, ring, pieces, labels) above a panel with the player table.

``render(view)`` draws any view; the private view of the player to move also marks where their
pawn can end. ``alt_text(view)`` describes the same view in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from rendering.common import PAPER
from rendering.palermo.board import draw_board
from rendering.palermo.panel import draw_panel
from rendering.palermo.pieces import seat_name
from rules.palermo.views import describe

__all__ = ["alt_text", "render"]


def render(view: Mapping[str, Any]) -> Image.Image:
    """The board with the panel under it, so the image is only as wide as the board."""
    board = draw_board(view)
    panel = draw_panel(view, board.width)
    image = Image.new("RGB", (board.width, board.height + panel.height), PAPER)
    image.paste(board, (0, 0))
    image.paste(panel, (0, board.height))
    return image


def alt_text(view: Mapping[str, Any]) -> str:
    # Names with their colour ("Alice (blue)"), as the panel shows them.
    text = describe(view)
    for seat in range(view["players"]):
        text = text.replace(f"{{p{seat}}}", seat_name(seat))
    return text
