"""Geometry shared by the Hadrian's Wall images.

Every box of both sheets has one rectangle here (``boxes()``), computed once; the static layer
and the marks drawn over it use the same rectangles, so they always line up. The printed sheet
data (rewards, requirements) comes from the game's data files, which are static, not state.
"""

from __future__ import annotations

from functools import cache

from rules.hadrians_wall.components import CIPPI_LINKS

Rect = tuple[int, int, int, int]
Colour = tuple[int, int, int]
Key = tuple[str, int] | tuple[str, int, int]

WIDTH, HEIGHT = 1800, 900
BOX = 28
LEFT_X, RIGHT_X = 8, 904
SHEET_TOP = 64

PAPER_SHEET: Colour = (252, 249, 240)
LINE: Colour = (70, 70, 70)
FILL: Colour = (38, 44, 66)
LOCKED: Colour = (208, 206, 200)
HEAD: Colour = (120, 58, 30)
FAINT: Colour = (150, 150, 150)  # lines; text printed faint is darker, to read
FAINT_TEXT: Colour = (105, 105, 105)
FLAG: Colour = (180, 80, 0)


# Granary columns on the left sheet (x ranges).
COLUMNS: tuple[tuple[int, int], ...] = ((160, 404), (404, 648), (648, 892))
TRACK_ROWS = {"mining": 160, "guard": 200, "cippi": 240, "wall": 280, "fort": 320}
ATTR_TOP = 560
ATTR_STEP = 40
CITIZEN_TOP = 100
CITIZEN_STEP = 38


# Words printed on the sheets.
BUILDING_TEXT = {
    "granary_medium": "Medium granary", "granary_large": "Large granary",
    "hotel_small": "Small hotel", "hotel_large": "Large hotel",
    "workshop_small": "Small workshop", "workshop_large": "Large workshop",
    "road_small": "Small road", "road_large": "Large road",
    "precinct_small": "Precinct S", "precinct_medium": "Precinct M",
    "precinct_large": "Precinct L", "market": "Market", "theatre": "Theatre",
    "ludus": "Ludus", "temple_small": "Temple S", "temple_medium": "Temple M",
    "temple_large": "Temple L", "gardens_small": "Gardens S", "gardens_large": "Gardens L",
    "baths": "Baths", "courthouse": "Courthouse",
}


def centre(rect: Rect) -> tuple[float, float]:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2


def _track_slots(key: str, counts: tuple[int, int, int], y: int, out: dict[Key, Rect]) -> None:
    box = 1
    for (x0, x1), n in zip(COLUMNS, counts, strict=True):
        slot = (x1 - x0) / n
        for i in range(n):
            cx = x0 + slot * (i + 0.5)
            out[(key, box)] = (int(cx - BOX / 2), y, int(cx + BOX / 2), y + BOX)
            box += 1


