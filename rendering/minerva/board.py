"""The whole Minerva picture: the market (facilities or solitaire pairs, temples, culture
stacks, glory tiles), a row per player and every city, composed into one image."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (
    INK,
    MUTED,
    PAPER,
    draw_marker,
    font,
)
from rendering.minerva.cards import (
    CARD_H,
    CARD_W,
    culture_box,
    glory_box,
    round_tile_card,
    tile_card,
)
from rendering.minerva.city import city_image
from rendering.minerva.icons import key as type_key
from rendering.minerva.style import seat_name, wrap
from rendering.scoretable import score_table

WIDTH = 1400
MARGIN = 12
GAP = 8
SIDE_W = 140
ROW_H = 26


def _card(info: Mapping[str, Any], count: int = 1) -> Image.Image:
    return tile_card(
        str(info["name"]), str(info["category"]), str(info["cost"]), str(info["effect"]), count
    )


def _market_cards(view: Mapping[str, Any]) -> list[Image.Image]:
    """The offer as cards; a solitaire pair is two cards joined by 'or'."""
    if view["players"] != 1:
        return [_card(t, int(t["count"])) for t in view["offer"]]
    out = []
    for a, b in view["pairs"]:
        # A frame keeps the two halves of a pair together.
        pair = Image.new("RGB", (2 * CARD_W + 30, CARD_H + 8), PAPER)
        draw = ImageDraw.Draw(pair)
        draw.rounded_rectangle((0, 0, pair.width - 1, pair.height - 1), radius=6,
                               outline=MUTED, width=1)
        pair.paste(_card(a), (4, 4))
        pair.paste(round_tile_card(int(b["coins"])) if b.get("round") else _card(b),
                   (CARD_W + 26, 4))
        draw.text((CARD_W + 15, pair.height / 2), "or", font=font(12, bold=True), fill=INK,
                  anchor="mm")
        out.append(pair)
    return out


def _flow(cards: list[Image.Image], width: int) -> tuple[list[tuple[int, int]], int]:
    """Positions of cards flowing left to right in rows, and the total height."""
    x = y = 0
    row_h = 0
    spots = []
    for card in cards:
        if x and x + card.width > width:
            x, y = 0, y + row_h + GAP
            row_h = 0
        spots.append((x, y))
        x += card.width + GAP
        row_h = max(row_h, card.height)
    return spots, (y + row_h if cards else 0)


def _header(view: Mapping[str, Any]) -> str:
    text = f"Minerva  —  round {view['round']} of {view['rounds']}"
    pending = view.get("pending")
    result = view.get("outcome")
    if result:
        best = result["ranking"][0]
        names = " and ".join(seat_name(int(s)) for s in best)
        text += f"  —  game over: {names} {'win' if len(best) > 1 else 'wins'}"
        text += f" with {result['scores'][best[0]]} VP"
    elif pending:
        text += f"  —  {seat_name(int(pending['seat']))} {pending['text']}"
    return text


def _seat_line(view: Mapping[str, Any], seat: Mapping[str, Any]) -> str:
    res = seat["resources"]
    parts = [
        f"{seat['money']} denarii",
        "grain {grain} wood {wood} stone {stone} ore {ore}".format(**res),
        f"glory {seat['glory']}",
        f"assistants {seat['assistants']} (+{seat['assistants_placed']} placed)",
        f"residences {seat['residences']}",
        f"order {seat['order'] if seat['order'] else '-'}",
        f"culture {sum(t['vp'] for t in seat['culture_tiles'])} VP"
        f" ({len(seat['culture_tiles'])})",
        f"glory tiles {sum(t['vp'] for t in seat['glory_tiles'])} VP"
        f" ({len(seat['glory_tiles'])})",
    ]
    return "  |  ".join(parts)


def render_board(view: Mapping[str, Any], with_cities: bool = True) -> Image.Image:
    """The whole picture; without cities, only the header and the market (a detail image sent
    after the cities, which have images of their own)."""
    inner = WIDTH - 2 * MARGIN
    market_w = inner - SIDE_W - GAP
    over = bool(view.get("outcome"))
    cards = [] if over else _market_cards(view)
    spots, cards_h = _flow(cards, market_w)
    temples = [] if over else [_card(t) for t in view["temples"]]
    t_spots, temples_h = _flow(temples, market_w)
    seats = view["seats"] if with_cities else []
    pending = view.get("pending") or {}
    columns = 1 if len(seats) == 1 else 2
    slot_w = (inner - GAP * (columns - 1)) // columns
    cities = []
    for seat in seats:
        xs = [c["x"] for c in seat["city"]]
        cols = max(xs) - min(xs) + 3
        # Smaller cells with more players keep the long side near 1600 px for four.
        size = max(40, min((84, 84, 84, 60, 54)[len(seats)], (slot_w - 30) // cols))
        highlight = pending if pending.get("seat") == seat["seat"] and "at" in pending else None
        mine = (view.get("private") or {}) if view.get("seat") == seat["seat"] else {}
        city = city_image(seat, size, highlight, build_cells=mine.get("build_cells", ()))
        if city.width > slot_w:
            ratio = slot_w / city.width
            city = city.resize((slot_w, int(city.height * ratio)), Image.Resampling.LANCZOS)
        cities.append(city)
    city_rows = [cities[i:i + columns] for i in range(0, len(cities), columns)]
    cities_h = sum(max(c.height for c in row) + GAP for row in city_rows)
    if not with_cities:
        cities_h = -GAP - 10
    side_h = 4 * (74 + GAP) + 104
    table = final_table(view) if over else None
    market_h = table.height + GAP if table else max(22 + cards_h + GAP + 22 + temples_h, side_h)
    players_h = len(seats) * ROW_H + 10 if seats else 0
    header_lines = wrap(_header(view), 17, inner, bold=True, max_lines=2)
    header_h = 12 + 22 * len(header_lines)
    height = header_h + market_h + GAP + players_h + GAP + cities_h + 30

    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = 8
    for text in header_lines:
        draw.text((MARGIN, y), text, font=font(17, bold=True), fill=INK)
        y += 22
    top = header_h
    if table is not None:
        image.paste(table, (MARGIN, top))
    label = "Pairs on offer (build one, the other leaves)" if view["players"] == 1 else (
        "Facilities on offer"
    )
    if table is None:
        draw.text((MARGIN, top), f"{label}  ·  stack: {view['deck']} tiles",
                  font=font(13, bold=True), fill=INK)
        for card, (x, y) in zip(cards, spots, strict=True):
            image.paste(card, (MARGIN + x, top + 20 + y))
        if not cards:
            draw.text((MARGIN, top + 24), "nothing on offer", font=font(12), fill=MUTED)
        ty = top + 22 + max(cards_h, 20) + GAP
        draw.text((MARGIN, ty), f"Temples  ·  {view['temple_stack']} left in the stack",
                  font=font(13, bold=True), fill=INK)
        for card, (x, y) in zip(temples, t_spots, strict=True):
            image.paste(card, (MARGIN + x, ty + 20 + y))
        _side(image, view, WIDTH - MARGIN - SIDE_W + 4, top)

    y = header_h + market_h + GAP
    for seat in seats:
        s = int(seat["seat"])
        active = s in view.get("active", [])
        if active:
            draw.rectangle((MARGIN - 4, y - 2, WIDTH - MARGIN, y + ROW_H - 4), fill=(236, 230, 214))
        draw_marker(draw, (MARGIN + 10, y + 10), 10, s)
        name = seat_name(s) + (" ▶" if active else "") + (" (passed)" if seat["passed"] else "")
        draw.text((MARGIN + 28, y + 2), name, font=font(13, bold=True), fill=INK)
        draw.text((MARGIN + 190, y + 3), _seat_line(view, seat), font=font(12), fill=INK)
        y += ROW_H
    y += 10
    for row in city_rows:
        x = MARGIN
        for city in row:
            image.paste(city, (x, y))
            x += slot_w + GAP
        y += max(c.height for c in row) + GAP
    key = "free cells: where a new tile may go"
    if (view.get("private") or {}).get("build_cells"):
        key = "orange +: where a tile you buy may go now"
    end = type_key(draw, MARGIN, height - 26, 18, 12, MUTED)
    if with_cities:
        draw.text((end + 4, height - 17), "·  " + key, font=font(12), fill=MUTED, anchor="lm")
    return image


def final_table(view: Mapping[str, Any]) -> Image.Image:
    """Ranks and the score by the game's own categories, with the tie rule."""
    outcome = view["outcome"]
    keys = [k for k in outcome["breakdown"][0] if k != "total"][:7]
    columns = [(k.replace("_", " ")[:8].capitalize(), k) for k in keys]
    # "Temples" is 74 px wide in bold: 14 px more keeps it apart from "Money".
    return score_table("Minerva · final scores", outcome, columns, TIE_RULE, step=88.0)


