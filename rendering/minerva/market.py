"""The market as a detail image drawn for the 550 px preview: what each tile on offer costs and
does (the overview lists only names and costs), the temples, the culture stacks, the round's
glory tiles and the round track, in two dense columns with nothing smaller than 12 px."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, font
from rendering.minerva.icons import WORDS, badge
from rendering.minerva.style import category_colour, tint, wrap
from rendering.scoretable import fit

WIDTH = 548
PAD = 8
GAP = 6
COL_W = (WIDTH - 2 * PAD - GAP) // 2
TEXT = 12
LINE = 15


def _card(tile: Mapping[str, Any], count: int = 1) -> Image.Image:
    """A tile: badge, name and how many, its type and cost, then its effect in full."""
    category = str(tile["category"])
    name_lines = wrap(str(tile["name"]), 13, COL_W - 34 - (30 if count > 1 else 0), bold=True,
                      max_lines=2)
    cost = wrap(f"{WORDS.get(category, category)} · cost: {tile['cost']}", TEXT, COL_W - 12,
                bold=True, max_lines=2)
    effect = wrap(str(tile["effect"]), TEXT, COL_W - 12, max_lines=4)
    height = 6 + max(22, 16 * len(name_lines)) + 3 + LINE * (len(cost) + len(effect)) + 6
    image = Image.new("RGB", (COL_W, height), tint(category_colour(category), 0.7))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, COL_W - 1, height - 1), outline=category_colour(category), width=2)
    badge(draw, 6, 6, category, 22)
    y = 6
    for line in name_lines:
        draw.text((34, y + 1), line, font=font(13, bold=True), fill=INK)
        y += 16
    if count > 1:
        draw.text((COL_W - 7, 7), f"×{count}", font=font(13, bold=True), fill=INK, anchor="ra")
    y = 6 + max(22, 16 * len(name_lines)) + 3
    for line in cost:
        draw.text((6, y), line, font=font(TEXT, bold=True), fill=INK)
        y += LINE
    for line in effect:
        draw.text((6, y), line, font=font(TEXT), fill=INK)
        y += LINE
    return image


def _round_tile(coins: int, height: int) -> Image.Image:
    """The solitaire round tile that carries coins (taken by the move "coins drop")."""
    image = Image.new("RGB", (COL_W, height), (235, 235, 235))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, COL_W - 1, height - 1), outline=MUTED, width=2)
    draw.text((6, 7), "Round tile", font=font(13, bold=True), fill=INK)
    draw.text((6, 28), f"take {coins} denarii", font=font(TEXT), fill=INK)
    draw.text((6, 28 + LINE), "move: coins drop", font=font(TEXT, bold=True), fill=INK)
    return image


def _grid(cards: list[Image.Image], image: Image.Image | None, y: int) -> int:
    """Two cards a row (the pair of a row made as tall as each other); returns the end."""
    for i in range(0, len(cards), 2):
        row = cards[i:i + 2]
        if image is not None:
            for j, card in enumerate(row):
                image.paste(card, (PAD + j * (COL_W + GAP), y))
        y += max(card.height for card in row) + GAP
    return y


def _solo_pairs(view: Mapping[str, Any]) -> list[Image.Image]:
    """Each pair side by side: build one, the other leaves."""
    out: list[Image.Image] = []
    for a, b in view["pairs"]:
        left = _card(a)
        right = _round_tile(int(b["coins"]), left.height) if b.get("round") else _card(b)
        out += [left, right]
    return out


def _heading(draw: ImageDraw.ImageDraw, y: int, text: str) -> int:
    draw.text((PAD, y), fit(text, font(15, bold=True), WIDTH - 2 * PAD), font=font(15, bold=True),
              fill=INK)
    return y + 22


def _stacks(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    """The three culture stacks, then the glory tiles and the round track on one line."""
    w = (WIDTH - 2 * PAD - 2 * GAP) // 3
    colour = category_colour("culture")
    box_h = 58 if any(int(v) for v in view["points"].values()) else 42
    for i, (stack, tiles) in enumerate(view["culture"].items()):
        x = PAD + i * (w + GAP)
        draw.rectangle((x, y, x + w, y + box_h), fill=tint(colour, 0.75), outline=colour, width=2)
        draw.text((x + 6, y + 4), str(stack).capitalize(), font=font(13, bold=True), fill=INK)
        draw.text((x + w - 6, y + 5), f"{len(tiles)} left", font=font(TEXT), fill=INK,
                  anchor="ra")
        if tiles:
            text = f"needs {tiles[0]['req']} · {tiles[0]['vp']} VP"
        else:
            text = "empty"
        draw.text((x + 6, y + 22), text, font=font(TEXT, bold=bool(tiles)), fill=INK)
        points = int(view["points"][stack])
        if points:
            draw.text((x + 6, y + 38), f"+{points} now", font=font(TEXT), fill=INK)
    y += box_h + 8
    names = {1: "1st", 2: "2nd", 3: "3rd"}
    glory = " · ".join(f"{names.get(int(g['rank']), g['rank'])} {g['vp']} VP"
                       for g in view["glory_tiles"])
    draw.text((PAD, y), f"Glory tiles this round: {glory or 'none'}", font=font(TEXT + 1),
              fill=INK)
    y += 22
    draw.text((PAD, y + 11), "Round", font=font(TEXT + 1, bold=True), fill=INK, anchor="lm")
    now = int(view["round"])
    for r in range(1, int(view["rounds"]) + 1):
        x = PAD + 56 + (r - 1) * 30
        draw.rectangle((x, y, x + 24, y + 22), fill=INK if r == now else WHITE, outline=INK)
        draw.text((x + 12, y + 11), str(r), font=font(TEXT + 1, bold=True),
                  fill=WHITE if r == now else INK, anchor="mm")
    if view.get("fee"):
        draw.text((WIDTH - PAD, y + 11), f"fee: {view['fee']} denarius", font=font(TEXT + 1),
                  fill=INK, anchor="rm")
    return y + 32


def render_market(view: Mapping[str, Any]) -> Image.Image:
    solo = view["players"] == 1
    offer = (_solo_pairs(view) if solo
             else [_card(t, int(t["count"])) for t in view["offer"]])
    temples = [_card(t) for t in view["temples"]]
    image = Image.new("RGB", (WIDTH, 4000), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 36), fill=(60, 46, 34))
    draw.text((PAD, 18), f"Market · round {view['round']} of {view['rounds']}",
              font=font(17, bold=True), fill=WHITE, anchor="lm")
    y = _stacks(draw, view, 46)
    label = "Pairs, one a row (build one)" if solo else "Facilities on offer"
    y = _heading(draw, y, f"{label} · {view['deck']} in the stack")
    if not offer:
        draw.text((PAD, y), "nothing on offer", font=font(TEXT + 1), fill=MUTED)
        y += 24
    y = _grid(offer, image, y)
    y = _heading(draw, y + 4, f"Temples · {view['temple_stack']} in the stack")
    y = _grid(temples, image, y)
    return image.crop((0, 0, WIDTH, y + 2))
