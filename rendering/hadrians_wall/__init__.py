"""Hadrian's Wall images: a player's two sheets (seat view) or the public Year summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from rendering.common import name_seats
from rendering.hadrians_wall.sheets import render_sheets
from rendering.hadrians_wall.summary import render_summary
from rules.hadrians_wall import GAME

__all__ = ["alt_text", "render"]


def render(view: Mapping[str, Any]) -> Image.Image:
    """The seat's sheets for ``view(state, seat)``; the Year summary for the public view."""
    if view.get("seat") is None:
        return render_summary(view)
    return render_sheets(view)


def alt_text(view: Mapping[str, Any]) -> str:
    return name_seats(GAME.describe(view))
