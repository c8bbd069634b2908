"""The printed (static) layer of a player's two sheets, drawn once and cached."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, font, font_scale, record_font_sizes, scaled
from rendering.fonts import unseen
from rendering.hadrians_wall.icons import KEY_ORDER, icon, icons_in, recording
from rendering.hadrians_wall.layout import (
    ATTR_STEP,
    ATTR_TOP,
    BUILDING_TEXT,
    CITIZEN_STEP,
    CITIZEN_TOP,
    COLUMNS,
    FAINT,
    FAINT_TEXT,
    FLAG,
    HEAD,
    HEIGHT,
    LEFT_X,
    LINE,
    PAPER_SHEET,
    RIGHT_X,
    SHEET_TOP,
    TRACK_ROWS,
    WIDTH,
    Colour,
    Rect,
    boxes,
    centre,
)
from rendering.hadrians_wall.scaled import Canvas, ScaledDraw
from rules.hadrians_wall import components as c


def _label(draw: Canvas, xy: tuple[float, float], text: str, size: int = 14,
           bold: bool = True, fill: tuple[int, int, int] = INK, anchor: str = "lm") -> None:
    draw.text(xy, text, font=font(size, bold=bold), fill=fill, anchor=anchor)


def _fitted(draw: Canvas, xy: tuple[float, float], text: str, size: int,
            width: float) -> None:
    """A bold label at ``size`` or smaller, so that it fits ``width`` (never clipped)."""
    while size > 10 and font(size, bold=True).getlength(text) > width * font_scale():
        size -= 1
    _label(draw, xy, text, size)


def _cost(draw: Canvas, x: float, y: float, cost: dict[str, int], size: int,
          prefix: str = "", room: float | None = None) -> float:
    """A cost as an icon per worker or resource, after its count when more than one, after
    ``prefix``: the icons say what letters would abbreviate. The icons shrink (the numbers
    keep their size) to fit ``room`` when given. Returns the end x."""
    fnt = font(size, bold=True)

    def length(text: str) -> float:
        return fnt.getlength(text) / font_scale()

    words = (length(prefix) + 4 if prefix else 0) + sum(
        length(str(n)) + 1 for n in cost.values() if n > 1)
    step = size * 1.2 + 2  # one icon and the gap after it
    if room is not None and cost and words + step * len(cost) > room:
        step = max(size * 0.9, (room - words) / len(cost))
    half = (step - 2) / 2
    if prefix:
        _label(draw, (x, y), prefix, size)
        x += length(prefix) + 4
    for good, n in cost.items():
        if n > 1:  # an icon alone is one of it
            _label(draw, (x, y), str(n), size)
            x += length(str(n)) + 1
        x += half
        icon(draw, good, x, y, round(half * 2 + 1))
        x += half + 2  # tight: the narrow building boxes hold three goods
    return x


def _box(draw: Canvas, rect: Rect, width: int = 2) -> None:
    draw.rectangle(rect, fill=(255, 255, 255), outline=LINE, width=width)


def _panel(draw: Canvas, x: int, title: str) -> None:
    draw.rounded_rectangle((x, SHEET_TOP, x + 888, HEIGHT - 8), radius=10, fill=PAPER_SHEET,
                           outline=HEAD, width=3)
    _label(draw, (x + 12, SHEET_TOP + 14), title, 15, fill=HEAD)


def _left(draw: Canvas) -> None:
    g = boxes()
    _panel(draw, LEFT_X, "LEFT SHEET")
    for i, name in enumerate(c.COHORTS):
        x0, x1 = COLUMNS[i]
        _label(draw, ((x0 + x1) / 2, 90), f"{name} cohort", 12, anchor="mm")
        for b in range(1, 7):
            rect = g[("cohort", i, b)]
            _box(draw, rect)
            icons_in(draw, c.COHORT_REWARDS[b], rect, 18)
    _label(draw, (16, 114), "Cohorts")
    for i, (x0, x1) in enumerate(COLUMNS):
        name = ("Small", "Medium", "Large")[i]
        draw.rectangle((x0 + 2, 140, x1 - 2, 155), fill=(235, 225, 200))
        _label(draw, ((x0 + x1) / 2, 147), f"{name} granary column", 11, anchor="mm")
        if i:
            draw.line((x0, 140, x0, 352), fill=HEAD, width=3)
    labels = {"mining": ("Mining", "servant"), "guard": ("Wall Guard", "soldier"),
              "cippi": ("Cippi", "resource"), "wall": ("Wall", "resource"),
              "fort": ("Fort", "builder")}
    for key, y in TRACK_ROWS.items():
        name, worker = labels[key]
        _label(draw, (16, y + 14), name, 13)
        end = _cost(draw, 104, y + 14, {worker: 1}, 12)
        if key == "fort":  # a builder or a soldier
            _label(draw, (end - 2, y + 14), "/", 12)
            icon(draw, "soldier", end + 8, y + 14, 15)
    for key, track in c.TRACKS.items():
        for b in range(1, track.length + 1):
            rect = g[(key, b)]
            _box(draw, rect)
            icons_in(draw, track.rewards[b], rect)
    for i in range(1, 8):
        x0, _y0, x1, y1 = g[("cippi", i)]
        draw.text((x1 + 2, y1 - 2), f"F{c.CIPPI_LINKS[i]}", font=font(10), fill=FAINT_TEXT,
                  anchor="ls")
    for b in range(1, 22):
        wx = (g[("wall", b)][0] + g[("wall", b)][2]) / 2
        draw.line((wx, g[("wall", b)][3], wx, g[("fort", b)][1]), fill=FAINT, width=2)
        if b in c.FORT_INFRA:
            x0, _, x1, y1 = g[("fort", b)]
            draw.polygon([(x0 + 4, y1 + 2), (x1 - 4, y1 + 2), ((x0 + x1) / 2, y1 + 14)],
                         fill=FLAG)
            draw.text(((x0 + x1) / 2, y1 + 6), str(c.FORT_INFRA[b]), font=font(10, bold=True),
                      fill=(255, 255, 255), anchor="mm")
    _label(draw, (16, 398), "Production", 13)
    for i in range(1, 10):
        draw.ellipse(g[("production", i)], fill=(255, 255, 255), outline=LINE, width=2)
        icon(draw, "resource", *centre(g[("production", i)]), 12)
    _cost(draw, 480, 398, {"builder": 1}, 13, "Training")
    for i in range(1, 6):
        rect = g[("training", i)]
        _box(draw, rect)
        icon(draw, "sword", rect[0] + 14, rect[1] + 14, 18)
        _label(draw, (rect[2] - 12, rect[1] + 14), "#", 12, fill=FAINT_TEXT, anchor="mm")
    _label(draw, (16, 426), "Buildings (need Infrastructure)", 12, fill=HEAD)
    for name in ("granary_medium", "granary_large", "hotel_small", "hotel_large",
                 "workshop_small", "workshop_large", "road_small", "road_large"):
        building = c.BUILDINGS[name]
        rect = g[("building:" + name, 0)]
        _box(draw, rect)
        _fitted(draw, (rect[0] + 4, rect[1] + 10), BUILDING_TEXT[name], 11, rect[2] - rect[0] - 8)
        infra = building.requires.get("infrastructure", 0)
        _cost(draw, rect[0] + 4, rect[1] + 24, building.cost, 10, f"≥{infra}:")
        gains = [*building.reward, *building.choice]
        _label(draw, (rect[0] + 4, rect[1] + 36), "+ " + ", ".join(gains) if gains else "",
               10, bold=False, fill=FAINT_TEXT)
    _label(draw, (16, 514), "Forum 2 → 1", 13)
    for i in range(1, 5):
        rect = g[("forum", i)]
        _box(draw, rect)
        _label(draw, (rect[2] - 10, rect[1] + 14), "#", 12, fill=FAINT_TEXT, anchor="mm")
    for i, name in enumerate(c.LANDMARK_NAMES):
        attr, need, bonus = c.LANDMARKS[name]
        rect = g[("landmark", i + 1)]
        _box(draw, rect)
        _label(draw, (rect[0] + 4, rect[1] + 11), name.capitalize(), 11)
        _label(draw, (rect[0] + 4, rect[1] + 28), f"{attr[:3]} {need} → 2 {bonus[0][:3]}", 10,
               bold=False)
    for a, attr in enumerate(c.ATTRIBUTES):
        y = ATTR_TOP + a * ATTR_STEP
        _label(draw, (16, y + 15), attr.capitalize(), 13)
        for b in range(1, 26):
            rect = g[("attr", a, b)]
            _box(draw, rect, 1)
            # Fine print: the track's value is written in bold beside it.
            draw.text((rect[0] + 2, rect[1] + 1), str(b), font=font(10), fill=FAINT_TEXT)
            if b in c.ATTRIBUTE_WORKER_BOXES[attr]:
                icon(draw, c.ATTRIBUTE_WORKER[attr], rect[0] + 14, rect[1] + 18, 16)
            cross = c.ATTRIBUTE_CROSS[attr].get(b)
            if cross:
                icon(draw, cross, rect[0] + 14, rect[1] + 18, 16)
            if b == 15:
                draw.line((rect[0], rect[1], rect[2], rect[1]), fill=FLAG, width=4)
    _label(draw, (16, 754), "Disdain", 13)
    for i in range(1, 16):
        draw.ellipse(g[("disdain", i)], outline=FAINT, width=1)
    costs = [f"{k}:-{v}" for k, v in enumerate(c.DISDAIN_PENALTY) if k]
    # Two lines, so the sheet's cut between its halves passes beside them, not through them.
    _label(draw, (160, 782), "final Disdain costs " + "  ".join(costs[:4]), 10, bold=False)
    _label(draw, (160, 799), "  ".join(costs[4:]) + " (9+)", 10, bold=False)
    _label(draw, (16, 820), "Score", 13, fill=HEAD)


@dataclass(frozen=True)
class Words:
    """Printed words; ``x`` counts from the right sheet's left edge."""

    x: int
    y: int
    text: str
    size: int
    bold: bool = True
    fill: Colour = INK
    anchor: str = "lm"


