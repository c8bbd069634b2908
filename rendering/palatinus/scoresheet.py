"""The scoring record of a finished game: hill by hill (soldiers, influence, award), then the
final table of VP by source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw, ImageFont

from rendering.common import INK, MUTED, font
from rendering.palatinus.panels import seat_name
from rendering.palatinus.pieces import draw_piece

LINE = 19
Line = tuple[str, bool, int]
"""Text, bold, indent."""


def _award(hill: Mapping[str, Any]) -> str:
    award = hill["award"]
    seats = ", ".join(seat_name(s) for s in award["seats"])
    if award["result"] == "laurel":
        return f"{seats} takes the laurel ({award['value']})"
    if award["result"] == "tie":
        return f"tie: {seats} get a {award['value']}-pt disc each"
    return "nobody: laurel discarded"


def _soldier(soldier: Mapping[str, Any]) -> str:
    head = (
        f"{seat_name(soldier['owner'])} soldier {soldier['field']}: "
        f"{soldier['merchants']}M / {soldier['farmers']}F"
    )
    if soldier["result"] == "left":
        return f"{head} tie, leaves"
    return f"{head}, captures {' '.join(soldier['captured'])}"


def hill_lines(record: Mapping[str, Any]) -> list[Line]:
    lines: list[Line] = []
    for hill in record["hills"]:
        lines.append((f"Hill {hill['letter']} (laurel {hill['laurel']}): {_award(hill)}", True, 0))
        for soldier in hill["soldiers"]:
            lines.append((_soldier(soldier), False, 14))
        for capture in hill["captures"]:
            if capture["discs_to"]:
                others = ", ".join(seat_name(s) for s in capture["discs_to"])
                lines.append(
                    (
                        f"{capture['field']} held by {seat_name(capture['holder'])}; "
                        f"1-pt disc to {others}",
                        False,
                        14,
                    )
                )
        totals = [f"{seat_name(s)} {t}" for s, t in enumerate(hill["totals"]) if t]
        pieces = " ".join(
            f"{row['field']}={row['points']}" for row in hill["influence"] if not row.get("neutral")
        )
        text = "influence " + (" · ".join(totals) if totals else "none")
        lines.append((text + (f"  ({pieces})" if pieces else ""), False, 14))
    return lines


def _wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    words = text.split(" ")
    out: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and fnt.getlength(trial) > width:
            out.append(current)
            current = word
        else:
            current = trial
    if current:
        out.append(current)
    return out


def sheet_height(view: Mapping[str, Any], width: int) -> int:
    """Pixels the sheet needs (so the image can grow when a game had many soldiers)."""
    lines = _laid_out(view, width)
    players = int(view["players"])
    return 40 + LINE * len(lines) + 30 + 32 * (players + 1) + 40


def _laid_out(view: Mapping[str, Any], width: int) -> list[Line]:
    out: list[Line] = []
    for text, bold, indent in hill_lines(view["scoring"]):
        fnt = font(14, bold=bold)
        for i, part in enumerate(_wrap(text, fnt, width - indent - 10)):
            out.append((part, bold, indent + (12 if i else 0)))
    return out


def draw_sheet(
    draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int, width: int
) -> None:
    draw.text((x, y), "Scoring, hill by hill (A to G)", font=font(18, bold=True), fill=INK)
    y += 30
    for text, bold, indent in _laid_out(view, width):
        draw.text(
            (x + indent, y), text, font=font(14, bold=bold), fill=INK if bold or indent else MUTED
        )
        y += LINE
    y += 12
    _table(draw, view, x, y)


def _table(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> None:
    outcome = view["outcome"]
    cols = (("Player", 0), ("Laurels", 120), ("Discs", 200), ("Captures", 265), ("VP", 355))
    for title, dx in cols:
        draw.text((x + dx, y), title, font=font(15, bold=True), fill=INK)
    y += 24
    draw.line([(x, y), (x + 400, y)], fill=MUTED)
    y += 6
    place = {seat: i + 1 for i, group in enumerate(outcome["ranking"]) for seat in group}
    order = [seat for group in outcome["ranking"] for seat in group]
    for seat in order:
        parts = outcome["breakdown"][seat]
        draw_piece(draw, (x + 12, y + 13), 11, seat, "M")
        draw.text(
            (x + 30, y + 13),
            f"{seat_name(seat)}  #{place[seat]}",
            font=font(15, bold=True),
            fill=INK,
            anchor="lm",
        )
        values = (parts["laurels"], parts["discs"], parts["captures"], outcome["scores"][seat])
        for (_, dx), value in zip(cols[1:], values, strict=True):
            bold = dx == cols[-1][1]
            draw.text((x + dx, y + 13), str(value), font=font(15, bold=bold), fill=INK, anchor="lm")
        y += 30
    notes = outcome.get("notes") or []
    for note in notes:
        for part in _wrap(note, font(13), 400):
            draw.text((x, y + 4), part, font=font(13), fill=MUTED)
            y += 18
