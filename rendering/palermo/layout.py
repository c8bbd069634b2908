"""Where things go on the Palermo board: the frame (city-cell units to pixels) and the places of
the pieces, hint badges and labels inside a cell, so that none hides another.

A cell is split into fixed zones: a ring cell's name on top, a hint badge at the bottom, and the
pieces side by side in what is left (police stone first, then pawns), each in its own slot. On
the Start/Finish tile, START and FINISH keep the top and bottom bands and the pawns there stand
in one row between them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Box = tuple[float, float, float, float]
Rect = tuple[float, ...]

CELL = 46
MARGIN = 26  # the column letters above and the row numbers on the left
EDGE = 6  # no labels on the right and below: one set of coordinates is enough
LABEL_BAND = 16  # the top of a ring cell, for its name
BADGE_H = 18
BAND = 22  # START / FINISH bands of the Start/Finish tile
PAWN_MAX = 11.0
ROW = 3  # pawns in one row on Start/Finish
STONE_MAX = 36.0


@dataclass(frozen=True)
class Frame:
    cells: int

    @property
    def size(self) -> int:
        return MARGIN + (self.cells + 2) * CELL + EDGE

    def px(self, u: float) -> float:
        return MARGIN + (u + 1) * CELL

    def rect(self, r: Sequence[float]) -> Box:
        return (self.px(r[0]), self.px(r[1]), self.px(r[2]), self.px(r[3]))

    def cell(self, x: int, y: int) -> Box:
        return self.rect((x, y, x + 1, y + 1))


@dataclass(frozen=True)
class Token:
    kind: str  # "pawn" or "stone"
    seat: int
    box: Box
    home: bool = False
    frozen: bool = False

    @property
    def radius(self) -> float:
        """A pawn's size parameter (see ``pieces.draw_pawn``) that fills ``box``."""
        x0, y0, x1, y1 = self.box
        return min(PAWN_MAX, (y1 - y0 - 5) / 3.67, (x1 - x0 - 5) / 2.3)

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)


def crowded_start(view: Mapping[str, Any]) -> bool:
    """More pawns on Start/Finish than one row holds: they take FINISH's band too."""
    start = start_rect(view)
    return sum(1 for p in view["pawns"] if p["on_start"] or (
        p["rect"] is not None and _in(p["rect"], start))) > ROW


def start_rect(view: Mapping[str, Any]) -> Rect | None:
    for tile in view["tiles"]:
        if tile["kind"] == "SF":
            i, j = tile["i"], tile["j"]
            return (2.0 * i, 2.0 * j, 2.0 * i + 2, 2.0 * j + 2)
    return None


def _in(rect: Sequence[float], outer: Rect | None) -> bool:
    return outer is not None and all(
        outer[k] <= rect[k] <= outer[k + 2] for k in (0, 1)) and rect[2] <= outer[2] and \
        rect[3] <= outer[3]


def badge_box(f: Frame, rect: Sequence[float], width: float, start: Rect | None,
              occupied: bool = False) -> Box:
    """The hint badge of a cell: centred at its bottom (in the bottom right corner of a cell
    where a piece stands, which keeps the rest of the cell); on the Start/Finish tile in the
    band of START or FINISH, at the tile's outer side so a narrow badge leaves the word in
    sight (the pawns stand in the tile's middle)."""
    x0, y0, x1, y1 = f.rect(rect)
    w = width + 4
    if start is None or not _in(rect, start):
        cx = x1 - 1 - w / 2 if occupied else (x0 + x1) / 2
        return (cx - w / 2, y1 - 1 - BADGE_H, cx + w / 2, y1 - 1)
    y = y0 + 5 if rect[1] == start[1] else y1 - 5 - BADGE_H
    x = x0 + 3 if rect[0] == start[0] else x1 - 3 - w
    return (x, y, x + w, y + BADGE_H)


