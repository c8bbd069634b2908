"""A final score table in a game's own categories, legible at Discord's preview width.

One row per player, best first, with the rank (shared on a tie), the seat's marker and name, one
column per scoring category and the total; the tie-break rule is written under it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rendering.common import INK, MUTED, PAPER, draw_marker, font, player_name

WIDTH = 760
TEXT = 16  # reads at 11.6 px when 760 px are shown at 550


def wrap(text: str, width: float) -> list[str]:
    """``text`` in lines of at most ``width`` pixels of the table's text font."""
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and font(TEXT).getlength(trial) > width:
            out.append(line)
            line = word
        else:
            line = trial
    return [*out, line] if line else out


def fit(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels."""
    if fnt.getlength(text) <= width:
        return text
    while text and fnt.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def score_table(
    title: str,
    outcome: Mapping[str, Any],
    columns: Sequence[tuple[str, str]],
    rule: str,
    *,
    width: int = WIDTH,
    step: float = 78.0,
) -> Image.Image:
    """``columns`` are (heading, breakdown key); the total comes from ``outcome["scores"]``;
    ``step`` is the distance between columns, wider than the widest heading."""
    image = Image.new("RGB", (width, 200 + 40 * len(outcome["scores"]) + 200), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 52), fill=(45, 35, 30))
    draw.text((18, 26), title, font=font(21, bold=True), fill=(255, 255, 255), anchor="lm")
    y = 66
    total_x = width - 70
    first = total_x - 10 - step * len(columns)
    heads = [("#", 18), ("Player", 60)]
    heads += [(head, int(first + i * step)) for i, (head, _) in enumerate(columns)]
    heads.append(("Total", total_x))
    for head, x in heads:
        draw.text((x, y), head, font=font(TEXT, bold=True), fill=INK)
    y += 26
    draw.line((18, y, width - 18, y), fill=MUTED)
    y += 6
    for place, group in enumerate(outcome["ranking"], start=1):
        for seat in group:
            parts = outcome["breakdown"][seat]
            cy = y + 17
            draw.text((18, cy), str(place), font=font(TEXT + 2, bold=True), fill=INK,
                      anchor="lm")
            draw_marker(draw, (72, cy), 12, seat, label="")  # the name beside it says who
            name = fit(player_name(seat, f"Player {seat + 1}"), font(TEXT, bold=True),
                       first - 92 - 8)
            draw.text((92, cy), name, font=font(TEXT, bold=True), fill=INK, anchor="lm")
            for i, (_, key) in enumerate(columns):
                value = parts.get(key, 0)
                text = f"{value:+d}" if isinstance(value, int) and value < 0 else str(value)
                draw.text((first + i * step, cy), text, font=font(TEXT), fill=INK, anchor="lm")
            draw.text((total_x, cy), str(outcome["scores"][seat]),
                      font=font(TEXT + 2, bold=True), fill=INK, anchor="lm")
            y += 36
    y += 6
    for note in [rule, *(outcome.get("notes") or [])]:
        for line in wrap(note, width - 36):
            draw.text((18, y), line, font=font(TEXT), fill=MUTED)
            y += 22
    return image.crop((0, 0, width, y + 12))
