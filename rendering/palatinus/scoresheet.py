"""The scoring record of a finished game, under the board: the final table of VP by source
(rank, laurels, discs, captures, total, and the tie-break), then hill by hill (soldiers,
influence, award) in two columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw, ImageFont

from rendering.common import INK, MUTED, font
from rendering.palatinus import layout as L
from rendering.palatinus.panels import seat_name
from rendering.palatinus.pieces import seat_marker
from rendering.scoretable import fit

LINE = 21
TEXT = 16
COLUMN_W = 350
Line = tuple[str, bool, int]
"""Text, bold, indent."""


def _seat(seat: int) -> str:
    # The record names seats by number (the table pairs each number with its name): long
    # names would double its height.
    return f"P{seat + 1}"


def _award(hill: Mapping[str, Any]) -> str:
    # Short, so a hill's heading mostly fits one line of its column.
    award = hill["award"]
    seats = ", ".join(_seat(s) for s in award["seats"])
    if award["result"] == "laurel":
        return f"laurel {award['value']} to {seats}"
    if award["result"] == "tie":
        return f"tie, {seats} get a {award['value']}-pt disc each"
    return f"nobody, laurel {hill['laurel']} discarded"


def _soldier(soldier: Mapping[str, Any]) -> str:
    head = (
        f"{_seat(soldier['owner'])} soldier {soldier['field']}: "
        f"{soldier['merchants']}M / {soldier['farmers']}F"
    )
    if soldier["result"] == "left":
        return f"{head} tie, leaves"
    return f"{head}, captures {' '.join(soldier['captured'])}"


def hill_lines(record: Mapping[str, Any]) -> list[Line]:
    lines: list[Line] = []
    for hill in record["hills"]:
        lines.append((f"Hill {hill['letter']}: {_award(hill)}", True, 0))
        for soldier in hill["soldiers"]:
            lines.append((_soldier(soldier), False, 14))
        for capture in hill["captures"]:
            if capture["discs_to"]:
                others = ", ".join(_seat(s) for s in capture["discs_to"])
                lines.append(
                    (
                        f"{capture['field']} held by {_seat(capture['holder'])}; "
                        f"1-pt disc to {others}",
                        False,
                        14,
                    )
                )
        totals = [f"{_seat(s)} {t}" for s, t in enumerate(hill["totals"]) if t]
        pieces = " ".join(
            f"{row['field']}={row['points']}" for row in hill["influence"] if not row.get("neutral")
        )
        text = "influence " + (" · ".join(totals) if totals else "none")
        lines.append((text + (f"  ({pieces})" if pieces else ""), False, 14))
    return lines


def _wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    out: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}".strip()
        if current and fnt.getlength(trial) > width:
            out.append(current)
            current = word
        else:
            current = trial
    if current:
        out.append(current)
    return out


def _laid_out(view: Mapping[str, Any]) -> list[list[Line]]:
    """The hill blocks, each already wrapped to a column."""
    blocks: list[list[Line]] = []
    for text, bold, indent in hill_lines(view["scoring"]):
        if bold:
            blocks.append([])
        fnt = font(TEXT, bold=bold)
        for i, part in enumerate(_wrap(text, fnt, COLUMN_W - indent - 4)):
            blocks[-1].append((part, bold, indent + (12 if i else 0)))
    return blocks


def _columns(view: Mapping[str, Any]) -> tuple[list[Line], list[Line]]:
    """Hill blocks split into two columns of about the same height, in order A to G."""
    blocks = _laid_out(view)
    total = sum(len(b) + 1 for b in blocks)
    left: list[Line] = []
    right: list[Line] = []
    for block in blocks:
        target = left if len(left) < total / 2 else right
        target.extend([*block, ("", False, 0)])
    return left, right


def draw_sheet(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int,
               hills: bool = True) -> int:
    """Draws the record from ``y`` down (``hills``: with the scoring hill by hill, else a
    line saying where it is); returns the y where it ends."""
    draw.line([(0, y - 10), (L.WIDTH, y - 10)], fill=MUTED, width=1)
    # No title over the table: the header above already says the game is over and who won.
    y = _table(draw, view, x, y) + 12
    if not hills:
        draw.text((x, y), "How each hill scored: the Scoring button under this image.",
                  font=font(TEXT), fill=MUTED)
        return y + LINE + 6
    return draw_hills(draw, view, x, y)


def draw_hills(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    """The scoring hill by hill in two columns from ``y`` down; returns where it ends."""
    draw.text((x, y), "Scoring, hill by hill (A to G)", font=font(TEXT + 2, bold=True), fill=INK)
    y += 30
    end = y
    for col, lines in enumerate(_columns(view)):
        cy = y
        for text, bold, indent in lines:
            draw.text((x + col * (COLUMN_W + 20) + indent, cy), text,
                      font=font(TEXT, bold=bold), fill=INK)
            cy += LINE
        end = max(end, cy)
    return end


COLS = (("Rank", 0), ("Player", 60), ("Laurels", 370), ("Discs", 460), ("Captures", 535),
        ("VP", 650))  # fmt: skip


def _table(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    outcome = view["outcome"]
    for title, dx in COLS:
        draw.text((x + dx, y), title, font=font(TEXT, bold=True), fill=INK)
    y += 24
    draw.line([(x, y), (x + 700, y)], fill=MUTED)
    y += 6
    place = {seat: i + 1 for i, group in enumerate(outcome["ranking"]) for seat in group}
    for seat in [seat for group in outcome["ranking"] for seat in group]:
        parts = outcome["breakdown"][seat]
        cy = y + 15
        draw.text((x + COLS[0][1], cy), f"#{place[seat]}", font=font(TEXT + 1, bold=True),
                  fill=INK, anchor="lm")
        seat_marker(draw, (x + COLS[1][1] + 14, cy), 13, seat)
        name_font = font(TEXT + 1, bold=True)
        name_x = x + COLS[1][1] + 36
        label = seat_name(seat)
        label = label if label == _seat(seat) else f"{_seat(seat)} {label}"
        name = fit(label, name_font, x + COLS[2][1] - 10 - name_x)
        draw.text((name_x, cy), name, font=name_font, fill=INK, anchor="lm")
        values = (parts["laurels"], parts["discs"], parts["captures"], outcome["scores"][seat])
        for (_, dx), value in zip(COLS[2:], values, strict=True):
            draw.text((x + dx, cy), str(value), font=font(TEXT + 1, bold=dx == COLS[-1][1]),
                      fill=INK, anchor="lm")
        y += 34
    for note in outcome.get("notes") or []:
        for part in _wrap(note, font(TEXT), 700):
            draw.text((x, y + 4), part, font=font(TEXT), fill=MUTED)
            y += 22
    return y + 6
