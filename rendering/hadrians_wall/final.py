"""The end-of-game score table. Each player takes two lines, the name (whole, up to the name
limit) over the scores, so that names are not cut short and every category keeps its full
heading, each column as wide as its heading or widest number plus a gap."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, draw_marker, font, player_name
from rendering.scoretable import TEXT, WIDTH, fit, wrap

PAD = 18
COLUMNS = (("Renown", "renown"), ("Piety", "piety"), ("Valour", "valour"),
           ("Discipline", "discipline"), ("Path cards", "paths"), ("Disdain", "disdain_penalty"))
TIE_RULE = ("Ties: less final Disdain wins, then more Path card points; otherwise the tied "
            "players share the place. Disdain is the penalty for the final Disdain count.")


def _columns(outcome: Mapping[str, Any]) -> list[tuple[str, str, float]]:
    """(heading, key, x) for each category and the total: measured, then spread evenly over
    what is left of the width, so that no two headings touch."""
    heads = [*COLUMNS, ("Total", "")]
    widths = []
    for head, key in heads:
        values = [str(outcome["scores"][s]) if not key else str(b.get(key, 0))
                  for s, b in enumerate(outcome["breakdown"])]
        widths.append(max(font(TEXT, bold=True).getlength(v) for v in [head, *values]))
    left = 60.0
    gap = (WIDTH - PAD - left - sum(widths)) / (len(heads) - 1)
    out = []
    x = left
    for (head, key), w in zip(heads, widths, strict=True):
        out.append((head, key, x))
        x += w + gap
    return out


def final_table(view: Mapping[str, Any]) -> Image.Image:
    """Every category of the score sheet, ranks (shared on a tie) and the tie-break rule."""
    outcome = view["outcome"]
    columns = _columns(outcome)
    image = Image.new("RGB", (WIDTH, 200 + 64 * len(outcome["scores"]) + 200), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 52), fill=(45, 35, 30))
    draw.text((PAD, 26), "Hadrian's Wall · final scores", font=font(21, bold=True), fill=WHITE,
              anchor="lm")
    y = 66
    draw.text((PAD, y), "#", font=font(TEXT, bold=True), fill=INK)
    draw.text((60, y), "Player", font=font(TEXT, bold=True), fill=MUTED)
    y += 24
    for head, _, x in columns:
        draw.text((x, y), head, font=font(TEXT, bold=True), fill=INK)
    y += 26
    draw.line((PAD, y, WIDTH - PAD, y), fill=MUTED)
    y += 8
    for place, group in enumerate(outcome["ranking"], start=1):
        for seat in group:
            parts = outcome["breakdown"][seat]
            draw.text((PAD, y + 12), str(place), font=font(TEXT + 2, bold=True), fill=INK,
                      anchor="lm")
            draw_marker(draw, (72, y + 12), 12, seat, label="")  # the name beside it says who
            name = fit(player_name(seat, f"Player {seat + 1}", limit=32), font(TEXT, bold=True),
                       WIDTH - PAD - 92)
            draw.text((92, y + 12), name, font=font(TEXT, bold=True), fill=INK, anchor="lm")
            y += 28
            for _, key, x in columns:
                value = parts.get(key, 0) if key else outcome["scores"][seat]
                text = f"{value:+d}" if isinstance(value, int) and value < 0 else str(value)
                draw.text((x, y + 11), text, font=font(TEXT, bold=not key), fill=INK,
                          anchor="lm")
            y += 30
            draw.line((60, y, WIDTH - PAD, y), fill=(220, 214, 200))
            y += 6
    y += 4
    for note in [TIE_RULE, *(outcome.get("notes") or [])]:
        for line in wrap(note, WIDTH - 2 * PAD):
            draw.text((PAD, y), line, font=font(TEXT), fill=MUTED)
            y += 22
    return image.crop((0, 0, WIDTH, y + 12))
