"""Cards of the market: facility and temple tiles, culture stacks and glory tiles.

Each card is drawn once per distinct content (``lru_cache``) and pasted into the board.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, font
from rendering.minerva.icons import badge
from rendering.minerva.style import category_colour, tint, wrap

CARD_W, CARD_H = 160, 104


@lru_cache(maxsize=512)
def tile_card(
    name: str, category: str, cost: str, effect: str, count: int = 1, note: str = ""
) -> Image.Image:
    """A facility or temple on offer: name, type, cost and effect, readable at full size."""
    image = Image.new("RGB", (CARD_W, CARD_H), tint(category_colour(category), 0.7))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=category_colour(category), width=3)
    badge(draw, 6, 6, category, 22)
    y = 6
    for text in wrap(name, 13, CARD_W - 46, bold=True, max_lines=2):
        draw.text((34, y), text, font=font(13, bold=True), fill=INK)
        y += 15
    if count > 1:
        draw.text((CARD_W - 7, 6), f"×{count}", font=font(13, bold=True), fill=INK, anchor="ra")
    y = max(y, 28) + 2
    for text in wrap(f"cost: {cost}", 11, CARD_W - 14, bold=True, max_lines=2):
        draw.text((7, y), text, font=font(11, bold=True), fill=INK)
        y += 13
    y += 2
    for text in wrap(effect, 11, CARD_W - 14, max_lines=3):
        draw.text((7, y), text, font=font(11), fill=INK)
        y += 13
    if note:
        draw.text((CARD_W - 7, CARD_H - 6), note, font=font(10), fill=MUTED, anchor="rd")
    return image


@lru_cache(maxsize=64)
def round_tile_card(coins: int) -> Image.Image:
    """The solitaire round tile that carries coins."""
    image = Image.new("RGB", (CARD_W, CARD_H), (235, 235, 235))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=MUTED, width=3)
    draw.text((CARD_W / 2, 34), "Round tile", font=font(14, bold=True), fill=INK, anchor="mm")
    draw.text((CARD_W / 2, 62), f"take {coins} denarii", font=font(12), fill=INK, anchor="mm")
    # The move that takes them: "coins drop <the facility beside it>".
    draw.text((CARD_W / 2, 82), "type: coins drop", font=font(11, bold=True), fill=MUTED,
              anchor="mm")
    return image


@lru_cache(maxsize=256)
def culture_box(stack: str, top: tuple[int, int] | None, left: int, points: int) -> Image.Image:
    """A culture stack: the requirement and VP of the top tile, and how many are left."""
    w, h = 132, 74
    image = Image.new("RGB", (w, h), tint(category_colour("culture"), 0.75))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=category_colour("culture"), width=2)
    draw.text((6, 4), stack.capitalize(), font=font(13, bold=True), fill=INK)
    draw.text((w - 6, 5), f"{left} left", font=font(11), fill=INK, anchor="ra")
    if top is None:
        draw.text((6, 30), "empty", font=font(13), fill=MUTED)
    else:
        draw.text((6, 24), f"needs {top[0]}", font=font(15, bold=True), fill=INK)
        draw.text((6, 46), f"worth {top[1]} VP", font=font(13), fill=INK)
    if points:
        draw.text((w - 6, h - 6), f"+{points} now", font=font(11, bold=True), fill=INK, anchor="rd")
    return image


@lru_cache(maxsize=64)
def glory_box(round_no: int, tiles: tuple[tuple[int, int], ...]) -> Image.Image:
    """The glory tiles of the round: rank and VP."""
    w, h = 132, 74
    image = Image.new("RGB", (w, h), tint(category_colour("military"), 0.75))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=category_colour("military"), width=2)
    draw.text((6, 4), f"Glory, round {round_no}", font=font(12, bold=True), fill=INK)
    names = {1: "1st", 2: "2nd", 3: "3rd"}
    for i, (rank, vp) in enumerate(tiles):
        draw.text((6, 22 + i * 16), f"{names.get(rank, rank)}: {vp} VP", font=font(12), fill=INK)
    return image
