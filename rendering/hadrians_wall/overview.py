"""A player's overview: the first of their private images, legible at Discord's preview width.

The full sheets are too dense to read at 550 px, so this image carries what a player decides
with: what is on hand (in words), the Path choice (each card with the other card's Prospect
gain), what can be done now (the seat's legal moves, in the notation it types, one line per
area), rewards still to place, and the score by category. The two sheets follow it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, draw_marker, font, player_name
from rendering.hadrians_wall.icons import GOOD_ORDER, KEY_ORDER, icon, key_row
from rendering.hadrians_wall.layout import HEAD
from rendering.hadrians_wall.strip import render_strip

WIDTH = 760
TEXT = 16  # 16 px at 760 px reads at 11.6 px at 550 px
LINE = 24
PAD = 18
MAX_MOVES = 14
PLURAL = {"soldier": "soldiers", "builder": "builders", "servant": "servants",
          "civilian": "civilians", "resource": "resources"}


def _gain(gains: Mapping[str, int]) -> str:
    return ", ".join(f"+{n} {PLURAL[g] if n > 1 else g}" for g, n in gains.items() if n) or "none"


def _header(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], s: Mapping[str, Any]) -> int:
    seat = int(s["seat"])
    draw.rectangle((0, 0, WIDTH, 56), fill=(45, 35, 30))
    draw_marker(draw, (30, 28), 17, seat, outline=WHITE)
    draw.text((58, 28), f"{player_name(seat, f'Player {seat + 1}')} · Year {view['year']}/"
              f"{view['years']} · {s['status']}", font=font(20, bold=True), fill=WHITE,
              anchor="lm")
    draw.text((WIDTH - PAD, 28), f"Score {s['score']['total']}", font=font(22, bold=True),
              fill=WHITE, anchor="rm")
    return 70


def _hand(draw: ImageDraw.ImageDraw, s: Mapping[str, Any], y: int) -> int:
    draw.text((PAD, y), "On hand", font=font(TEXT + 2, bold=True), fill=HEAD)
    y += 30
    x = PAD
    for good in GOOD_ORDER:
        n = s["hand"][good]
        icon(draw, good, x + 14, y + 12, 28)
        label = f"{n} {PLURAL[good] if n != 1 else good}"
        draw.text((x + 34, y + 12), label, font=font(TEXT), fill=INK, anchor="lm")
        x += 146
    y += 34
    envoy = sum(d["favours"] - d["used"] for d in s["diplomats"])
    cohorts = " · ".join(f"{side} {n}/6" for side, n in zip(
        ("left", "center", "right"), s["cohorts"], strict=True))
    draw.text((PAD, y), f"Favours: {s['temple_favours']} temple + {envoy} diplomat · "
              f"Disdain {s['final_disdain']} · Cohorts {cohorts}", font=font(TEXT), fill=INK)
    return y + LINE + 8


def _paths(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> int:
    private = view.get("private") or {}
    drawn = private.get("drawn") or []
    if len(drawn) != 2:
        return y
    draw.text((PAD, y), "Your two cards: one is your Path, the other your Prospect",
              font=font(TEXT + 2, bold=True), fill=HEAD)
    y += 30
    for card, other in ((drawn[0], drawn[1]), (drawn[1], drawn[0])):
        chosen = private.get("chosen") == card["id"]
        mark = "✓ " if chosen else "• "
        text = (f"{mark}Path {card['id']} + Prospect {other['id']}: "
                f"{_gain(other['prospect_gain'])}")
        draw.text((PAD, y), text, font=font(TEXT, bold=chosen), fill=INK)
        y += LINE
    return y + 8


def _group(moves: list[str]) -> list[str]:
    """One line per area: the first move of each kind, with how many more of it there are."""
    order: list[str] = []
    by_kind: dict[str, list[str]] = {}
    for move in moves:
        kind = move.split(" ")[0].rstrip(":")
        if kind not in by_kind:
            order.append(kind)
        by_kind.setdefault(kind, []).append(move)
    lines = []
    for kind in order:
        group = by_kind[kind]
        more = f"   (+{len(group) - 1} more)" if len(group) > 1 else ""
        lines.append(group[0] + more)
    return lines


def _moves(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], s: Mapping[str, Any],
           y: int) -> int:
    moves = list((view.get("private") or {}).get("next") or [])
    if s.get("road_pending"):
        draw.text((PAD, y), f"Still to place: {s['road_pending']} road income "
                  "(+1 to an attribute each)", font=font(TEXT, bold=True), fill=(170, 30, 30))
        y += LINE + 6
    if not moves:
        text = "Nothing to do now: waiting for the others."
        outcome = view.get("outcome")
        if outcome:
            seat = int(s["seat"])
            place = next(i for i, group in enumerate(outcome["ranking"]) if seat in group) + 1
            text = f"The game is over: you finished #{place} of {len(view['sheets'])}."
        draw.text((PAD, y), text, font=font(TEXT), fill=MUTED)
        return y + LINE + 8
    draw.text((PAD, y), "You can do now (/move offers every move as you type)",
              font=font(TEXT + 2, bold=True), fill=HEAD)
    y += 30
    lines = _group(moves)
    for line in lines[:MAX_MOVES]:
        draw.text((PAD + 8, y), line[:78], font=font(TEXT), fill=INK)
        y += LINE
    if len(lines) > MAX_MOVES:
        draw.text((PAD + 8, y), f"… and {len(lines) - MAX_MOVES} more areas", font=font(TEXT),
                  fill=MUTED)
        y += LINE
    return y + 8


SCORE_ROWS = (("Renown", "renown"), ("Piety", "piety"), ("Valour", "valour"),
              ("Discipline", "discipline"), ("Paths", "paths"), ("Disdain", "disdain_penalty"))


def _score(draw: ImageDraw.ImageDraw, s: Mapping[str, Any], y: int) -> int:
    draw.text((PAD, y), "Score so far", font=font(TEXT + 2, bold=True), fill=HEAD)
    y += 30
    score = s["score"]
    step = (WIDTH - 2 * PAD) / (len(SCORE_ROWS) + 1)
    for i, (label, key) in enumerate((*SCORE_ROWS, ("Total", "total"))):
        x = PAD + i * step
        draw.text((x, y), label, font=font(TEXT), fill=MUTED)
        value = score[key]
        text = str(value) if key == "total" else f"{value:+d}"
        draw.text((x, y + 22), text, font=font(TEXT + 4, bold=True), fill=INK)
    return y + 56


MAX_HEIGHT = 2 * WIDTH  # 1,100 px tall at most in the 550 px preview


def _strip(view: Mapping[str, Any], room: int) -> Image.Image | None:
    """The boxes the seat can fill now under a heading, at most ``room`` px tall."""
    strip = render_strip(view, WIDTH - 2 * PAD, room - 34)
    if strip is None or strip.height == 0:
        return None
    image = Image.new("RGB", (WIDTH, strip.height + 42), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, 0), "Boxes you can fill now, outlined in orange", font=font(TEXT + 2,
              bold=True), fill=HEAD)
    image.paste(strip, (PAD, 32))
    return image


def _bottom(view: Mapping[str, Any], s: Mapping[str, Any]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, 600), PAPER)
    draw = ImageDraw.Draw(image)
    y = _score(draw, s, 0)
    draw.text((PAD, y), "Icons on your sheets", font=font(TEXT + 2, bold=True), fill=HEAD)
    rewards = tuple(name for name in KEY_ORDER if name not in GOOD_ORDER)
    y = int(key_row(draw, rewards, PAD, y + 44, 26, TEXT, INK, WIDTH - PAD)) + 24
    draw.text((PAD, y), "Your two sheets in full: the sheet buttons under this image.",
              font=font(TEXT), fill=MUTED)
    return image.crop((0, 0, WIDTH, y + LINE + 6))


def render_overview(view: Mapping[str, Any]) -> Image.Image:
    """What the seat decides with, and the boxes it can fill now, in one image at most
    twice as tall as wide."""
    s = view["sheets"][int(view["seat"])]
    image = Image.new("RGB", (WIDTH, MAX_HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    y = _header(draw, view, s)
    y = _hand(draw, s, y)
    y = _paths(draw, view, y)
    y = _moves(draw, view, s, y)
    bottom = _bottom(view, s)
    strip = _strip(view, MAX_HEIGHT - y - bottom.height)
    if strip is not None:
        image.paste(strip, (0, y))
        y += strip.height
    image.paste(bottom, (0, y))
    return image.crop((0, 0, WIDTH, y + bottom.height))
