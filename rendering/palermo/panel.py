"""The side panel: whose turn, one row per player (chips, turn-movement card, score, home),
the tile supply in phase 1, a legend, and the final ranking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, font, player_colour
from rendering.palermo.pieces import (
    DOOR,
    MARK,
    ROOF,
    STREET,
    draw_chip,
    draw_pawn,
    draw_police,
    seat_name,
)

WIDTH = 430
ROW = 74
CORNER_XY = {"NW": (0, 0), "NE": (1, 0), "SE": (1, 1), "SW": (0, 1)}

STEP_TEXT = {
    "start_tile": "lays the Start/Finish tile",
    "house": "builds a house",
    "police": "may move their police stone",
    "move": "moves: a stop or 'walk on'",
    "walk": "picks where the pawn ends",
}


def draw_panel(view: Mapping[str, Any], height: int) -> Image.Image:
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    phase = view["phase"]
    title = {"build": "Phase 1: building the city", "collect": "Phase 2: collecting income"}
    draw.text((12, 10), "Palermo", font=font(22, bold=True), fill=INK)
    draw.text((12, 38), title.get(phase, "Game over"), font=font(15, bold=True), fill=INK)
    y = 62
    if view["active"]:
        seat = view["active"][0]
        draw_pawn(draw, 22, y + 10, 9, seat)
        doing = STEP_TEXT.get(view["step"], "")
        extra = f" ({view['budget']} points)" if view["step"] in ("move", "walk") else ""
        draw.text((38, y + 2), f"To play: {seat_name(seat)} {doing}{extra}", font=font(12),
                  fill=INK)
    y += 28
    for row in view["table"]:
        _draw_row(draw, view, row, y)
        y += ROW
    y += 4
    if phase == "build":
        y = _draw_supply(draw, view, y)
    if view.get("outcome"):
        y = _draw_outcome(draw, view, y)
    _draw_legend(draw, view, y + 6)
    return image


def _draw_row(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], row: Mapping[str, Any],
              y: int) -> None:
    seat = row["seat"]
    active = seat in view["active"]
    draw.rectangle((6, y, WIDTH - 6, y + ROW - 6), fill=WHITE,
                   outline=INK if active else (205, 200, 190), width=3 if active else 1)
    draw_pawn(draw, 26, y + 20, 12, seat, row["home"])
    draw.text((46, y + 6), seat_name(seat), font=font(13, bold=True), fill=INK)
    if view["phase"] == "build":
        draw.text((46, y + 26), f"chips to place: {row['to_place']} of {row['chips']}",
                  font=font(12), fill=INK)
        for k in range(row["to_place"]):
            draw_chip(draw, 56 + k * 17, y + 54, 7, seat, True)
        return
    stone = view["police"][seat]
    score = f"score {row['score']}"
    draw.text((WIDTH - 14, y + 6), score, font=font(13, bold=True), fill=INK, anchor="ra")
    parts = f"{row['income']} income + {row['home_leftover']} home + {row['waiting_bonus']} bonus"
    draw.text((WIDTH - 14, y + 24), parts, font=font(10), fill=MUTED, anchor="ra")
    if row["home"]:
        status = f"HOME #{row['home_rank']}"
    else:
        status = f"chips {row['collected']}/{row['chips']}"
        if row.get("lost"):
            status += f" ({row['lost']} sealed off)"
    police = stone["cell"] or "off board"
    note = f"{status}, police {police}" + (" (blocked)" if stone["frozen"] else "")
    if row["penalty"] and not row["home"]:
        note += f", -{row['penalty']} next"
    draw.text((46, y + 24), note, font=font(11, bold=row["home"]), fill=INK)
    _draw_card(draw, row, y + 42)


def _draw_card(draw: ImageDraw.ImageDraw, row: Mapping[str, Any], y: int) -> None:
    """The turn-movement card: slots 3.. with a chip on each slot earned so far."""
    base = row["allowance"] - row["collected"]
    slots = row["chips"] + 1
    w = min(26, (WIDTH - 60) // slots)
    for k in range(slots):
        x = 46 + k * w
        value = base + k
        filled = k <= row["collected"]
        current = value == row["allowance"]
        draw.rectangle((x, y, x + w - 2, y + 20), fill=player_colour(row["seat"]) if filled and k
                       else WHITE, outline=INK, width=3 if current else 1)
        colour = WHITE if filled and k else INK
        draw.text((x + (w - 2) / 2, y + 10), str(value), font=font(10, bold=current),
                  fill=colour, anchor="mm")


def _draw_supply(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    draw.text((12, y), "Supply, unturned (dark square: door cell). Name the door's corner",
              font=font(11), fill=INK)
    y += 14
    draw.text((12, y), "to turn a tile: 'H2 C4 door NE'.", font=font(11), fill=INK)
    y += 18
    x = 12
    for kind, count in view["supply"].items():
        layout = view["layouts"][kind]
        _mini_tile(draw, x, y, layout["roof"], layout["door"])
        draw.text((x + 48, y + 4), kind, font=font(13, bold=True), fill=INK)
        draw.text((x + 48, y + 22), f"x{count}", font=font(12), fill=INK)
        draw.text((x, y + 46), f"door {layout['door']}", font=font(10), fill=MUTED)
        x += 100
    draw.text((x, y + 10), f"streets x{view['street_tiles']}", font=font(11), fill=INK)
    return y + 64


def _mini_tile(draw: ImageDraw.ImageDraw, x: int, y: int, roof: list[str], door: str) -> None:
    s = 20
    for name, (cx, cy) in CORNER_XY.items():
        box = (x + cx * s, y + cy * s, x + cx * s + s, y + cy * s + s)
        draw.rectangle(box, fill=ROOF if name in roof else STREET, outline=INK)
    dx, dy = CORNER_XY[door]
    draw.rectangle((x + dx * s + 6, y + dy * s + 6, x + dx * s + s - 6, y + dy * s + s - 6),
                   fill=DOOR)


def _draw_outcome(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    outcome = view["outcome"]
    draw.text((12, y), "Final ranking", font=font(14, bold=True), fill=INK)
    y += 20
    for place, group in enumerate(outcome["ranking"], start=1):
        names = " = ".join(
            f"{seat_name(s)} {outcome['scores'][s]}" for s in group
        )
        draw.text((12, y), f"{place}. {names}", font=font(12), fill=INK)
        y += 17
    return y + 4


def _draw_legend(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> None:
    small = font(10)
    draw_pawn(draw, 20, y + 8, 8, 0)
    draw.text((32, y + 2), "pawn", font=small, fill=INK)
    draw_police(draw, (72, y, 88, y + 16), 0, with_number=False)
    draw.text((92, y + 2), "police stone (bar: blocked)", font=small, fill=INK)
    draw_chip(draw, 254, y + 8, 6, 0, True)
    draw.text((264, y + 2), "chip on a door", font=small, fill=INK)
    y += 20
    if view.get("reachable"):
        draw.rectangle((12, y, 28, y + 14), outline=MARK, width=3)
        draw.text((34, y + 1), "your pawn can end here: number = cost;",
                  font=small, fill=INK)
        draw.text((34, y + 14), "B business stop, H home, ! blocked stop, plain = exact",
                  font=small, fill=INK)
        y += 30
    draw.text((12, y), "Card: movement points per turn, one more per chip collected",
              font=small, fill=MUTED)
