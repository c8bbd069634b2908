"""The panel under the board: whose turn, one row per player (chips, turn-movement card, score,
home), the tile supply in phase 1, a key, and at the end the score table. Text is >= 14 px."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, font, player_colour
from rendering.palermo.board import BUILDABLE
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
from rendering.palette import ink_on

ROW_BUILD = 34
ROW_COLLECT = 66
CORNER_XY = {"NW": (0, 0), "NE": (1, 0), "SE": (1, 1), "SW": (0, 1)}

STEP_TEXT = {
    "start_tile": "lays the Start/Finish tile",
    "house": "builds a house",
    "police": "may move their police stone",
    "move": "moves: a stop or 'walk on'",
    "walk": "picks where the pawn ends",
}


TEXT = 14
PAD = 14


def draw_panel(view: Mapping[str, Any], width: int) -> Image.Image:
    """The panel under the board, ``width`` px wide, as tall as it needs."""
    image = Image.new("RGB", (width, 1200), PAPER)
    draw = ImageDraw.Draw(image)
    phase = view["phase"]
    title = {"build": "Phase 1: building the city", "collect": "Phase 2: collecting income"}
    draw.line((0, 0, width, 0), fill=MUTED)
    draw.text((PAD, 10), f"Palermo · {title.get(phase, 'Game over')}", font=font(18, bold=True),
              fill=INK)
    y = 40
    if view["active"]:
        seat = view["active"][0]
        draw_pawn(draw, PAD + 10, y + 10, 10, seat)
        doing = STEP_TEXT.get(view["step"], "")
        extra = f" ({view['budget']} points)" if view["step"] in ("move", "walk") else ""
        draw.text((PAD + 28, y + 10), f"To play: {seat_name(seat)} {doing}{extra}",
                  font=font(TEXT + 1, bold=True), fill=INK, anchor="lm")
        y += 30
    if view.get("outcome"):
        y = _draw_outcome(draw, view, y + 4, width)
    else:
        for row in view["table"]:
            y += _draw_row(draw, view, row, y, width)
    y += 4
    if phase == "build":
        y = _draw_supply(draw, view, y)
    y = _draw_legend(draw, view, y + 6)
    return image.crop((0, 0, width, y + 8))


def _draw_row(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], row: Mapping[str, Any],
              y: int, width: int) -> int:
    """One player, compactly (the board is what the preview should show): a line in phase 1,
    two in phase 2. Returns the row's height."""
    seat = row["seat"]
    active = seat in view["active"]
    build = view["phase"] == "build"
    height = ROW_BUILD if build else ROW_COLLECT
    draw.rectangle((6, y, width - 6, y + height - 4), fill=WHITE,
                   outline=INK if active else (205, 200, 190), width=3 if active else 1)
    top = y + 15
    draw_pawn(draw, 26, top + 2, 8, seat, row["home"])
    name_font = font(TEXT + 1, bold=True)
    draw.text((44, top), seat_name(seat), font=name_font, fill=INK, anchor="lm")
    if build:
        chips = f"{row['to_place']} of {row['chips']} chips to place"
        draw.text((width - 40, top), chips, font=font(TEXT), fill=INK, anchor="rm")
        draw_chip(draw, width - 24, top, 9, seat, True)
        return height
    draw.text((width - 16, top), f"score {row['score']}", font=font(TEXT + 2, bold=True),
              fill=INK, anchor="rm")
    if row["home"]:
        status = f"home #{row['home_rank']}"
    else:
        status = f"chips {row['collected']}/{row['chips']}"
        if row.get("lost"):
            status += f" ({row['lost']} sealed off)"
    draw.text((44 + name_font.getlength(seat_name(seat)) + 12, top), status,
              font=font(TEXT, bold=row["home"]), fill=INK, anchor="lm")
    stone = view["police"][seat]
    police = "police " + (stone["cell"] or "off board") + (" (blocked)" if stone["frozen"]
                                                            else "")
    if row["penalty"] and not row["home"]:
        police += f", −{row['penalty']} next"
    low = y + 42
    draw.text((width - 16, low), police, font=font(TEXT), fill=INK, anchor="rm")
    _draw_card(draw, row, low - 12)
    return height


def _draw_card(draw: ImageDraw.ImageDraw, row: Mapping[str, Any], y: int) -> None:
    """The turn-movement card: slots 3.. with a chip on each slot earned so far."""
    base = row["allowance"] - row["collected"]
    slots = row["chips"] + 1
    w = 28
    draw.text((44, y + 12), "card", font=font(TEXT), fill=INK, anchor="lm")
    for k in range(slots):
        x = 84 + k * w
        value = base + k
        filled = k <= row["collected"]
        current = value == row["allowance"]
        fill = player_colour(row["seat"]) if filled and k else WHITE
        draw.rectangle((x, y, x + w - 2, y + 24), fill=fill, outline=INK,
                       width=3 if current else 1)
        draw.text((x + (w - 2) / 2, y + 12), str(value), font=font(TEXT, bold=current),
                  fill=ink_on(fill), anchor="mm")