@dataclass(frozen=True)
class Priced:
    """A cost in icons after ``prefix``, then the words ``then`` where the icons end."""

    x: int
    y: int
    cost: dict[str, int]
    size: int
    prefix: str = ""
    then: str = ""
    then_bold: bool = False


Printing = Words | Priced | Callable[[Canvas], None]


def _citizen_flags() -> dict[str, set[int]]:
    """Per citizen track, the counts a building or a diplomat needs: flagged on the track."""
    flags: dict[str, set[int]] = {t: set() for t in c.CITIZENS}
    for b in c.BUILDINGS.values():
        for key, n in b.requires.items():
            if key in flags:
                flags[key].add(n)
    flags["patricians"].update(c.DIPLOMAT_REQUIRES)
    return flags


def _citizen_tracks(draw: Canvas) -> None:
    g = boxes()
    flags = _citizen_flags()
    for t, track in enumerate(c.CITIZENS):
        ty = CITIZEN_TOP + t * CITIZEN_STEP
        _label(draw, (RIGHT_X + 10, ty + 15), track.capitalize(), 13)
        for n in range(1, 10):
            rect = g[("citizen", t, n)]
            _box(draw, rect)
            icons_in(draw, c.CITIZEN_REWARDS[track][n], rect, 18)
            if n in flags[track]:
                draw.polygon([(rect[0], rect[1]), (rect[0] + 10, rect[1]), (rect[0], rect[1] + 10)],
                             fill=FLAG)


