"""The public Year summary: the Fate card, Neutral cards, each player's progress and, after an
attack, the attack cards and each player's result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, WHITE, draw_marker, font, player_name
from rendering.hadrians_wall.icons import GOOD_ORDER, icon
from rendering.hadrians_wall.layout import FILL, HEAD, LINE

WIDTH = 1280
ROW = 62
PHASES = {"choose": "Choosing Path cards", "actions": "Action phase",
          "attack": "Pict attack", "over": "Game over"}
ARROW_COLOUR = (200, 40, 40)
GOOD = (0, 140, 70)


def arrow(draw: ImageDraw.ImageDraw, cx: float, cy: float, direction: str, size: int) -> None:
    """An attack arrow: left, up (center) or right, with its letter beside it."""
    s = size / 2
    if direction == "left":
        pts = [(cx - s, cy), (cx, cy - s), (cx, cy - s / 2.5), (cx + s, cy - s / 2.5),
               (cx + s, cy + s / 2.5), (cx, cy + s / 2.5), (cx, cy + s)]
    elif direction == "right":
        pts = [(cx + s, cy), (cx, cy - s), (cx, cy - s / 2.5), (cx - s, cy - s / 2.5),
               (cx - s, cy + s / 2.5), (cx, cy + s / 2.5), (cx, cy + s)]
    else:
        pts = [(cx, cy - s), (cx + s, cy), (cx + s / 2.5, cy), (cx + s / 2.5, cy + s),
               (cx - s / 2.5, cy + s), (cx - s / 2.5, cy), (cx - s, cy)]
    draw.polygon(pts, fill=ARROW_COLOUR)


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: Mapping[str, Any], big: bool) -> int:
    """A Fate card: arrow, gladiator damage, trade good and (when big) its gains."""
    w, h = (250, 170) if big else (74, 96)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=WHITE, outline=LINE, width=2)
    draw.text((x + 8, y + 6), card["id"], font=font(14 if big else 11, bold=True), fill=INK)
    arrow(draw, x + (46 if big else w / 2), y + (56 if big else 44), card["attack"],
          44 if big else 34)
    draw.text((x + (46 if big else w / 2), y + (90 if big else 76)), card["attack"],
              font=font(13 if big else 11, bold=True), fill=ARROW_COLOUR, anchor="mm")
    if big:
        draw.text((x + 100, y + 40), f"gladiator damage {card['gladiator_damage']}",
                  font=font(14), fill=INK, anchor="lm")
        draw.text((x + 100, y + 66), f"trade good {card['trade_good']}", font=font(14),
                  fill=INK, anchor="lm")
        gx = x + 22
        for good in GOOD_ORDER:
            n = card["gains"][good]
            icon(draw, good, gx, y + 140, 26)
            draw.text((gx + 16, y + 140), str(n), font=font(18, bold=True), fill=INK,
                      anchor="lm")
            gx += 46
        draw.text((x + 8, y + 108), "everyone gains:", font=font(12), fill=INK)
    return w


def _mini_cohorts(draw: ImageDraw.ImageDraw, x: int, y: int, cohorts: list[int]) -> None:
    for i, n in enumerate(cohorts):
        draw.text((x, y + i * 15 + 6), "LCR"[i], font=font(11, bold=True), fill=INK,
                  anchor="lm")
        for b in range(6):
            x0 = x + 12 + b * 12
            draw.rectangle((x0, y + i * 15, x0 + 10, y + i * 15 + 11),
                           fill=FILL if b < n else WHITE, outline=LINE)


def _status_chip(draw: ImageDraw.ImageDraw, x: int, y: int, status: str) -> None:
    done = status in ("chosen", "passed", "resolved", "finished")
    colour = GOOD if done else (200, 120, 0)
    text = ("✓ " if done else "… ") + status
    draw.rounded_rectangle((x, y, x + 150, y + 30), radius=14, fill=colour)
    draw.text((x + 75, y + 15), text, font=font(15, bold=True), fill=WHITE, anchor="mm")


def _player_row(draw: ImageDraw.ImageDraw, y: int, s: Mapping[str, Any],
                result: Mapping[str, Any] | None) -> None:
    seat = int(s["seat"])
    draw.rectangle((16, y, WIDTH - 16, y + ROW - 6), fill=(255, 253, 247),
                   outline=(220, 210, 190))
    cy = y + (ROW - 6) / 2
    draw_marker(draw, (46, cy), 19, seat)
    # Ten characters fit before the status chip.
    draw.text((78, cy), player_name(seat, f"Player {seat + 1}", 10), font=font(18, bold=True),
              fill=INK, anchor="lm")
    _status_chip(draw, 200, int(cy - 15), str(s["status"]))
    x = 370
    for good in GOOD_ORDER:
        icon(draw, good, x, cy, 22)
        draw.text((x + 14, cy), str(s["hand"][good]), font=font(17, bold=True), fill=INK,
                  anchor="lm")
        x += 50
    _mini_cohorts(draw, 630, int(cy - 22), s["cohorts"])
    draw.text((740, cy - 12), f"Disdain {s['final_disdain']}", font=font(14), fill=INK,
              anchor="lm")
    envoy = sum(d["favours"] - d["used"] for d in s["diplomats"])
    draw.text((740, cy + 12), f"Favours {s['temple_favours']} + {envoy} dipl.", font=font(14),
              fill=INK, anchor="lm")
    draw.text((910, cy), f"Score {s['score']['total']}", font=font(20, bold=True), fill=HEAD,
              anchor="lm")
    if result:
        ok = result["through"] == 0
        ignored = f", {len(result['ignored'])} ignored" if result["ignored"] else ""
        head = f"{'held' if ok else 'breached'}: {result['through']} through{ignored}"
        text = f"+{result['valour']} Valour, +{result['disdain']} Disdain"
        draw.text((1030, cy - 10), head, font=font(13, bold=True),
                  fill=GOOD if ok else ARROW_COLOUR, anchor="lm")
        draw.text((1030, cy + 12), text, font=font(12), fill=INK, anchor="lm")


def render_summary(view: Mapping[str, Any]) -> Image.Image:
    sheets = view["sheets"]
    attack = view.get("attack")
    height = 320 + ROW * len(sheets) + (170 if attack else 0) + 20
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 64), fill=(45, 35, 30))
    draw.text((20, 32), f"Hadrian's Wall · Year {view['year']} of {view['years']} · "
              f"{view['difficulty']}", font=font(28, bold=True), fill=WHITE, anchor="lm")
    phase = PHASES.get(view["phase"], view["phase"])
    if view["phase"] != "over":
        phase += f": {view['progress']['label']}"
    draw.text((WIDTH - 20, 32), phase,
              font=font(24, bold=True), fill=(255, 220, 160), anchor="rm")
    y = 80
    card = view.get("fate_card")
    draw.text((20, y + 4), "Fate card of the Year", font=font(15, bold=True), fill=HEAD)
    if card:
        _card(draw, 20, y + 28, card, big=True)
    x = 300
    draw.text((x, y + 4), f"Year {view['year']}: grey flag {view['grey_flag']} · "
              f"{view['attack_count']} attack card(s) at the end of the Year",
              font=font(15, bold=True), fill=HEAD)
    neutral = view.get("neutral") or []
    if neutral:
        draw.text((x, y + 34), "Neutral cards:", font=font(14, bold=True), fill=INK)
        for i, n in enumerate(neutral):
            nx = x + 120 + i * 270
            draw.rounded_rectangle((nx, y + 28, nx + 255, y + 80), radius=6, fill=WHITE,
                                   outline=LINE)
            draw.text((nx + 8, y + 40), f"{n['id']}: pattern {n['pattern']}, good "
                      f"{n['trade_good']}", font=font(13, bold=True), fill=INK, anchor="lm")
            draw.text((nx + 8, y + 64), f"on it: {n['resources']} Rs, {n['soldiers']} Sd "
                      "(= extra attack cards)", font=font(12), fill=INK, anchor="lm")
    deck = view["fate_deck"]
    drawn = " ".join(c["id"] for c in view.get("fate_drawn") or [])
    draw.text((x, y + 100), f"Fate deck: {deck['draw']} to draw, {deck['discard']} discarded"
              + (f"; drawn this Year: {drawn}" if drawn else ""), font=font(14), fill=INK)
    outcome = view.get("outcome")
    if outcome:
        places = []
        for place, group in enumerate(outcome["ranking"], start=1):
            names = " = ".join(
                f"{player_name(s, f'P{s + 1}')} ({outcome['scores'][s]})" for s in group
            )
            places.append(f"{place}. {names}")
        draw.text((x, y + 124), "Final: " + "   ".join(places), font=font(20, bold=True),
                  fill=INK)
        for i, note in enumerate(outcome["notes"][:2]):
            draw.text((x, y + 156 + i * 24), note, font=font(18, bold=True), fill=HEAD)
    else:
        draw.text((x, y + 124), f"Progress: {view['progress']['label']}",
                  font=font(22, bold=True), fill=INK)
    y = 290
    heads = ((20, "Player"), (200, "Status"), (360, "Workers and resources on hand"),
             (626, "Cohorts"), (740, "Disdain, favours"), (910, "Score"))
    for hx, text in heads:
        draw.text((hx, y + 8), text, font=font(12, bold=True), fill=HEAD, anchor="lm")
    if attack:
        draw.text((1030, y + 8), f"Year {attack['year']} attack", font=font(12, bold=True),
                  fill=HEAD, anchor="lm")
    y = 310
    results = attack["results"] if attack else [None] * len(sheets)
    for s in sheets:
        _player_row(draw, y, s, results[int(s["seat"])])
        y += ROW
    if attack:
        _attack(draw, y + 8, attack)
    return image


def _attack(draw: ImageDraw.ImageDraw, y: int, attack: Mapping[str, Any]) -> None:
    cards = attack["cards"]
    counts = {d: sum(1 for c in cards if c["attack"] == d) for d in ("left", "center", "right")}
    state = "being resolved" if attack["resolving"] else "resolved"
    draw.text((20, y), f"Year {attack['year']} Pict attack ({state}): {len(cards)} card(s) · "
              f"left {counts['left']}, center {counts['center']}, right {counts['right']} · "
              f"grey flag {attack['grey_flag']}", font=font(16, bold=True), fill=HEAD)
    x = 20
    for card in cards[:15]:
        x += _card(draw, x, y + 28, card, big=False) + 8
    extra = sum(len(e) for e in attack["extra"])
    if len(cards) > 15 or extra:
        more = f"+{len(cards) - 15} more" if len(cards) > 15 else ""
        more += f"  {extra} extra card(s) for single players" if extra else ""
        draw.text((x + 6, y + 76), more.strip(), font=font(13), fill=INK, anchor="lm")
