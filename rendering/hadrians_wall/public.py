"""The public overview: the first image of the channel's view, legible at preview size.

The Year summary (1280 px) holds everything but reads at about 5 px in Discord's preview, so
this 760 px image comes first with what the table asks at a glance: the Year, whose move it
is, the Fate card, the coming attack, and per player the status, cohorts (how many boxes of
6 are filled), Disdain, favours and score, and the last attack's result. The full summary
follows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, draw_marker, font, player_name
from rendering.hadrians_wall.layout import HEAD
from rendering.scoretable import fit

WIDTH = 760
TEXT = 16  # reads at 11.6 px at 550 px
PAD = 18
ROW = 58
GOOD = (0, 120, 60)
BAD = (190, 30, 30)
DRAWN_SHOWN = 2


def _gains(gains: Mapping[str, int]) -> str:
    return ", ".join(f"+{n} {g}{'s' if n > 1 else ''}" for g, n in gains.items() if n) or (
        "nothing")


def _header(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> int:
    draw.rectangle((0, 0, WIDTH, 56), fill=(45, 35, 30))
    draw.text((PAD, 28), f"Hadrian's Wall · Year {view['year']} of {view['years']}",
              font=font(22, bold=True), fill=WHITE, anchor="lm")
    phase = {"choose": "choosing Paths", "actions": "actions", "attack": "Pict attack",
             "over": "game over"}.get(str(view["phase"]), str(view["phase"]))
    draw.text((WIDTH - PAD, 28), f"{phase}: {view['progress']['label']}",
              font=font(TEXT, bold=True), fill=(255, 220, 160), anchor="rm")
    y = 68
    fate = view.get("fate_card")
    if fate:
        draw.text((PAD, y), f"Fate card {fate['id']}: trade good {fate['trade_good']} · "
                  f"gladiator damage {fate['gladiator_damage']}", font=font(TEXT), fill=INK)
        y += 26
        draw.text((PAD, y), f"Everyone gains {_gains(fate['gains'])}", font=font(TEXT),
                  fill=INK)
        y += 26
    drawn = view.get("fate_drawn") or []
    if drawn:
        # Drawn for a Market purchase or a battle, face up for all (the latest two fit).
        shown = ", ".join(f"{c['id']} (good {c['trade_good']}, damage {c['gladiator_damage']})"
                          for c in drawn[-DRAWN_SHOWN:])
        more = f" and {len(drawn) - DRAWN_SHOWN} before" if len(drawn) > DRAWN_SHOWN else ""
        draw.text((PAD, y), f"Drawn this Year: {shown}{more}", font=font(TEXT), fill=INK)
        y += 26
    draw.text((PAD, y), f"End of Year {view['year']}: {view['attack_count']} attack cards, "
              f"grey flag {view['grey_flag']}", font=font(TEXT, bold=True), fill=HEAD)
    return y + 34


def _row(draw: ImageDraw.ImageDraw, y: int, s: Mapping[str, Any],
         result: Mapping[str, Any] | None, active: bool) -> None:
    seat = int(s["seat"])
    fill = (255, 246, 220) if active else (255, 253, 247)
    draw.rectangle((PAD - 6, y, WIDTH - PAD + 6, y + ROW - 6), fill=fill, outline=(220, 210, 190))
    top, bottom = y + 16, y + 38
    draw_marker(draw, (PAD + 20, y + (ROW - 6) / 2), 17, seat)
    # The name gives way to the cohorts at x 250.
    draw.text((PAD + 46, top), fit(player_name(seat, f"Player {seat + 1}"),
                                   font(TEXT + 1, bold=True), 250 - PAD - 46 - 12),
              font=font(TEXT + 1, bold=True), fill=INK, anchor="lm")
    draw.text((PAD + 46, bottom), str(s["status"]), font=font(TEXT),
              fill=HEAD if active else MUTED, anchor="lm")
    cohorts = " · ".join(f"{side} {n}" for side, n in zip(
        ("left", "center", "right"), s["cohorts"], strict=True))
    envoy = sum(d["favours"] - d["used"] for d in s["diplomats"])
    draw.text((250, top), f"Cohorts {cohorts}", font=font(TEXT), fill=INK, anchor="lm")
    draw.text((250, bottom), f"Disdain {s['final_disdain']} · favours "
              f"{s['temple_favours'] + envoy}", font=font(TEXT), fill=INK, anchor="lm")
    draw.text((WIDTH - PAD, top), f"Score {s['score']['total']}", font=font(TEXT + 2, bold=True),
              fill=HEAD, anchor="rm")
    if result:
        held = result["through"] == 0
        text = "held" if held else f"{result['through']} through"
        draw.text((WIDTH - PAD, bottom), f"last attack: {text}", font=font(TEXT),
                  fill=GOOD if held else BAD, anchor="rm")


def render_public(view: Mapping[str, Any]) -> Image.Image:
    sheets = view["sheets"]
    image = Image.new("RGB", (WIDTH, 200 + ROW * len(sheets) + 120), PAPER)
    draw = ImageDraw.Draw(image)
    y = _header(draw, view)
    attack = view.get("attack")
    results = attack["results"] if attack else [None] * len(sheets)
    if attack:
        hits = {side: sum(1 for c in attack["cards"] if c["attack"] == side)
                for side in ("left", "center", "right")}
        where = ", ".join(f"{side} {n}" for side, n in hits.items())
        draw.text((PAD, y), f"Year {attack['year']} Pict attack: {where}",
                  font=font(TEXT, bold=True), fill=INK)
        y += 30
    active = set(view.get("active") or ())
    for s, result in zip(sheets, results, strict=True):
        _row(draw, y, s, result, int(s["seat"]) in active)
        y += ROW
    y += 6
    draw.text((PAD, y), "Cohorts: boxes filled of 6 on each side. The Year summary: the "
              "button below.", font=font(TEXT), fill=MUTED)
    return image.crop((0, 0, WIDTH, y + 30))
