"""What the seat can do next, drawn on its sheets: a halo around every box a legal move fills
(from the view's ``private["boxes"]``), the last attack's cards stacked beside the cohort each
hit, and the rewards still to place (written in the part's title bar)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.common import font
from rendering.hadrians_wall.layout import COLUMNS, Key, boxes
from rendering.hadrians_wall.scaled import Canvas
from rules.hadrians_wall import components as c

HALO = (255, 170, 0)
HALO_EDGE = (120, 60, 0)
CARD = (200, 40, 40)


def box_key(move: Mapping[str, Any], s: Mapping[str, Any]) -> Key | None:
    """The layout box a move fills (None for a move the sheets have no box for)."""
    kind = move["type"]
    if kind in ("mining", "guard", "fort", "wall", "cippi", "forum", "market", "temple"):
        return (kind, int(move["box"]))
    simple = {"train": "training", "perform": "theatre", "bribe": "baths"}
    if kind in simple:
        return (simple[kind], int(move["box"]))
    if kind == "build":
        return ("building:" + str(move["building"]), 0)
    if kind == "citizen":
        return ("citizen", c.CITIZENS.index(move["track"]), int(move["box"]))
    if kind == "landmark":
        return ("landmark", c.LANDMARK_NAMES.index(move["landmark"]) + 1)
    if kind == "gladiator":
        g = c.GLADIATORS.index(move["gladiator"])
        return ("gladiator", g, min(6, int(s["gladiators"][g]["strength"]) + 1))
    if kind == "ruling":
        col = int(move["column"]) - 1
        return ("courthouse", col, min(3, len(s["courthouse"][col]) + 1))
    if kind == "diplomat":
        return ("diplomat", min(3, len(s["diplomats"]) + 1))
    if kind == "scout":
        return ("scout", min(5, int(s["scouts"]) + 1))
    return None


def fillable_boxes(view: Mapping[str, Any], s: Mapping[str, Any]
                   ) -> list[tuple[float, float, float, float]]:
    """The rectangles (layout units) of the boxes a legal move of the seat fills."""
    private = view.get("private") or {}
    g = boxes()
    keys = [box_key(move, s) for move in private.get("boxes", [])]
    return [g[key] for key in keys if key is not None and key in g]


def outline_moves(draw: Canvas, view: Mapping[str, Any], s: Mapping[str, Any]) -> int:
    """A halo around each box a legal move fills; returns how many were drawn."""
    found = fillable_boxes(view, s)
    for x0, y0, x1, y1 in found:
        draw.rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), outline=HALO, width=4)
        draw.rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), outline=HALO_EDGE, width=1)
    return len(found)


def attack_stacks(draw: Canvas, view: Mapping[str, Any]) -> None:
    """The last attack's cards as a small stack beside the title of the cohort each hit."""
    attack = view.get("attack")
    if not attack:
        return
    for i, cohort in enumerate(c.COHORTS):
        cards = [card for card in attack["cards"] if card["attack"] == cohort]
        if not cards:
            continue
        x = (COLUMNS[i][0] + COLUMNS[i][1]) / 2 + 52
        for k in range(min(len(cards), 4)):
            left = x + k * 5
            draw.rectangle((left, 80 - k * 2, left + 13, 97 - k * 2), fill=CARD,
                           outline=(255, 255, 255), width=1)
        draw.text((x + 18 + min(len(cards), 4) * 5, 89), f"×{len(cards)}",
                  font=font(12, bold=True), fill=CARD, anchor="lm")


def rewards_to_place(s: Mapping[str, Any]) -> str:
    """The rewards still to place, in words ('' when none)."""
    roads = int(s.get("road_pending") or 0)
    if not roads:
        return ""
    return (f"To place: {roads} road income{'s' if roads > 1 else ''} "
            "(+1 attribute each, e.g. 'road renown')")