def _citizen_buildings(draw: Canvas) -> None:
    g = boxes()
    for name, building in c.BUILDINGS.items():
        bkey = ("building:" + name, 0)
        # The granaries, hotels, workshops and roads are on the left sheet.
        if bkey not in g or name.startswith(("granary", "hotel", "workshop", "road")):
            continue
        rect = g[bkey]
        _box(draw, rect)
        need = next(iter(building.requires.values()), 0)
        _fitted(draw, (rect[0] + 4, rect[1] + 10), BUILDING_TEXT[name], 11, rect[2] - rect[0] - 8)
        _cost(draw, rect[0] + 4, rect[1] + 25, building.cost, 10, f"≥{need}",
              room=rect[2] - rect[0] - 8)


def _market(draw: Canvas) -> None:
    for i, (need, reward) in enumerate(c.MARKET_BOXES):
        rect = boxes()[("market", i + 1)]
        cx, cy = centre(rect)
        draw.regular_polygon((cx, cy, 19), 6, fill=(255, 255, 255), outline=LINE, width=2)
        draw.text((cx, rect[1] - 6), f"≥{need}", font=font(10), fill=FAINT_TEXT, anchor="mm")
        if reward:
            icon(draw, reward[0], rect[2] - 2, rect[3] - 2, 12)


def _theatre(draw: Canvas) -> None:
    for i, (need, reward) in enumerate(c.THEATRE_BOXES):
        rect = boxes()[("theatre", i + 1)]
        _box(draw, rect)
        draw.text((rect[0] + 26, rect[1] - 5), f"≥{need}", font=font(10), fill=FAINT_TEXT,
                  anchor="mm")
        icons_in(draw, reward, rect, 16)


def _ludus(draw: Canvas) -> None:
    """A row of boxes and of battle marks per gladiator; the first row heads each column
    with the performers it needs."""
    g = boxes()
    for gi, name in enumerate(c.GLADIATORS):
        _label(draw, (RIGHT_X + 10, g[("gladiator", gi, 1)][1] + 15), name.capitalize(), 12,
               bold=False)
        for i in range(1, 7):
            rect = g[("gladiator", gi, i)]
            _box(draw, rect)
            if gi == 0:
                draw.text((centre(rect)[0], rect[1] - 6),
                          f"≥{c.GLADIATOR_COLUMN_PERFORMERS[i - 1]}", font=font(10),
                          fill=FAINT_TEXT, anchor="mm")
        for i in range(1, 7):
            draw.rectangle(g[("battle", gi, i)], outline=FAINT, width=1)