def _slots(area: Box, tokens: Sequence[Mapping[str, Any]]) -> list[Box]:
    """``tokens`` side by side in ``area``, each in a slot of its own (square for a stone)."""
    x0, y0, x1, y1 = area
    h = y1 - y0
    stones = [t for t in tokens if t["kind"] == "stone"]
    side = min(STONE_MAX, h, (x1 - x0) / len(tokens)) if stones else 0.0
    pawns = len(tokens) - len(stones)
    pawn_w = (x1 - x0 - side) / pawns if pawns else 0.0
    pawn_w = min(pawn_w, 2.3 * PAWN_MAX + 5)
    total = side + pawn_w * pawns
    x = (x0 + x1 - total) / 2
    boxes: list[Box] = []
    for t in tokens:
        w = side if t["kind"] == "stone" else pawn_w
        top = y0 + (h - w) / 2 if t["kind"] == "stone" else y0
        boxes.append((x, top, x + w, top + (w if t["kind"] == "stone" else h)))
        x += w
    return boxes


def place_tokens(
    view: Mapping[str, Any], f: Frame, badges: Mapping[Rect, Box], ring_names: bool
) -> list[Token]:
    """Every police stone and pawn on the board with the box it is drawn in."""
    start = start_rect(view)
    ring = {tuple(r["rect"]) for r in view["ring"]}
    cells: dict[Rect, list[dict[str, Any]]] = {}
    waiting: list[dict[str, Any]] = []
    for stone in view["police"]:
        if stone["rect"] is not None:
            cells.setdefault(tuple(stone["rect"]), []).append(
                {"kind": "stone", "seat": stone["seat"], "frozen": stone["frozen"]})
    for pawn in view["pawns"]:
        item = {"kind": "pawn", "seat": pawn["seat"], "home": pawn["home"]}
        if pawn["on_start"] or (pawn["rect"] is not None and _in(pawn["rect"], start)):
            waiting.append(item)
        elif pawn["rect"] is not None:
            cells.setdefault(tuple(pawn["rect"]), []).append(item)
    placed: list[tuple[Mapping[str, Any], Box]] = []
    for rect, tokens in cells.items():
        x0, y0, x1, y1 = f.rect(rect)
        top = y0 + (LABEL_BAND if ring_names and rect in ring else 2)
        area = (x0 + 2, top, x1 - 2, y1 - 1)
        badge = badges.get(rect)
        if badge is not None:
            if badge[1] - 1 - top >= 20:  # room above the badge
                area = (x0 + 2, top, x1 - 2, badge[1] - 1)
            else:  # beside it, on its left
                area = (x0 + 2, top, badge[0] - 1, y1 - 2)
        placed += zip(tokens, _slots(area, tokens), strict=True)
    if waiting and start is not None:
        x0, y0, x1, y1 = f.rect(start)
        if len(waiting) <= ROW:
            area = (x0 + 2, y0 + BAND + 1, x1 - 2, y1 - BAND - 1)  # over the chequer if need be
            placed += zip(waiting, _slots(area, waiting), strict=True)
        else:  # two rows in FINISH's band too: one row would make them too small to read
            low = min([y1 - 3] + [b[1] - 1 for b in badges.values()
                                  if x0 <= b[0] <= x1 and y0 + BAND < b[1] <= y1])
            half, mid = (len(waiting) + 1) // 2, (y0 + BAND + low) / 2
            for row, (top, bottom) in ((waiting[:half], (y0 + BAND + 1, mid)),
                                       (waiting[half:], (mid, low))):
                placed += zip(row, _slots((x0 + 2, top, x1 - 2, bottom), row), strict=True)
    return [Token(t["kind"], t["seat"], box, bool(t.get("home")), bool(t.get("frozen")))
            for t, box in placed]


def chip_centre(f: Frame, door: Sequence[int], wall: Sequence[int]) -> tuple[float, float]:
    """A chip sits on its door, mostly on the roof, so a piece in the door's cell leaves it in
    sight."""
    dx, dy = door[0] - wall[0], door[1] - wall[1]
    x0, y0, x1, y1 = f.cell(wall[0], wall[1])
    ex, ey = (x0 + x1) / 2 + dx * CELL / 2, (y0 + y1) / 2 + dy * CELL / 2
    return ex - dx * 8, ey - dy * 8
