"""A player's two sheets: the cached printed layer with that player's marks drawn over it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import WHITE, draw_marker, font, font_scale, player_name, scaled
from rendering.hadrians_wall.guides import attack_stacks, outline_moves
from rendering.hadrians_wall.icons import GOOD_ORDER, icon
from rendering.hadrians_wall.layout import (
    COLUMNS,
    FILL,
    HEAD,
    LOCKED,
    RIGHT_X,
    WIDTH,
    Rect,
    boxes,
    centre,
)
from rendering.hadrians_wall.printed import printed, printed_texts
from rendering.hadrians_wall.scaled import Canvas, ScaledDraw
from rules.hadrians_wall import components as c

RED = (170, 20, 20)
YEAR_INK = (20, 60, 160)


def _fill(draw: Canvas, rect: Rect, text: str = "") -> None:
    draw.rectangle((rect[0] + 2, rect[1] + 2, rect[2] - 2, rect[3] - 2), fill=FILL)
    if text:
        draw.text(centre(rect), text, font=font(13, bold=True), fill=WHITE, anchor="mm")


def _year(draw: Canvas, rect: Rect, year: int) -> None:
    """A '#' box with the Year written in it."""
    draw.rectangle((rect[0] + 2, rect[1] + 2, rect[2] - 2, rect[3] - 2), fill=(215, 228, 250))
    draw.text(centre(rect), f"Y{year}", font=font(13, bold=True), fill=YEAR_INK, anchor="mm")


def _lock(draw: Canvas, x0: int, x1: int, y0: int, y1: int) -> None:
    """Grey hatching over a granary column that is not open yet."""
    for x in range(x0 - (y1 - y0), x1, 10):
        draw.line((max(x, x0), y0 + max(0, x0 - x), min(x + (y1 - y0), x1),
                   y1 - max(0, x + (y1 - y0) - x1)), fill=LOCKED, width=2)


def _left(draw: Canvas, s: Mapping[str, Any]) -> None:
    g = boxes()
    for col in range(s["granary"], 3):
        x0, x1 = COLUMNS[col]
        _lock(draw, x0 + 2, x1 - 2, 158, 350)
        draw.rectangle((x0 + 2, 140, x1 - 2, 155), fill=(250, 220, 215))
        draw.text(((x0 + x1) / 2, 147), "LOCKED: needs the "
                  + ("medium" if col == 1 else "large") + " granary",
                  font=font(11, bold=True), fill=RED, anchor="mm")
    for i in range(3):
        for b in range(1, s["cohorts"][i] + 1):
            _fill(draw, g[("cohort", i, b)])
    for key in ("mining", "guard", "cippi", "wall", "fort"):
        for b in range(1, s[key] + 1):
            _fill(draw, g[(key, b)])
    for i in range(1, s["production"] + 1):
        r = g[("production", i)]
        draw.ellipse((r[0] + 2, r[1] + 2, r[2] - 2, r[3] - 2), fill=FILL)
    for i, year in enumerate(s["training"]):
        _year(draw, g[("training", i + 1)], year)
    for name in s["built"]:
        bkey = ("building:" + name, 0)
        # The right sheet's buildings get their tick in ``_right`` (one tick a box).
        if bkey in g and name.startswith(("granary", "hotel", "workshop", "road")):
            rect = g[bkey]
            draw.rectangle(rect, outline=(0, 150, 80), width=4)
            _built_mark(draw, rect[2], (rect[1] + rect[3]) / 2, 14)
    for i, year in enumerate(s["forum"]):
        _year(draw, g[("forum", i + 1)], year)
    for i, name in enumerate(c.LANDMARK_NAMES):
        if name in s["landmarks"]:
            rect = g[("landmark", i + 1)]
            draw.rectangle(rect, outline=(0, 150, 80), width=4)
    for a, attr in enumerate(c.ATTRIBUTES):
        for b in range(1, s["attributes"][attr] + 1):
            _fill(draw, g[("attr", a, b)])
        y = g[("attr", a, 1)][1]
        draw.text((150, y + 15), str(s["attributes"][attr]), font=font(16, bold=True),
                  fill=HEAD, anchor="rm")
    for i in range(1, s["disdain"] + 1):
        r = g[("disdain", i)]
        if i <= s["disdain_removed"]:
            draw.ellipse(r, fill=FILL, outline=RED, width=3)
        else:
            draw.ellipse(r, outline=RED, width=4)
    score = s["score"]
    rows = [("Renown", score["renown"]), ("Piety", score["piety"]), ("Valour", score["valour"]),
            ("Discipline", score["discipline"]), ("Path cards", score["paths"]),
            (f"Disdain ({score['disdain']})", score["disdain_penalty"]),
            ("Total", score["total"])]
    for i, (label, value) in enumerate(rows):
        x = 100 + (i % 4) * 190
        y = 824 + (i // 4) * 28
        bold = label == "Total"
        draw.text((x, y), f"{label}:", font=font(14, bold=bold), fill=(40, 40, 40), anchor="lm")
        draw.text((x + 150, y), f"{value:+d}" if label != "Total" else str(value),
                  font=font(16, bold=True), fill=HEAD if bold else (40, 40, 40), anchor="rm")


def _right(draw: Canvas, s: Mapping[str, Any]) -> None:
    g = boxes()
    for t, track in enumerate(c.CITIZENS):
        n = s["citizens"][track]
        for b in range(1, n + 1):
            _fill(draw, g[("citizen", t, b)])
        rect = g[("citizen", t, 1)]
        draw.text((rect[0] - 6, centre(rect)[1]), str(n), font=font(16, bold=True), fill=HEAD,
                  anchor="rm")
    for name in s["built"]:
        key = ("building:" + name, 0)
        if key in g and not name.startswith(("granary", "hotel", "workshop", "road")):
            rect = g[key]
            draw.rectangle(rect, outline=(0, 150, 80), width=4)
            _built_mark(draw, rect[2], (rect[1] + rect[3]) / 2, 12)
    for i, good in enumerate(s["market"]):
        if good:
            cx, cy = centre(g[("market", i + 1)])
            draw.regular_polygon((cx, cy, 16), 6, fill=FILL)
            draw.text((cx, cy), str(good), font=font(16, bold=True), fill=WHITE, anchor="mm")
    for i, year in enumerate(s["theatre"]):
        if year:
            _year(draw, g[("theatre", i + 1)], year)
    for gi, glad in enumerate(s["gladiators"]):
        for b in range(1, glad["strength"] + 1):
            rect = g[("gladiator", gi, b)]
            if b <= glad["damage"]:
                _fill(draw, rect)
            else:
                draw.ellipse((rect[0] + 3, rect[1] + 3, rect[2] - 3, rect[3] - 3), outline=RED,
                             width=3)
        for i, year in enumerate(glad["battles"]):
            rect = g[("battle", gi, i + 1)]
            draw.text(centre(rect), str(year), font=font(11, bold=True), fill=YEAR_INK,
                      anchor="mm")
        if glad["dead"]:
            rect = g[("gladiator", gi, 6)]
            draw.text((rect[2] + 6, centre(rect)[1]), "†", font=font(18, bold=True), fill=RED,
                      anchor="lm")
    for b in range(1, s["temple_boxes"] + 1):
        _fill(draw, g[("temple", b)])
    for i, year in enumerate(s["baths"]):
        if year:
            _year(draw, g[("baths", i + 1)], year)
    for col, years in enumerate(s["courthouse"]):
        for r, year in enumerate(years):
            _year(draw, g[("courthouse", col, r + 1)], year)
    for d, dip in enumerate(s["diplomats"]):
        rect = g[("diplomat", d + 1)]
        draw.rectangle((rect[0] + 2, rect[1] + 18, rect[2] - 2, rect[3] - 2), fill=(255, 236, 236))
        draw.text((rect[0] + 6, rect[3] - 10), f"{dip['cohort']} cohort", font=font(12, bold=True),
                  fill=RED, anchor="lm")
        for f in range(dip["favours"]):
            x = rect[2] - 36 + f * 16
            used = f < dip["used"]
            draw.ellipse((x, rect[3] - 18, x + 12, rect[3] - 6), fill=FILL if used else RED)
    for i in range(1, s["scouts"] + 1):
        _fill(draw, g[("scout", i)])
    for r in range(c.MAP_ROWS):
        for col in range(c.MAP_COLS):
            value = s["map"][r * c.MAP_COLS + col]
            if value:
                _fill(draw, g[("map", r, col)], f"S{value}")


def _header(draw: Canvas, view: Mapping[str, Any], s: Mapping[str, Any]) -> None:
    seat = int(s["seat"])
    draw.rectangle((0, 0, WIDTH, 58), fill=(45, 35, 30))
    raw, k = (draw.draw, draw.k) if isinstance(draw, ScaledDraw) else (draw, 1.0)
    with scaled(1.0):  # the marker is sized in pixels already
        draw_marker(raw, (32 * k, 29 * k), 19 * k, seat, outline=WHITE, width=round(2 * k))
    title = (f"{player_name(seat, f'Player {seat + 1}')}   Year {view['year']}/{view['years']} · "
             f"Picts: {view['difficulty']} · {s['status']}")
    draw.text((64, 29), title, font=font(24, bold=True), fill=WHITE, anchor="lm")
    x = 720
    for good in GOOD_ORDER:
        icon(draw, good, x, 29, 30)
        draw.text((x + 20, 29), str(s["hand"][good]), font=font(26, bold=True), fill=WHITE,
                  anchor="lm")
        x += 78
    x += 10
    envoy = sum(d["favours"] - d["used"] for d in s["diplomats"])
    draw.text((x, 29), f"Favours {s['temple_favours']}+{envoy}  Disdain {s['final_disdain']}",
              font=font(20, bold=True), fill=(255, 220, 160), anchor="lm")
    draw.text((WIDTH - 14, 29), f"Score {s['score']['total']}", font=font(26, bold=True),
              fill=WHITE, anchor="rm")


def _cards(draw: Canvas, view: Mapping[str, Any], s: Mapping[str, Any]) -> None:
    """Fate card, Prospect, Paths and (privately) the drawn cards, at the bottom right."""
    x, y = RIGHT_X + 500, 738
    lines: list[tuple[str, bool]] = []
    fate = view.get("fate_card")
    if fate:
        gains = ", ".join(f"{n} {g}{'s' if n > 1 else ''}" for g, n in fate["gains"].items()
                          if n)
        lines.append((f"Fate {fate['id']}: attack {fate['attack']}; {gains}", False))
    if s["prospect"]:
        lines.append((f"Prospect: {s['prospect']}", True))
    paths = [f"{p} {s['score'].get('path ' + p, 0)}VP" for p in s["paths"]]
    for i in range(0, len(paths), 3):
        lines.append((("Paths: " if i == 0 else "") + ", ".join(paths[i:i + 3]), False))
    private = view.get("private")
    if private and private["drawn"]:
        names = " / ".join(card["id"] for card in private["drawn"])
        chosen = f" (Path: {private['chosen']})" if private["chosen"] else ""
        lines.append((f"Drawn: {names}{chosen}", True))
    players = len(view["sheets"])
    seat = int(s["seat"])
    sides = [("left", (seat - 1) % players), ("right", (seat + 1) % players)]
    if players == 2:
        sides = [("neighbour", 1 - seat)]
    near = []
    for side, other in sides if players > 1 else []:
        card = view["sheets"][other]["prospect"]
        if card:
            near.append(f"{side} {player_name(other, f'Player {other + 1}')}: {card}")
    if near:
        lines.append(("Neighbours' prospects: " + ", ".join(near), False))
    neutral = [f"{n['id']} ({n['pattern']}, good {n['trade_good']})"
               for n in view.get("neutral", [])]
    if neutral:
        lines.append(("Neutral: " + ", ".join(neutral), False))
    room = (WIDTH - 14 - x) * font_scale()
    shown: list[tuple[str, bool]] = []
    for text, bold in lines:
        fnt = font(13, bold=bold)
        line = ""
        for word in text.split(" "):
            trial = f"{line} {word}".strip()
            if line and fnt.getlength(trial) > room:
                shown.append((line, bold))
                line = "  " + word
            else:
                line = trial if not line.startswith("  ") else f"{line} {word}"
        shown.append((line, bold))
    for i, (text, bold) in enumerate(shown[:8]):
        draw.text((x, y + i * 19), text, font=font(13, bold=bold), fill=(40, 40, 40),
                  anchor="lm")


def _built_mark(draw: Canvas, x: float, y: float, size: int) -> None:
    """A tick on a white disc, on the box's right edge: inside, it would cover the cost."""
    k = size * 0.6
    draw.ellipse((x - k, y - k, x + k, y + k), fill=WHITE)
    draw.text((x, y), "✓", font=font(size, bold=True), fill=(0, 120, 60), anchor="mm")


def render_sheets(view: Mapping[str, Any], scale: float = 1.0, outlines: bool = True,
                  header: bool = True, texts: list[tuple[float, float, float, float]] | None
                  = None) -> Image.Image:
    """Both sheets of the view's seat, ``scale`` times the layout size; ``outlines``: with a
    halo on each box a legal move fills; ``header``: with the band above the sheets (the
    parts and cut-outs, which leave it out, skip it); ``texts``: a list that gets the pixel
    box of every word on the picture."""
    seat = int(view["seat"])
    s = view["sheets"][seat]
    image = printed(scale).copy()
    draw = ScaledDraw(ImageDraw.Draw(image), scale, record=texts is not None)
    if texts is not None:
        texts.extend(printed_texts(scale))
    with scaled(scale):
        if header:
            _header(draw, view, s)
        _left(draw, s)
        _right(draw, s)
        _cards(draw, view, s)
        attack_stacks(draw, view)
        if outlines:
            outline_moves(draw, view, s)
    if texts is not None:
        texts.extend(draw.texts or [])
    return image
