"""Standings lines, their text, and the CSV of results: plain data from stored results."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.leagues.ratings import Rating, provisional
from bot.leagues.reliability import percent, reliability
from bot.leagues.results import is_rated
from bot.store import LeagueResult
from bot.text import clean_name, escape
from rendering.common import encode_png
from rendering.leagues import StandingRow, render_standings, standings_alt_text

NAME_LIMIT = 32
SHOWN = 20


@dataclass(frozen=True)
class StandingLine:
    rank: int
    member_id: int
    name: str
    rating: float  # the shown rating, mu - 3 sigma
    games: int
    wins: int
    forfeits: int
    reliability: float  # 0..1
    provisional: bool
    change: float | None  # since the last round; None when unknown


def safe_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A member-supplied name made inert for chat markdown and mentions, cut to ``limit``."""
    return escape(clean_name(name, limit))


def standing_lines(
    ratings: Mapping[int, Rating],
    names: Mapping[int, str],
    finishes: Iterable[tuple[int, str, bool]],
    marks: Mapping[int, float] | None,
    now: datetime,
) -> list[StandingLine]:
    """Everyone in ``names`` ranked by shown rating, then wins, then name. Members without a
    rating yet show the default one."""
    history: dict[int, list[tuple[datetime, bool]]] = {}
    for member, when, forfeited in finishes:
        history.setdefault(member, []).append((datetime.fromisoformat(when), forfeited))
    rows = []
    for member, name in names.items():
        r = ratings.get(member) or Rating()
        mark = None if marks is None else marks.get(member)
        rows.append((r, member, name, None if mark is None else r.shown - mark))
    rows.sort(key=lambda x: (-round(x[0].shown, 6), -x[0].wins, x[2].lower(), x[1]))
    return [
        StandingLine(i, member, name, r.shown, r.games, r.wins, r.forfeits,
                     reliability(history.get(member, ()), now), provisional(r), change)
        for i, (r, member, name, change) in enumerate(rows, start=1)
    ]


def standings_text(title: str, lines: Sequence[StandingLine]) -> str:
    """Lines for the channel: names made inert, provisional ratings marked with '?'."""
    if not lines:
        return f"**{title}**: nobody has signed up yet."
    out = [f"**{title}** (rating = skill − 3 × uncertainty; ? = provisional)"]
    for line in lines[:SHOWN]:
        change = "" if not line.change else f" ({line.change:+.1f})"
        out.append(
            f"{line.rank}. {safe_name(line.name)}: {line.rating:.1f}"
            f"{'?' if line.provisional else ''}{change} · {line.games} played, {line.wins} won"
            + (f", {line.forfeits} forfeited" if line.forfeits else "")
            + f" · reliability {percent(line.reliability)}"
        )
    if len(lines) > SHOWN:
        out.append(f"… and {len(lines) - SHOWN} more")
    return "\n".join(out)


CSV_COLUMNS = ("result", "table", "finished_at", "season", "round", "seat", "place",
               "member_id", "name", "computer", "forfeited", "rated", "abandoned")


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    # A spreadsheet would run a cell starting like a formula; a quote keeps it text.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_csv(results: Iterable[LeagueResult], season_numbers: Mapping[int, int],
                round_numbers: Mapping[int, int]) -> str:
    """One row per seat of every result, in the order the results were recorded."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in results:
        season = season_numbers.get(r.season_id) if r.season_id is not None else None
        round_ = round_numbers.get(r.round_id) if r.round_id is not None else None
        for p in sorted(r.places, key=lambda p: (p.place, p.seat)):
            writer.writerow([_cell(v) for v in (
                r.id, r.table_id, r.finished_at, season, round_, p.seat + 1, p.place,
                p.member_id, p.name, int(p.member_id is None), int(p.forfeited),
                int(is_rated(r)), int(r.abandoned),
            )])
    return buffer.getvalue()


def standings_png(title: str, lines: Sequence[StandingLine]) -> tuple[bytes, str]:
    """The standings image (PNG) and its alt text, for Discord and the league's web page."""
    rows = [StandingRow(x.rank, x.name, x.rating, x.games, x.wins, x.reliability,
                        x.provisional, x.change, x.forfeits) for x in lines]
    image = render_standings(title, rows)
    return encode_png(image), standings_alt_text(title, rows)
