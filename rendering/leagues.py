"""The league standings image: a table of rank, name, rating, games, wins, reliability and the
change since the last round. Takes plain rows (no bot types): ``render_standings(title, rows)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.common import INK, MUTED, PAPER, WHITE, font

SHOWN = 20
NAME_LIMIT = 22
TITLE_LIMIT = 50
WIDTH = 760
ROW = 34
TOP = 92
# Rises dark green, falls dark red: 4.5:1 or more on the paper and on the row band (WCAG AA);
# a change also carries its sign, never colour alone.
UP = (0, 105, 60)
DOWN = (170, 40, 0)
BAND = (238, 232, 218)

COLUMNS = (  # (heading, x, anchor)
    ("#", 34, "rm"), ("Player", 50, "lm"), ("Rating", 390, "rm"), ("Change", 470, "rm"),
    ("Played", 550, "rm"), ("Won", 610, "rm"), ("Reliability", 730, "rm"),
)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    rating: float
    games: int
    wins: int
    reliability: float  # 0..1
    provisional: bool
    change: float | None = None
    forfeits: int = 0


def _name(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NAME_LIMIT else text[: NAME_LIMIT - 1] + "…"


def _change(value: float | None) -> tuple[str, tuple[int, int, int]]:
    if value is None:
        return "new", MUTED
    if abs(value) < 0.05:
        return "=", MUTED
    return (f"▲ {value:.1f}", UP) if value > 0 else (f"▼ {-value:.1f}", DOWN)


def render_standings(title: str, rows: Sequence[StandingRow]) -> Image.Image:
    shown = list(rows[:SHOWN])
    height = TOP + ROW * max(1, len(shown)) + 44
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1] + "…"
    draw.text((20, 16), title, font=font(24, bold=True), fill=INK)
    y = TOP - 22
    for heading, x, anchor in COLUMNS:
        draw.text((x, y), heading, font=font(15, bold=True), fill=MUTED, anchor=anchor)
    draw.line((16, TOP - 6, WIDTH - 16, TOP - 6), fill=MUTED, width=1)
    body, bold = font(17), font(17, bold=True)
    if not shown:
        draw.text((50, TOP + ROW / 2), "Nobody has signed up yet.", font=body, fill=MUTED,
                  anchor="lm")
    for i, row in enumerate(shown):
        top = TOP + i * ROW
        if i % 2:
            draw.rectangle((16, top, WIDTH - 16, top + ROW), fill=BAND)
        mid = top + ROW / 2
        rating = f"{row.rating:.1f}" + ("?" if row.provisional else "")
        change, tint = _change(row.change)
        cells = (
            (str(row.rank), bold, INK), (_name(row.name), bold if row.rank <= 3 else body, INK),
            (rating, bold, MUTED if row.provisional else INK), (change, body, tint),
            (str(row.games), body, INK), (str(row.wins), body, INK),
            (f"{round(row.reliability * 100)}%", body,
             DOWN if row.reliability < 0.8 else INK),
        )
        for (_, x, anchor), (text, fnt, fill) in zip(COLUMNS, cells, strict=True):
            draw.text((x, mid), text, font=fnt, fill=fill, anchor=anchor)
    foot = TOP + ROW * max(1, len(shown)) + 22
    note = "Rating = skill − 3 × uncertainty.  ? = provisional (fewer than 5 games)."
    if len(rows) > SHOWN:
        note = f"Top {SHOWN} of {len(rows)}.  " + note
    draw.text((20, foot), note, font=font(13), fill=MUTED, anchor="lm")
    draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=WHITE)
    return image


def standings_alt_text(title: str, rows: Sequence[StandingRow]) -> str:
    """The image told in words, for screen readers."""
    parts = [f"{title} standings."]
    for row in rows[:SHOWN]:
        parts.append(
            f"{row.rank}. {_name(row.name)}, rating {row.rating:.1f}"
            + (" provisional" if row.provisional else "")
            + f", {row.games} played, {row.wins} won, reliability {round(row.reliability * 100)}%."
        )
    return " ".join(parts)[:1000]
