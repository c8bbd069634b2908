"""Where each sheet is cut in two. No straight line crosses a sheet between its boxes, so the
cut steps: each row of boxes is cut at the gap nearest the sheet's middle, and what lies past
the cut is painted out and drawn in the other part, whole."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from rendering.hadrians_wall.layout import (
    HEIGHT,
    LEFT_X,
    PAPER_SHEET,
    RIGHT_X,
    SHEET_TOP,
    Rect,
    boxes,
)

Band = tuple[int, int, int]  # y0, y1, the x of the cut (layout units)
SHEETS = ((LEFT_X, LEFT_X + 888), (RIGHT_X, RIGHT_X + 888))
GAP = 1  # the cut keeps off every box outline
HALO = 6  # and, where it can, off the halo round a box that can be filled now
LABEL = 16
EDGE = (180, 80, 0)


def _rows(rects: list[Rect]) -> list[tuple[int, int, list[Rect]]]:
    """The boxes grouped into rows whose heights overlap, top to bottom."""
    rows: list[tuple[int, int, list[Rect]]] = []
    for r in sorted(rects, key=lambda r: r[1]):
        if rows and r[1] < rows[-1][1]:
            y0, y1, group = rows[-1]
            rows[-1] = (y0, max(y1, r[3]), [*group, r])
        else:
            rows.append((r[1], r[3], [r]))
    return rows


@cache
def bands(sheet: int) -> tuple[Band, ...]:
    """Each row of the sheet's boxes, from half way to the row above to half way to the row
    below, with the x of the gap nearest the sheet's middle."""
    lo, hi = SHEETS[sheet]
    middle = (lo + hi) // 2
    # A cippi box's fort number is printed to its right: the cut goes round it too.
    rows = _rows([(r[0], r[1], r[2] + (LABEL if key[0] == "cippi" else 0), r[3])
                  for key, r in boxes().items() if lo <= r[0] < hi])
    out: list[Band] = []
    for i, (y0, y1, group) in enumerate(rows):
        # The sheet's frame stays whole: the first and last bands stop inside it.
        top = SHEET_TOP + 4 if i == 0 else (rows[i - 1][1] + y0) // 2
        bottom = HEIGHT - 12 if i == len(rows) - 1 else (y1 + rows[i + 1][0]) // 2
        for gap in (HALO, GAP):  # clear of the halos of boxes to fill, where the row has room
            free = [x for x in range(middle - 40, middle + 40)
                    if not any(r[0] - gap < x < r[2] + gap for r in group)]
            if free:
                break
        out.append((top, bottom, min(free, key=lambda x: abs(x - middle))))
    return tuple(out)


def span(sheet: int, half: int) -> tuple[int, int]:
    """The x range (layout units) of one half (0 left, 1 right) of a sheet."""
    lo, hi = SHEETS[sheet]
    cuts = [x for _, _, x in bands(sheet)]
    return (lo - 4, max(cuts) + 2) if half == 0 else (min(cuts) - 2, hi + 4)


def paint_out(part: Image.Image, sheet: int, half: int, x0: int, top: int,
              k: float) -> None:
    """Paints out what lies past the cut in ``part`` (cropped at ``x0``, ``top`` in layout
    units, drawn ``k`` times the layout) and marks the cut with a dashed line."""
    draw = ImageDraw.Draw(part)
    edge: list[tuple[float, float]] = []
    for y0, y1, x in bands(sheet):
        px = (x - x0) * k
        py0, py1 = max(0.0, (y0 - top) * k), (y1 - top) * k
        if py1 <= 0:
            continue
        box = (px, py0, part.width, py1) if half == 0 else (0, py0, px, py1)
        draw.rectangle(box, fill=PAPER_SHEET)
        edge += [(px, py0), (px, py1)]
    for (ax, ay), (_, by) in zip(edge[::2], edge[1::2], strict=True):
        y = ay
        while y < by:  # dashes: a cut, not a printed line
            draw.line((ax, y, ax, min(by, y + 8)), fill=EDGE, width=2)
            y += 16


def part_of(rect: tuple[float, float, float, float]) -> int:
    """The index (0 to 3: left sheet's halves, then the right's) of the part showing a box."""
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    sheet = 0 if cx < SHEETS[1][0] else 1
    cut = next((x for y0, y1, x in bands(sheet) if y0 <= cy < y1), bands(sheet)[-1][2])
    return 2 * sheet + (0 if cx < cut else 1)