@cache
def boxes() -> dict[Key, Rect]:
    """The rectangle of every box, keyed by area and number (1-based)."""

    out: dict[Key, Rect] = {}
    # Cohorts: three groups of 6, one per granary column width.
    for c, (x0, x1) in enumerate(COLUMNS):
        start = x0 + (x1 - x0 - 6 * 36) / 2
        for i in range(6):
            x = int(start + i * 36)
            out[("cohort", c, i + 1)] = (x, 100, x + BOX, 100 + BOX)
    _track_slots("mining", (4, 5, 5), TRACK_ROWS["mining"], out)
    _track_slots("guard", (6, 6, 6), TRACK_ROWS["guard"], out)
    _track_slots("wall", (7, 7, 7), TRACK_ROWS["wall"], out)
    _track_slots("fort", (7, 7, 7), TRACK_ROWS["fort"], out)
    for i in range(1, 8):
        fx0, _, fx1, _ = out[("fort", CIPPI_LINKS[i])]
        out[("cippi", i)] = (fx0, TRACK_ROWS["cippi"], fx1, TRACK_ROWS["cippi"] + BOX)
    for i in range(9):
        x = 160 + i * 34
        out[("production", i + 1)] = (x, 384, x + BOX, 384 + BOX)
    for i in range(5):
        x = 600 + i * 58
        out[("training", i + 1)] = (x, 384, x + 52, 384 + BOX)
    names = ("granary_medium", "granary_large", "hotel_small", "hotel_large", "workshop_small",
             "workshop_large", "road_small", "road_large")
    for i, name in enumerate(names):
        x = 16 + i * 110
        out[("building:" + name, 0)] = (x, 436, x + 104, 480)
    for i in range(4):
        x = 160 + i * 50
        out[("forum", i + 1)] = (x, 500, x + 44, 500 + BOX)
    for i in range(4):
        x = 420 + i * 118
        out[("landmark", i + 1)] = (x, 494, x + 112, 534)
    for a in range(4):
        y = ATTR_TOP + a * ATTR_STEP
        for i in range(25):
            x = 160 + i * 29
            out[("attr", a, i + 1)] = (x, y, x + 26, y + 30)
    for i in range(15):
        x = 160 + (i % 5) * 34 + (i // 5) * 184
        out[("disdain", i + 1)] = (x, 740, x + 28, 768)
    _right_boxes(out)
    return out


def _right_boxes(out: dict[Key, Rect]) -> None:
    rx = RIGHT_X
    for t in range(5):
        y = CITIZEN_TOP + t * CITIZEN_STEP
        for i in range(9):
            x = rx + 150 + i * 34
            out[("citizen", t, i + 1)] = (x, y, x + BOX, y + BOX + 2)
    rows = (("precinct_small", "precinct_medium", "precinct_large", "market"),
            ("theatre", "ludus"),
            ("temple_small", "temple_medium", "temple_large", "gardens_small", "gardens_large"),
            ("baths", "courthouse"),
            ())
    for t, names in enumerate(rows):
        y = CITIZEN_TOP + t * CITIZEN_STEP
        for i, name in enumerate(names):
            x = rx + 466 + i * 82
            out[("building:" + name, 0)] = (x, y - 2, x + 78, y + BOX + 4)
    for i in range(8):
        x = rx + 100 + i * 44
        out[("market", i + 1)] = (x, 310, x + 38, 346)
    for i in range(6):
        x = rx + 100 + i * 58
        out[("theatre", i + 1)] = (x, 376, x + 52, 376 + 32)
    for g in range(2):
        y = 446 + g * 40
        for i in range(6):
            x = rx + 100 + i * 36
            out[("gladiator", g, i + 1)] = (x, y, x + 30, y + 30)
        for i in range(6):
            x = rx + 322 + i * 20
            out[("battle", g, i + 1)] = (x, y + 4, x + 18, y + 26)
    # Temples: small 1 row, medium and large 3 rows of 2.
    for box in range(1, 15):
        if box <= 2:
            col, row, i = 0, 0, box - 1
        else:
            col = 1 if box <= 8 else 2
            local = box - (3 if col == 1 else 9)
            row, i = divmod(local, 2)
        x = rx + 100 + col * 120 + i * 36
        y = 574 + row * 34
        out[("temple", box)] = (x, y, x + 30, y + 30)
    for i in range(6):
        x = rx + 100 + i * 58
        out[("baths", i + 1)] = (x, 694, x + 52, 726)
    for c in range(3):
        for r in range(3):
            x = rx + 100 + c * 120
            y = 760 + r * 30
            out[("courthouse", c, r + 1)] = (x, y, x + 110, y + 26)
    for d in range(3):
        y = 310 + d * 44
        out[("diplomat", d + 1)] = (rx + 540, y, rx + 720, y + 38)
    for i in range(5):
        x = rx + 540 + i * 60
        out[("scout", i + 1)] = (x, 470, x + 54, 500)
    for r in range(4):
        for c in range(5):
            x = rx + 540 + c * 60
            y = 520 + r * 48
            out[("map", r, c)] = (x, y, x + 56, y + 44)
