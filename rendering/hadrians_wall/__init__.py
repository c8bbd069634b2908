"""Hadrian's Wall images: a player's overview and two sheets (seat view) or the public Year
summary. ``render`` keeps drawing both sheets side by side in one image."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import WHITE, draw_marker, font, name_seats, player_name
from rendering.hadrians_wall.layout import RIGHT_X
from rendering.hadrians_wall.overview import render_overview
from rendering.hadrians_wall.sheets import render_sheets
from rendering.hadrians_wall.summary import render_summary
from rendering.scoretable import score_table
from rules.hadrians_wall import GAME

__all__ = ["alt_text", "render", "render_all"]


def render(view: Mapping[str, Any]) -> Image.Image:
    """The seat's sheets for ``view(state, seat)``; the Year summary for the public view."""
    if view.get("seat") is None:
        return render_summary(view)
    return render_sheets(view)


def render_all(view: Mapping[str, Any]) -> list[Image.Image]:
    """The public view: the Year summary. A seat's view: an overview legible at preview size
    (hand, Path choice, moves available now, score), then the left and the right sheet, each
    its own image so that each opens at a readable size."""
    if view.get("seat") is None:
        if view.get("outcome"):
            return [final_table(view), render_summary(view)]
        return [render_summary(view)]
    sheets = render_sheets(view)
    body = HEADER_H
    left = _titled(view, sheets.crop((0, body, RIGHT_X - 4, sheets.height)), "left sheet")
    right = _titled(view, sheets.crop((RIGHT_X - 8, body, sheets.width, sheets.height)),
                    "right sheet")
    return [render_overview(view), left, right]


HEADER_H = 58
FINAL_COLUMNS = (("Renown", "renown"), ("Piety", "piety"), ("Valour", "valour"),
                 ("Discip.", "discipline"), ("Paths", "paths"), ("Disdain", "disdain_penalty"))
TIE_RULE = ("Ties: less final Disdain wins, then more Path card points; otherwise the tied "
            "players share the place. Disdain is the penalty for the final Disdain count.")


def final_table(view: Mapping[str, Any]) -> Image.Image:
    """The end-of-game score table: every category of the score sheet, ranks and tie-breaks."""
    return score_table("Hadrian's Wall · final scores", view["outcome"], FINAL_COLUMNS,
                       TIE_RULE)


def _titled(view: Mapping[str, Any], part: Image.Image, title: str) -> Image.Image:
    """One sheet under its own header (name, Year, which sheet, score)."""
    seat = int(view["seat"])
    s = view["sheets"][seat]
    image = Image.new("RGB", (part.width, part.height + HEADER_H), (45, 35, 30))
    image.paste(part, (0, HEADER_H))
    draw = ImageDraw.Draw(image)
    draw_marker(draw, (30, 29), 18, seat, outline=WHITE)
    draw.text((58, 29), f"{player_name(seat, f'Player {seat + 1}')} · {title} · Year "
              f"{view['year']}/{view['years']}", font=font(22, bold=True), fill=WHITE,
              anchor="lm")
    draw.text((part.width - 14, 29), f"Score {s['score']['total']}", font=font(22, bold=True),
              fill=WHITE, anchor="rm")
    return image


def alt_text(view: Mapping[str, Any]) -> str:
    return name_seats(GAME.describe(view))