def _draw_supply(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    draw.text((PAD, y), "Supply (dark square: the door's corner; name the corner to turn a "
              "tile)", font=font(TEXT), fill=INK)
    y += 24
    x = PAD
    for kind, count in view["supply"].items():
        layout = view["layouts"][kind]
        _mini_tile(draw, x, y, layout["roof"], layout["door"])
        draw.text((x + 48, y + 2), kind, font=font(TEXT + 1, bold=True), fill=INK)
        draw.text((x + 48, y + 22), f"x{count}", font=font(TEXT), fill=INK)
        x += 110
    draw.text((x, y + 12), f"streets x{view['street_tiles']}", font=font(TEXT), fill=INK)
    return y + 52


def _mini_tile(draw: ImageDraw.ImageDraw, x: int, y: int, roof: list[str], door: str) -> None:
    s = 20
    for name, (cx, cy) in CORNER_XY.items():
        box = (x + cx * s, y + cy * s, x + cx * s + s, y + cy * s + s)
        draw.rectangle(box, fill=ROOF if name in roof else STREET, outline=INK)
    dx, dy = CORNER_XY[door]
    draw.rectangle((x + dx * s + 6, y + dy * s + 6, x + dx * s + s - 6, y + dy * s + s - 6),
                   fill=DOOR)


OUTCOME_COLS = (("Rank", 0), ("Player", 56), ("Income", 330), ("Home", 410), ("Bonus", 480),
                ("Score", 560))  # fmt: skip


def _draw_outcome(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int, width: int) -> int:
    """The final table: rank, then the score by source (income, money left at home, the
    waiting bonus), best first; the tie rule under it."""
    outcome = view["outcome"]
    draw.text((PAD, y), "Final scores", font=font(TEXT + 3, bold=True), fill=INK)
    y += 28
    for title, dx in OUTCOME_COLS:
        draw.text((PAD + dx, y), title, font=font(TEXT, bold=True), fill=INK)
    y += 22
    draw.line((PAD, y, width - PAD, y), fill=MUTED)
    y += 4
    for place, group in enumerate(outcome["ranking"], start=1):
        for seat in group:
            parts = outcome["breakdown"][seat]
            cy = y + 16
            draw.text((PAD, cy), f"#{place}", font=font(TEXT + 1, bold=True), fill=INK,
                      anchor="lm")
            draw_pawn(draw, PAD + 68, cy, 7.5, seat)  # 33 px tall: rows never touch
            draw.text((PAD + 86, cy), seat_name(seat), font=font(TEXT + 1, bold=True), fill=INK,
                      anchor="lm")
            values = (parts["income"], parts["home_leftover"], parts["waiting_bonus"],
                      outcome["scores"][seat])
            for (_, dx), value in zip(OUTCOME_COLS[2:], values, strict=True):
                draw.text((PAD + dx, cy), str(value), font=font(TEXT + 1, bold=dx == 560),
                          fill=INK, anchor="lm")
            y += 34
    for note in outcome.get("notes") or []:
        draw.text((PAD, y + 4), note, font=font(TEXT), fill=MUTED)
        y += 22
    return y + 8


def _draw_legend(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    small = font(TEXT)
    draw.text((PAD, y), "Key", font=font(TEXT + 1, bold=True), fill=INK)
    y += 24
    draw_pawn(draw, PAD + 10, y + 10, 7, 0)
    draw.text((PAD + 26, y + 10), "pawn", font=small, fill=INK, anchor="lm")
    draw_police(draw, (PAD + 78, y - 4, PAD + 106, y + 24), 0)  # as on the board: "P1"
    draw.text((PAD + 112, y + 10), "police stone (bar: blocked)", font=small, fill=INK,
              anchor="lm")
    draw_chip(draw, PAD + 340, y + 10, 9, 0, True)
    draw.text((PAD + 354, y + 10), "chip on a door", font=small, fill=INK, anchor="lm")
    draw_chip(draw, PAD + 490, y + 10, 9, 0, False)
    draw.text((PAD + 504, y + 10), "door, chip taken", font=small, fill=INK, anchor="lm")
    y += 28
    if view.get("may_build"):
        draw.rectangle((PAD, y + 2, PAD + 18, y + 20), outline=BUILDABLE, width=4)
        draw.text((PAD + 26, y + 10), "you may build here; a door mark: a corner its door "
                  "may take", font=small, fill=INK, anchor="lm")
        y += 28
    if view.get("reachable"):
        draw.rectangle((PAD, y + 2, PAD + 18, y + 20), outline=MARK, width=3)
        draw.text((PAD + 26, y + 10), "your pawn can end here; the number is the cost:",
                  font=small, fill=INK, anchor="lm")
        y += 22
        draw.text((PAD + 26, y + 10), "plain = exact stop, B = business stop, H = home, "
                  "! = blocked stop", font=small, fill=INK, anchor="lm")
        y += 28
    if view["phase"] == "collect":
        y = _card_key(draw, y)
    return y


def _card_key(draw: ImageDraw.ImageDraw, y: int) -> int:
    """What the card row's cells mean: a coloured cell per chip collected, a bold frame round
    this turn's movement points."""
    small = font(TEXT)
    draw.text((PAD, y + 12), "card:", font=small, fill=INK, anchor="lm")
    x = PAD + 44
    for fill, width, value, text in ((player_colour(0), 1, "4", "one per chip collected"),
                                     (WHITE, 3, "5", "points this turn")):
        draw.rectangle((x, y, x + 26, y + 24), fill=fill, outline=INK, width=width)
        draw.text((x + 13, y + 12), value, font=font(TEXT, bold=width > 1), fill=ink_on(fill),
                  anchor="mm")
        draw.text((x + 34, y + 12), text, font=small, fill=INK, anchor="lm")
        x += 34 + int(small.getlength(text)) + 24
    return y + 30