TIE_RULE = ("Ties: more culture and glory tiles, then more temples, then earlier in the turn "
            "order.")


def _side(image: Image.Image, view: Mapping[str, Any], x: int, y: int) -> None:
    draw = ImageDraw.Draw(image)
    draw.text((x, y), "Culture stacks", font=font(13, bold=True), fill=INK)
    y += 20
    for stack, tiles in view["culture"].items():
        top = (int(tiles[0]["req"]), int(tiles[0]["vp"])) if tiles else None
        image.paste(culture_box(stack, top, len(tiles), int(view["points"][stack])), (x, y))
        y += 74 + GAP
    ranks = tuple((int(g["rank"]), int(g["vp"])) for g in view["glory_tiles"])
    image.paste(glory_box(int(view["round"]), ranks), (x, y))
    y += 74 + GAP
    # The round track: one disc per round, the current one filled.
    draw.text((x, y), "Rounds", font=font(13, bold=True), fill=INK)
    rounds, now = int(view["rounds"]), int(view["round"])
    step = min(18, (SIDE_W - 8) // max(1, rounds))
    for r in range(1, rounds + 1):
        cx, cy = x + 7 + (r - 1) * step, y + 30
        fill = INK if r == now else (PAPER if r > now else (200, 195, 185))
        draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=fill, outline=INK)
    y += 44
    if view.get("fee"):
        draw.text((x, y), f"fee: {view['fee']} denarius", font=font(12, bold=True), fill=INK)