def _gladiator_fates(draw: Canvas) -> None:
    """What a gladiator's death or survival in each column gives, as icons under it."""
    g = boxes()
    # Spread over the column (box and gap) so icons never overlap.
    column = g[("gladiator", 1, 2)][0] - g[("gladiator", 1, 1)][0]
    for label, rewards, y in _GLADIATOR_FATES:
        _label(draw, (RIGHT_X + 96, y), label, 10, bold=False, anchor="rm")
        for i in range(1, 7):
            names = rewards[i]
            step = min(12.0, column / max(len(names), 1))
            for k, name in enumerate(names):
                icon(draw, name, g[("gladiator", 1, i)][0] + 6 + k * step, y,
                     min(11, int(step) - 1))


def _temples(draw: Canvas) -> None:
    for box in range(1, c.TEMPLE_TOTAL_BOXES + 1):
        rect = boxes()[("temple", box)]
        _box(draw, rect)
        icons_in(draw, c.TEMPLE_BOX_REWARD[box], rect, 12)
        if box % 2 == 1:  # a pair of boxes shares its requirement
            draw.text((rect[0] - 3, rect[1] + 15), str(c.TEMPLE_BOX_REQUIRES[box]),
                      font=font(10), fill=FAINT_TEXT, anchor="rm")


def _baths(draw: Canvas) -> None:
    for i, (need, cost) in enumerate(c.BATHS_BOXES):
        rect = boxes()[("baths", i + 1)]
        _box(draw, rect)
        draw.text((rect[0] + 26, rect[1] - 5), f"≥{need}", font=font(10), fill=FAINT_TEXT,
                  anchor="mm")
        _cost(draw, rect[0] + 4, rect[1] + 16, {"resource": cost}, 10)
        icon(draw, "remove_disdain", rect[2] - 12, rect[1] + 16, 16)


def _courthouse(draw: Canvas) -> None:
    for col, (_, _, reqs) in enumerate(c.COURTHOUSE_COLUMNS):
        pay, arrow, gain = _COURTHOUSE_HEADS[col]
        x = _cost(draw, RIGHT_X + 100 + col * 120, _COURTHOUSE_HEAD_Y, pay, 10)
        _label(draw, (x, _COURTHOUSE_HEAD_Y), arrow, 10)
        _cost(draw, x + 12, _COURTHOUSE_HEAD_Y, gain, 10)
        for r in range(3):
            rect = boxes()[("courthouse", col, r + 1)]
            _box(draw, rect)
            _label(draw, (rect[0] + 4, rect[1] + 13), f"≥{reqs[r]}", 10, bold=False,
                   fill=FAINT_TEXT)


def _diplomats(draw: Canvas) -> None:
    for d, need in enumerate(c.DIPLOMAT_REQUIRES[:3]):
        rect = boxes()[("diplomat", d + 1)]
        _box(draw, rect)
        _label(draw, (rect[0] + 4, rect[1] + 9), f"≥{need} patrician" + ("s" if need > 1 else ""),
               10, bold=False, fill=FAINT_TEXT)


def _scouts(draw: Canvas) -> None:
    for i in range(1, 6):
        rect = boxes()[("scout", i)]
        _box(draw, rect)
        _label(draw, (rect[0] + 4, rect[1] + 15), f"≥{c.SCOUT_REQUIRES[i - 1]}", 10,
               bold=False, fill=FAINT_TEXT)


def _map(draw: Canvas) -> None:
    """The map's rows A-D, each ending in +Valour, its cells' rewards, its columns 1-5."""
    g = boxes()
    for r in range(c.MAP_ROWS):
        my = centre(g[("map", r, 0)])[1]
        _label(draw, (RIGHT_X + _MAP_LETTER_X, my), "ABCD"[r], 12, anchor="mm")
        _label(draw, (g[("map", r, 4)][2] + 6, my), "+Valour", 10, bold=False, fill=FAINT_TEXT)
        for col in range(c.MAP_COLS):
            rect = g[("map", r, col)]
            _box(draw, rect)
            cell = c.MAP_CELL_REWARD.get(r * c.MAP_COLS + col)
            if cell:
                icon(draw, cell, *centre(rect), 18)
    for col in range(c.MAP_COLS):
        _label(draw, (centre(g[("map", 0, col)])[0], _MAP_NUMBER_Y), str(col + 1), 12,
               anchor="mm")


