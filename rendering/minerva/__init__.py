"""Minerva pictures: ``render(view)`` draws the market, the players and every city in one
image; ``render_city(view, seat)`` draws one city (with the pending activation's lines when
that seat is deciding); ``alt_text(view)`` describes the same view in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from rendering.common import name_seats
from rendering.minerva.board import final_table, render_board
from rendering.minerva.city import city_image
from rendering.minerva.overview import render_overview
from rules.minerva.views import describe

__all__ = ["alt_text", "render", "render_all", "render_city"]


def render(view: Mapping[str, Any]) -> Image.Image:
    return render_board(view)


def render_all(view: Mapping[str, Any]) -> list[Image.Image]:
    """An overview legible at preview size (at the end: the final score table), then the full
    picture of the market and every city."""
    if view.get("outcome"):
        return [final_table(view), render_board(view)]
    return [render_overview(view), render_board(view)]


def render_city(view: Mapping[str, Any], seat: int, size: int = 76) -> Image.Image:
    player = view["seats"][seat]
    pending = view.get("pending") or {}
    highlight = pending if pending.get("seat") == seat and "at" in pending else None
    return city_image(player, size, highlight)


def alt_text(view: Mapping[str, Any]) -> str:
    return name_seats(describe(view))
