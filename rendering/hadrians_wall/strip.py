"""The boxes a seat can fill now, cut out of its sheets for the overview: each area's boxes
(with the printed words round them and the orange halo) under the area's name, laid out in
rows as wide as the overview. The full sheets are a detail image away."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, font
from rendering.hadrians_wall.guides import box_key
from rendering.hadrians_wall.layout import RIGHT_X, Key, Rect, boxes
from rendering.hadrians_wall.sheets import render_sheets

# 10 layout units, the sheets' smallest print, at 1.6 are 16 px: 11.6 px at 550 px of 760.
SCALE = 1.6
AROUND = (10, 20, 10, 8)  # layout units kept round the boxes: left, top (a box's ≥ need), ...
MIN_WIDE = 120  # layout units: a lone box shows its neighbours
CAPTION = 24  # px above a cut-out for the area's name
GAP = 12
AREAS = {
    "mining": "Mining", "guard": "Wall guard", "fort": "Fort", "wall": "Wall",
    "cippi": "Cippi", "forum": "Forum", "market": "Market", "temple": "Temple",
    "training": "Training grounds", "theatre": "Theatre", "baths": "Baths",
    "building": "Buildings", "citizen": "Citizens", "landmark": "Landmarks",
    "gladiator": "Gladiators", "courthouse": "Courthouse", "diplomat": "Diplomats",
    "scout": "Scouts",
}
# Areas whose boxes have their need (≥ 3 traders) printed above them: the cut-out keeps it;
# the others keep off the row above.
NEEDS_ABOVE = {"Market", "Theatre", "Gladiators", "Baths"}
Cut = tuple[str, Rect]
Box = tuple[float, float, float, float]  # the area's name, the layout rectangle to cut out


def _area(key: Key) -> str:
    return str(key[0]).split(":")[0]


def cuts(view: Mapping[str, Any], width: int) -> list[Cut]:
    """The rectangles to cut out: each area's fillable boxes (on one sheet), split where
    they would be wider than ``width`` px, in the order the moves list them."""
    s = view["sheets"][int(view["seat"])]
    g = boxes()
    keys: list[Key] = []
    for move in (view.get("private") or {}).get("boxes", []):
        key = box_key(move, s)
        if key is not None and key in g and key not in keys:
            keys.append(key)
    groups: dict[tuple[str, bool], list[Rect]] = {}
    for key in keys:
        groups.setdefault((_area(key), g[key][0] >= RIGHT_X), []).append(g[key])
    out: list[Cut] = []
    room = width / SCALE - AROUND[0] - AROUND[2]
    for (area, _), rects in groups.items():
        rects.sort(key=lambda r: (r[1], r[0]))
        current: list[Rect] = []
        for rect in rects:
            union = _union([*current, rect])
            if current and (union[2] - union[0] > room or union[3] - union[1] > 120):
                out.append((AREAS.get(area, area.title()), _union(current)))
                current = []
            current.append(rect)
        if current:
            out.append((AREAS.get(area, area.title()), _union(current)))
    return out


def _without_cut_words(piece: Image.Image, box: Box, words: list[Box]) -> Image.Image:
    """The cut-out with every word the cut crosses painted out in the colour round it: half
    a word ("Sma", "Y") reads as noise."""
    draw = ImageDraw.Draw(piece)
    x0, y0, x1, y1 = box
    for wx0, wy0, wx1, wy1 in words:
        inside = x0 <= wx0 and wx1 <= x1 and y0 <= wy0 and wy1 <= y1
        apart = wx1 <= x0 or wx0 >= x1 or wy1 <= y0 or wy0 >= y1
        if inside or apart:
            continue
        local = (max(0, wx0 - x0 - 1), max(0, wy0 - y0 - 1),
                 min(piece.width, wx1 - x0 + 1), min(piece.height, wy1 - y0 + 1))
        region = (round(local[0]), round(local[1]), round(local[2]), round(local[3]))
        colours = piece.crop(region).getcolors(1 << 16) or []
        commonest = max(colours)[1] if colours else PAPER
        draw.rectangle(region, fill=commonest if isinstance(commonest, tuple) else PAPER)
    return piece


def _union(rects: list[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects),
            max(r[2] for r in rects), max(r[3] for r in rects))


def render_strip(view: Mapping[str, Any], width: int, height: int) -> Image.Image | None:
    """The cut-outs, ``width`` px wide and at most ``height`` px tall (those that do not fit
    are counted in a last line); None when no box can be filled now."""
    found = cuts(view, width)
    if not found:
        return None
    words: list[Box] = []
    sheets = render_sheets(view, SCALE, header=False, texts=words)
    canvas = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(canvas)
    x = y = row = 0
    shown = 0
    note = 26  # kept for the line that counts what did not fit
    for name, (x0, y0, x1, y1) in found:
        # At least MIN_WIDE across, for the boxes on either side.
        grow = max(0.0, (MIN_WIDE - (x1 - x0)) / 2 - AROUND[0])
        top = AROUND[1] if name in NEEDS_ABOVE else 8
        box = (max(0, round((x0 - AROUND[0] - grow) * SCALE)), round((y0 - top) * SCALE),
               min(sheets.width, round((x1 + AROUND[2] + grow) * SCALE)),
               round((y1 + AROUND[3]) * SCALE))
        piece = _without_cut_words(sheets.crop(box), box, words)
        label = font(16, bold=True)
        w = max(piece.width, round(label.getlength(name)) + 4)
        if x and x + w > width:
            x, y, row = 0, y + row + GAP, 0
        if y + CAPTION + piece.height > height - note:
            break
        draw.text((x, y), name, font=label, fill=INK)
        canvas.paste(piece, (x, y + CAPTION))
        draw.rectangle((x, y + CAPTION, x + piece.width - 1, y + CAPTION + piece.height - 1),
                       outline=(190, 180, 160))
        x += w + GAP
        row = max(row, CAPTION + piece.height)
        shown += 1
    y += row
    if shown < len(found):
        rest = len(found) - shown
        draw.text((0, y + 6), f"… and {rest} more area{'s' if rest > 1 else ''}: see your "
                  "sheets", font=font(16), fill=INK)
        y += note
    return canvas.crop((0, 0, width, y))
