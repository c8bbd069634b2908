"""The public Year summary: the Fate card, Neutral cards, each player's progress and, after an
attack, the attack cards and each player's result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, WHITE, draw_marker, font, player_name
from rendering.hadrians_wall.icons import GOOD_ORDER, icon
from rendering.hadrians_wall.layout import FILL, HEAD, LINE
from rendering.scoretable import fit

WIDTH = 760
PAD = 18
ROW = 104
PHASES = {"choose": "Choosing Path cards", "actions": "Action phase",
          "attack": "Pict attack", "over": "Game over"}
ARROW_COLOUR = (190, 30, 30)
GOOD = (0, 120, 60)
WAITING = (160, 80, 0)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


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


SMALL_W, SMALL_H = 96, 112


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: Mapping[str, Any], big: bool) -> int:
    """A Fate card: arrow, gladiator damage, trade good and (when big) its gains."""
    w, h = (270, 176) if big else (SMALL_W, SMALL_H)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=WHITE, outline=LINE, width=2)
    draw.text((x + 8, y + 6), card["id"], font=font(16, bold=True), fill=INK)
    ax = x + (46 if big else w / 2)
    arrow(draw, ax, y + (58 if big else 50), card["attack"], 40 if big else 34)
    draw.text((ax, y + (94 if big else 86)), card["attack"], font=font(16, bold=True),
              fill=ARROW_COLOUR, anchor="mm")
    if big:
        draw.text((x + 96, y + 40), f"gladiators: {card['gladiator_damage']} damage",
                  font=font(16), fill=INK, anchor="lm")
        draw.text((x + 96, y + 66), f"trade good {card['trade_good']}", font=font(16),
                  fill=INK, anchor="lm")
        draw.text((x + 8, y + 114), "everyone gains:", font=font(16), fill=INK)
        gx = x + 22
        for good in GOOD_ORDER:
            icon(draw, good, gx, y + 152, 26)
            draw.text((gx + 16, y + 152), str(card["gains"][good]), font=font(18, bold=True),
                      fill=INK, anchor="lm")
            gx += 50
    return w


def _mini_cohorts(draw: ImageDraw.ImageDraw, x: int, y: int, cohorts: list[int]) -> None:
    for i, n in enumerate(cohorts):
        draw.text((x, y + i * 20 + 8), "LCR"[i], font=font(16, bold=True), fill=INK,
                  anchor="lm")
        for b in range(6):
            x0 = x + 18 + b * 14
            draw.rectangle((x0, y + i * 20 + 1, x0 + 11, y + i * 20 + 15),
                           fill=FILL if b < n else WHITE, outline=LINE)


def _status_chip(draw: ImageDraw.ImageDraw, x: int, y: int, status: str) -> None:
    done = status in ("chosen", "passed", "resolved", "finished")
    colour = GOOD if done else WAITING
    text = ("✓ " if done else "… ") + status
    draw.rounded_rectangle((x, y, x + 150, y + 28), radius=14, fill=colour)
    draw.text((x + 75, y + 14), text, font=font(16, bold=True), fill=WHITE, anchor="mm")


def _player_row(draw: ImageDraw.ImageDraw, y: int, s: Mapping[str, Any],
                result: Mapping[str, Any] | None, attack: bool) -> None:
    """Three lines: name, status and score; hand and cohorts; Disdain and favours; and, after
    an attack, a fourth with its result for the player (once known)."""
    seat = int(s["seat"])
    draw.rectangle((PAD - 6, y, WIDTH - PAD + 6, y + ROW - 8 + (26 if attack else 0)),
                   fill=(255, 253, 247), outline=(220, 210, 190))
    top, mid, low = y + 18, y + 48, y + 76
    draw_marker(draw, (PAD + 14, top), 14, seat, label="")  # the name beside it says who
    # The name gives way to the status chip at x 300.
    name = fit(player_name(seat, f"Player {seat + 1}"), font(18, bold=True), 300 - PAD - 36 - 10)
    draw.text((PAD + 36, top), name, font=font(18, bold=True), fill=INK, anchor="lm")
    _status_chip(draw, 300, top - 14, str(s["status"]))
    draw.text((WIDTH - PAD, top), f"Score {s['score']['total']}", font=font(20, bold=True),
              fill=HEAD, anchor="rm")
    x = PAD + 16
    for good in GOOD_ORDER:
        icon(draw, good, x, mid, 24)
        draw.text((x + 16, mid), str(s["hand"][good]), font=font(17, bold=True), fill=INK,
                  anchor="lm")
        x += 58
    draw.text((x + 10, mid), "on hand", font=font(16), fill=INK, anchor="lm")
    _mini_cohorts(draw, 520, y + 38, s["cohorts"])
    draw.text((632, mid + 2), "cohorts", font=font(16), fill=INK, anchor="lm")
    envoy = sum(d["favours"] - d["used"] for d in s["diplomats"])
    draw.text((PAD + 2, low), f"Disdain {s['final_disdain']} · favours {s['temple_favours']}"
              f" from temples, {envoy} from diplomats", font=font(16), fill=INK, anchor="lm")
    if result:
        ok = result["through"] == 0
        ignored = f", {len(result['ignored'])} ignored" if result["ignored"] else ""
        text = (f"{'held' if ok else str(result['through']) + ' through'}{ignored}: "
                f"+{result['valour']} Valour, +{result['disdain']} Disdain")
        draw.text((WIDTH - PAD, low + 26), text, font=font(16, bold=True),
                  fill=GOOD if ok else ARROW_COLOUR, anchor="rm")


def _wrapped(draw: ImageDraw.ImageDraw, x: int, y: int, parts: list[str], size: int,
             width: int, fill: tuple[int, int, int], bold: bool = True) -> int:
    """Parts joined by three spaces, broken between parts to fit ``width``; returns the y
    under the last line."""
    fnt = font(size, bold=bold)
    line = ""
    for part in parts:
        trial = f"{line}   {part}" if line else part
        if line and fnt.getlength(trial) > width:
            draw.text((x, y), line, font=fnt, fill=fill)
            y += size + 8
            line = part
        else:
            line = trial
    if line:
        draw.text((x, y), line, font=fnt, fill=fill)
        y += size + 8
    return y


def render_summary(view: Mapping[str, Any]) -> Image.Image:
    sheets = view["sheets"]
    attack = view.get("attack")
    image = Image.new("RGB", (WIDTH, 2400), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 56), fill=(45, 35, 30))
    draw.text((PAD, 28), f"Hadrian's Wall · Year {view['year']} of {view['years']} · "
              f"Picts: {view['difficulty']}", font=font(22, bold=True), fill=WHITE, anchor="lm")
    phase = PHASES.get(view["phase"], view["phase"])
    if view["phase"] != "over":
        phase += f": {view['progress']['label']}"
    draw.text((PAD, 74), phase, font=font(18, bold=True), fill=HEAD, anchor="lm")
    y = 96
    card = view.get("fate_card")
    x = PAD
    if card:
        draw.text((x, y), "Fate card of the Year", font=font(16, bold=True), fill=HEAD)
        _card(draw, x, y + 24, card, big=True)
        x += 290
    ty = y
    ty = _wrapped(draw, x, ty, [f"Year {view['year']}: grey flag {view['grey_flag']},",
                                f"{plural(view['attack_count'], 'attack card')} at the "
                                "end of the Year"], 16, WIDTH - PAD - x, HEAD)
    deck = view["fate_deck"]
    drawn = " ".join(c["id"] for c in view.get("fate_drawn") or [])
    ty = _wrapped(draw, x, ty, [f"Fate deck: {deck['draw']} to draw,",
                                f"{deck['discard']} discarded"]
                  + ([f"drawn this Year: {drawn}"] if drawn else []), 16, WIDTH - PAD - x, INK,
                  bold=False)
    for n in view.get("neutral") or []:
        ty = _wrapped(draw, x, ty + 4, [
            f"Neutral card {n['id']}: pattern {n['pattern']}, trade good {n['trade_good']};",
            f"on it {plural(n['resources'], 'resource')} and "
            f"{plural(n['soldiers'], 'soldier')} (extra attack cards)"],
            16, WIDTH - PAD - x, INK, bold=False)
    outcome = view.get("outcome")
    if outcome:
        places = []
        for place, group in enumerate(outcome["ranking"], start=1):
            names = " = ".join(
                f"{player_name(s, f'Player {s + 1}')} ({outcome['scores'][s]})" for s in group)
            places.append(f"{place}. {names}")
        ty = _wrapped(draw, x, ty + 6, ["Final:", *places], 18, WIDTH - PAD - x, INK)
        for note in outcome["notes"][:2]:
            ty = _wrapped(draw, x, ty, note.split(" "), 16, WIDTH - PAD - x, HEAD)
    y = max(ty, y + (204 if card else 0)) + 12
    results = attack["results"] if attack else [None] * len(sheets)
    for s in sheets:
        _player_row(draw, y, s, results[int(s["seat"])], bool(attack))
        y += ROW + (26 if attack else 0)
    if attack:
        y = _attack(draw, y + 8, attack)
    return image.crop((0, 0, WIDTH, y + 12))


def _attack(draw: ImageDraw.ImageDraw, y: int, attack: Mapping[str, Any]) -> int:
    cards = attack["cards"]
    counts = {d: sum(1 for c in cards if c["attack"] == d) for d in ("left", "center", "right")}
    state = "being resolved" if attack["resolving"] else "resolved"
    y = _wrapped(draw, PAD, y, [f"Year {attack['year']} Pict attack ({state}):",
                                f"{plural(len(cards), 'card')} ·",
                                f"left {counts['left']}, center {counts['center']}, "
                                f"right {counts['right']} ·", f"grey flag {attack['grey_flag']}"],
                 18, WIDTH - 2 * PAD, HEAD)
    per_row = (WIDTH - 2 * PAD + 8) // (SMALL_W + 8)
    for i, card in enumerate(cards):
        x = PAD + (i % per_row) * (SMALL_W + 8)
        _card(draw, x, y + (i // per_row) * (SMALL_H + 8), card, big=False)
    y += ((len(cards) + per_row - 1) // per_row) * (SMALL_H + 8)
    extra = sum(len(e) for e in attack["extra"])
    if extra:
        draw.text((PAD, y + 4), f"and {plural(extra, 'extra card')} for single players",
                  font=font(16), fill=INK)
        y += 28
    return y