# Where the right sheet's headings and notes go that no box of ``boxes()`` places.
_COURTHOUSE_HEAD_Y = 750
_MAP_LETTER_X, _MAP_NUMBER_Y = 528, 512
_GLADIATOR_FATES = (("dies", c.DEATH_REWARD, 528), ("lives", c.SURVIVE_REWARD, 546))
# Each courthouse column's head: what is paid, then what is gained.
_COURTHOUSE_HEADS: tuple[tuple[dict[str, int], str, dict[str, int]], ...] = (
    ({}, "+", {"servant": 1}), ({"builder": 1}, "→", {"servant": 2}),
    ({"servant": 1}, "→", {"builder": 1}))
_RENOWN = ",".join(str(n) for n in c.UNIQUE_GOODS_RENOWN)

# The right sheet, in drawing order (later parts are painted over earlier ones).
RIGHT_SHEET: tuple[Printing, ...] = (
    Priced(150, 88, {"civilian": 1}, 11, "Citizen tracks:", then="a box"),
    Words(466, 88, "Buildings (need citizens)", 11, bold=False),
    _citizen_tracks,
    _citizen_buildings,
    Words(10, 328, "Market", 13),
    _market,
    Words(100, 358, f"1st-6th different good: +{_RENOWN} Renown; repeats +0", 10, bold=False),
    Words(10, 392, "Theatre", 13),
    Priced(10, 406, {"resource": 1}, 10, then="1/yr"),
    _theatre,
    Words(10, 436, "Ludus", 13),
    _ludus,
    Words(322, 436, "battles #", 10, bold=False),
    _gladiator_fates,
    Words(10, 590, "Temples", 13),
    Words(10, 606, "(1 any worker)", 10, bold=False),
    _temples,
    Words(100, 564, "Small", 10, bold=False, fill=FAINT_TEXT),
    Words(220, 564, "Medium", 10, bold=False, fill=FAINT_TEXT),
    Words(340, 564, "Large", 10, bold=False, fill=FAINT_TEXT),
    Words(10, 704, "Baths", 13),
    Words(10, 718, "(2/yr)", 10, bold=False),
    _baths,
    Words(10, 778, "Court-", 13),
    Words(10, 794, "house", 13),
    _courthouse,
    Priced(540, 296, {"servant": 1, "soldier": 1, "resource": 2}, 11, "Diplomats",
           then=": +1 Valour, 2 favours", then_bold=True),
    _diplomats,
    Priced(540, 456, {"soldier": 1}, 11, "Scouts"),
    _scouts,
    _map,
)


def _right(draw: Canvas) -> None:
    _panel(draw, RIGHT_X, "RIGHT SHEET")
    for part in RIGHT_SHEET:
        if isinstance(part, Words):
            _label(draw, (RIGHT_X + part.x, part.y), part.text, part.size, part.bold,
                   part.fill, part.anchor)
        elif isinstance(part, Priced):
            x = _cost(draw, RIGHT_X + part.x, part.y, part.cost, part.size, part.prefix)
            if part.then:
                _label(draw, (x, part.y), part.then, part.size, bold=part.then_bold)
        else:
            part(draw)


# The pixel boxes of the printed words of ``printed(scale)``, by scale.
_PRINTED_TEXTS: dict[float, list[tuple[float, float, float, float]]] = {}


@cache
def printed(scale: float = 1.0) -> Image.Image:
    """Both sheets with nothing filled in, ``scale`` times the layout size (cached; callers
    copy it)."""
    image = Image.new("RGB", (round(WIDTH * scale), round(HEIGHT * scale)), PAPER)
    draw = ScaledDraw(ImageDraw.Draw(image), scale, record=True)
    with scaled(scale):
        _left(draw)
        _right(draw)
    _PRINTED_TEXTS[scale] = draw.texts or []
    return image


def printed_texts(scale: float) -> list[tuple[float, float, float, float]]:
    """Where ``printed(scale)`` has words (pixel boxes)."""
    printed(scale)
    return _PRINTED_TEXTS[scale]


@cache
def icons_between(x0: float, x1: float) -> tuple[str, ...]:
    """The printed icons whose centre lies between x0 and x1 (layout units), in key order."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    # Drawn only to see where the icons fall: its fonts are never shown, so none is logged.
    with recording() as seen, record_font_sizes(), unseen():
        draw = ImageDraw.Draw(image)
        _left(draw)
        _right(draw)
    names = {name for name, x in seen if x0 <= x < x1}
    return tuple(name for name in KEY_ORDER if name in names)
