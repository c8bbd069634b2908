"""Minerva's overview, the first image of a view: legible at Discord's preview width.

The full picture (market cards and every city) is too wide to read at 550 px, so this image
carries the round, whose turn and what they are deciding, each player's stock and score, and
the offer in words; the full picture follows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, draw_marker, font
from rendering.minerva.icons import badge, resource_icon
from rendering.minerva.style import seat_name, wrap
from rendering.scoretable import fit

WIDTH = 760
TEXT = 16
PAD = 16
LINE = 24


def _round_track(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    draw.text((PAD, y + 14), "Round", font=font(TEXT, bold=True), fill=INK, anchor="lm")
    for r in range(1, int(view["rounds"]) + 1):
        x = PAD + 70 + (r - 1) * 40
        now = r == view["round"]
        draw.rectangle((x, y, x + 32, y + 28), fill=INK if now else WHITE, outline=INK, width=2)
        draw.text((x + 16, y + 14), str(r), font=font(TEXT, bold=True),
                  fill=WHITE if now else INK, anchor="mm")
    return y + 40


COLUMNS = (  # (heading, icon, centre x): one aligned column each, numbers centred
    ("denarii", "denarii", 268), ("grain", "grain", 336), ("wood", "wood", 396),
    ("stone", "stone", 456), ("ore", "ore", 516), ("glory", "glory", 580), ("VP", None, 640),
)
STATUS_X = WIDTH - PAD


def _players(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    for head, icon, x in COLUMNS:
        if icon:
            resource_icon(draw, icon, x, y + 12, 26)
        draw.text((x, y + 34), head, font=font(TEXT), fill=INK, anchor="mm")
    y += 50
    for seat in view["seats"]:
        s = int(seat["seat"])
        active = s in view.get("active", [])
        if active:
            draw.rectangle((PAD - 6, y - 3, WIDTH - PAD + 6, y + LINE + 1), fill=(236, 226, 200))
        draw_marker(draw, (PAD + 14, y + 11), 11, s, label="")  # the name beside it says who
        name_font = font(TEXT, bold=active)
        draw.text((PAD + 34, y + 11), fit(seat_name(s), name_font, 190), font=name_font,
                  fill=INK, anchor="lm")
        res = seat["resources"]
        vp = sum(t["vp"] for t in seat["culture_tiles"]) + sum(t["vp"] for t in
                                                                  seat["glory_tiles"])
        values = (seat["money"], res["grain"], res["wood"], res["stone"], res["ore"],
                  seat["glory"], vp)
        for (_, _, x), value in zip(COLUMNS, values, strict=True):
            draw.text((x, y + 11), str(value), font=font(TEXT + 1, bold=True), fill=INK,
                      anchor="mm")
        status = "passed" if seat["passed"] else ("to act" if active else "")
        if status:
            draw.text((STATUS_X, y + 11), status, font=font(TEXT, bold=active),
                      fill=INK if active else MUTED, anchor="rm")
        y += LINE + 4
    draw.text((PAD, y), "VP so far: culture and glory tiles (temples score at the end).",
              font=font(TEXT), fill=MUTED)
    return y + LINE + 8


def _offer(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    solo = view["players"] == 1
    draw.text((PAD, y), "Pairs on offer" if solo else "On offer", font=font(TEXT + 2, bold=True),
              fill=INK)
    y += 28
    items: list[Mapping[str, Any]] = []
    if solo:
        for a, b in view["pairs"]:
            items.append(a)
            if not b.get("round"):
                items.append(b)
    else:
        items = list(view["offer"])
    col_w = (WIDTH - 2 * PAD) // 2

    def wide(tile: Mapping[str, Any]) -> bool:
        return font(TEXT).getlength(f"{tile['name']} ({tile['cost']})") > col_w - 40

    # Tiles too long for half a row come last in their group, so the short ones pair up (a
    # solitaire pair keeps its order).
    items = (items if solo else sorted(items, key=wide)) + sorted(view["temples"], key=wide)
    # Two to a row; a tile whose name and cost do not fit half the width takes a whole row
    # rather than lose its cost to an ellipsis. The type shows as a badge (picture and colour).
    col = 0
    for tile in items[:16]:
        text = f"{tile['name']} ({tile['cost']})"
        if col and wide(tile):
            col, y = 0, y + LINE + 4
        x = PAD + col * col_w
        badge(draw, x, y, str(tile["category"]), 22)
        room = (WIDTH - PAD if wide(tile) else x + col_w - 10) - (x + 30)
        draw.text((x + 30, y + 1), fit(text, font(TEXT), room), font=font(TEXT), fill=INK)
        col = 0 if wide(tile) or col else 1
        if col == 0:
            y += LINE + 4
    return y + (LINE + 4 if col else 0) + 8


MAP_CELL = 24  # px: a badge's pictogram still tells the type
MAP_ROWS = 7  # cells: a taller city gets smaller cells
BUILD = (230, 120, 0)
ASKED = (200, 0, 120)  # the cell a pending question is about: unlike any type's colour


def _spots(view: Mapping[str, Any], seat: int
           ) -> tuple[dict[tuple[int, int], Mapping[str, Any]], list[tuple[int, int]]]:
    """A city's built cells, and (in the seat's own view) where a bought tile may go."""
    cells = {(int(c["x"]), int(c["y"])): c for c in view["seats"][seat]["city"]}
    build = [(int(c[0]), int(c[1])) for c in (view.get("private") or {}).get("build_cells")
             or []] if view.get("seat") == seat else []
    return cells, build


def _map(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], seat: int,
         box: tuple[int, int, int, int], cell: int) -> None:
    """One city in small: each built cell as its type's badge (a residence as a house, with a
    dot for an assistant), and in the seat's own view an orange frame on each free cell where
    a bought tile may go. No names, no coordinates: the city's detail image has them."""
    x0, y0, x1, y1 = box
    cells, build = _spots(view, seat)
    if not cells and not build:
        return
    xs, ys = [x for x, _ in [*cells, *build]], [y for _, y in [*cells, *build]]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    size = max(12, min(cell, (x1 - x0) // cols, (y1 - y0) // rows))
    left = x0 + (x1 - x0 - cols * size) // 2
    for (cx, cy) in build:
        x, y = left + (cx - min(xs)) * size, y0 + (cy - min(ys)) * size
        draw.rectangle((x + 1, y + 1, x + size - 2, y + size - 2), outline=BUILD, width=3)
    for (cx, cy), tile in cells.items():
        x, y = left + (cx - min(xs)) * size, y0 + (cy - min(ys)) * size
        badge(draw, x + 1, y + 1, str(tile.get("category") or "residential"), size - 3)
        if tile.get("assistant"):
            draw.ellipse((x + size - 9, y + 1, x + size - 1, y + 9), fill=WHITE, outline=INK)
    pending = view.get("pending") or {}
    if pending.get("seat") == seat and pending.get("at"):
        # The residence an activation starts from, which the question names by coordinates.
        cx, cy = int(pending["at"][0]), int(pending["at"][1])
        x, y = left + (cx - min(xs)) * size, y0 + (cy - min(ys)) * size
        draw.rectangle((x - 2, y - 2, x + size + 1, y + size + 1), outline=ASKED, width=3)


def _cities(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    """Every city in small, side by side, under its owner's name."""
    seats = [int(s["seat"]) for s in view["seats"]]
    draw.text((PAD, y), "Cities" if len(seats) > 1 else "City", font=font(TEXT + 2, bold=True),
              fill=INK)
    y += 28
    cell = MAP_CELL if len(seats) > 2 else MAP_CELL * 3 // 2  # fewer cities, more room
    gap = 16
    width = (WIDTH - 2 * PAD - gap * (len(seats) - 1)) // max(1, len(seats))
    tallest = max((max(y for _, y in spots) - min(y for _, y in spots) + 1
                   for spots in ([*c, *b] for c, b in (_spots(view, s) for s in seats))
                   if spots), default=1)
    height = cell * min(MAP_ROWS, tallest)
    for i, seat in enumerate(seats):
        x = PAD + i * (width + gap)
        name = "You" if view.get("seat") == seat else seat_name(seat)
        draw_marker(draw, (x + 9, y + 10), 9, seat, label="")  # the name beside it says who
        draw.text((x + 24, y + 10), fit(name, font(TEXT, bold=True), width - 26),
                  font=font(TEXT, bold=True), fill=INK, anchor="lm")
        draw.rectangle((x, y + 24, x + width, y + 30 + height), fill=(243, 237, 222))
        _map(draw, view, seat, (x + 3, y + 27, x + width - 3, y + 27 + height), cell)
    y += 38 + height
    x = PAD
    if view.get("seat") is not None and (view.get("private") or {}).get("build_cells"):
        draw.rectangle((x, y + 3, x + 18, y + 21), outline=BUILD, width=3)
        text = "where a tile you buy may go"
        draw.text((x + 28, y + 12), text, font=font(TEXT), fill=INK, anchor="lm")
        x += 28 + round(font(TEXT).getlength(text)) + 24
    pending = view.get("pending") or {}
    if pending.get("at") and "seat" in pending:
        draw.rectangle((x, y + 3, x + 18, y + 21), outline=ASKED, width=3)
        text = f"{pending['at'][0]},{pending['at'][1]}: where the activation starts"
        draw.text((x + 28, y + 12), text, font=font(TEXT), fill=INK, anchor="lm")
        x += 28 + round(font(TEXT).getlength(text)) + 24
    if any(c.get("assistant") for s in view["seats"] for c in s["city"]):
        draw.ellipse((x + 5, y + 8, x + 13, y + 16), fill=WHITE, outline=INK)
        draw.text((x + 22, y + 12), "an assistant on the residence", font=font(TEXT),
                  fill=INK, anchor="lm")
        x += 1
    return y + (36 if x > PAD else 6)


def render_overview(view: Mapping[str, Any]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, 1200), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 48), fill=(60, 46, 34))
    draw.text((PAD, 24), f"Minerva · round {view['round']} of {view['rounds']}",
              font=font(20, bold=True), fill=WHITE, anchor="lm")
    y = 60
    pending = view.get("pending")
    if pending:
        asked = f"{seat_name(int(pending['seat']))} {pending['text']}"
        for line in wrap(asked, TEXT, WIDTH - 2 * PAD, bold=True, max_lines=2):
            draw.text((PAD, y), line, font=font(TEXT, bold=True), fill=INK)
            y += LINE
        y += 6
    y = _round_track(draw, view, y)
    y = _players(draw, view, y)
    y = _cities(draw, view, y)
    if not view.get("outcome"):
        y = _offer(draw, view, y)
    follows = "The market and each city in full: the buttons under this image."
    draw.text((PAD, y), follows, font=font(TEXT), fill=MUTED)
    return image.crop((0, 0, WIDTH, y + LINE + 8))


def render_cities(view: Mapping[str, Any]) -> Image.Image:
    """The cities in small on their own (under the final scores)."""
    image = Image.new("RGB", (WIDTH, 600), PAPER)
    y = _cities(ImageDraw.Draw(image), view, 8)
    return image.crop((0, 0, WIDTH, y + 4))
