"""Standings lines, their text, and the CSV of results: plain data from stored results."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.leagues.ratings import Rating, provisional
from bot.leagues.reliability import percent
from bot.leagues.results import Key, apply, is_rated, season_scope
from bot.leagues.results import all_time as all_time_scope
from bot.leagues.tournament import PointsLine
from bot.store import LeagueResult
from bot.text import clean_name, escape
from bot.values import TableError
from rendering.common import encode_png
from rendering.leagues import StandingRow, render_standings, standings_alt_text

NAME_LIMIT = 32
SHOWN = 20  # lines per page


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
    reliable: Mapping[int, float],
    marks: Mapping[int, float] | None,
) -> list[StandingLine]:
    """Everyone in ``names`` ranked by shown rating, then wins, then name. Members without a
    rating yet show the default one; ``reliable`` holds each member's reliability figure."""
    rows = []
    for member, name in names.items():
        r = ratings.get(member) or Rating()
        mark = None if marks is None else marks.get(member)
        rows.append((r, member, name, None if mark is None else r.shown - mark))
    rows.sort(key=lambda x: (-round(x[0].shown, 6), -x[0].wins, x[2].lower(), x[1]))
    return [
        StandingLine(i, member, name, r.shown, r.games, r.wins, r.forfeits,
                     reliable.get(member, 1.0), provisional(r), change)
        for i, (r, member, name, change) in enumerate(rows, start=1)
    ]


def pages(lines: Sequence[object]) -> int:
    return max(1, -(-len(lines) // SHOWN))


def check_page(lines: Sequence[object], page: int) -> None:
    """A page past the last is refused, saying how many there are."""
    total = pages(lines)
    if page > total:
        raise TableError(f"These standings have only {total} page{'s' if total > 1 else ''}: "
                         + (f"`page:1` to `page:{total}`." if total > 1 else "`page:1`."))


def page_of(lines: Sequence[StandingLine], page: int) -> list[StandingLine]:
    """Lines of page ``page`` (from 1); TableError-free: a page past the end is the last."""
    page = min(max(page, 1), pages(lines))
    return list(lines[(page - 1) * SHOWN: page * SHOWN])


def _footer(count: int, page: int) -> str:
    total = max(1, -(-count // SHOWN))
    page = min(max(page, 1), total)
    if total == 1:
        return ""
    return f"\nPage {page} of {total}" + (
        f" (`page:{page + 1}` for ranks {page * SHOWN + 1}+)" if page < total else "")


def standings_text(title: str, lines: Sequence[StandingLine], page: int = 1) -> str:
    """Lines for the channel: names made inert, provisional ratings marked with '?'."""
    if not lines:
        return f"**{title}**: nobody has signed up yet."
    out = [f"**{title}** (rating = skill − 3 × uncertainty; ? = provisional)"]
    for line in page_of(lines, page):
        change = "" if not line.change else f" ({line.change:+.1f})"
        out.append(
            f"{line.rank}. {safe_name(line.name)}: {line.rating:.1f}"
            f"{'?' if line.provisional else ''}{change} · {line.games} played, {line.wins} won"
            + (f", {line.forfeits} forfeited" if line.forfeits else "")
            + f" · reliability {percent(line.reliability)}"
        )
    return "\n".join(out) + _footer(len(lines), page)


def points_text(title: str, lines: Sequence[PointsLine], page: int = 1) -> str:
    """The tournament table: points, then the tie-breaks that order equal points."""
    if not lines:
        return f"**{title}**: nobody has signed up yet."
    out = [f"**{title}**, points (ties broken by Buchholz, then Sonneborn-Berger, "
           "then rating)"]
    shown = lines[(min(max(page, 1), pages(lines)) - 1) * SHOWN:][:SHOWN]
    for line in shown:
        out.append(
            f"{line.rank}. {safe_name(line.name)}: {_num(line.points)} pts · "
            f"{line.games} played" + (f", {line.byes} bye" if line.byes else "")
            + f" · Buchholz {_num(line.buchholz)} · SB {_num(line.sonneborn)}"
            f" · rating {line.rating:.1f}"
        )
    return "\n".join(out) + _footer(len(lines), page)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


CSV_COLUMNS = ("result", "table", "finished_at", "season", "round", "seat", "place",
               "member_id", "name", "computer", "forfeited", "rated", "abandoned", "voided",
               "score", "rating_before", "rating_after")

Moves = dict[tuple[int, int], tuple[float, float]]  # (result, member) -> shown before, after


def rating_moves(results: Iterable[LeagueResult], carry_of: Mapping[int, float]) -> Moves:
    """Each member's shown rating before and after each result (replayed in recorded
    order): in the result's season, else in the server's all-time rating of the game."""
    book: dict[Key, Rating] = {}
    out: Moves = {}
    for r in results:
        changed = apply(book, r, carry_of.get(r.season_id or 0, 0.0))
        scope = (season_scope(r.season_id) if r.season_id is not None
                 else all_time_scope(r.guild_id, r.game_id))
        for (s, member), after in changed.items():
            if s == scope:
                before = book.get((s, member)) or Rating()
                out[(r.id, member)] = (before.shown, after.shown)
        book.update(changed)
    return out


def _cell(value: object) -> str:
    if isinstance(value, int | float):
        return str(value)  # a number is never a formula, even a negative one
    text = "" if value is None else str(value)
    # A spreadsheet would run a cell starting like a formula; a quote keeps it text.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_csv(results: Iterable[LeagueResult], season_numbers: Mapping[int, int],
                round_numbers: Mapping[int, int], moves: Moves) -> str:
    """One row per seat of every result, in the order the results were recorded."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in results:
        season = season_numbers.get(r.season_id) if r.season_id is not None else None
        round_ = round_numbers.get(r.round_id) if r.round_id is not None else None
        for p in sorted(r.places, key=lambda p: (p.place, p.seat)):
            moved = moves.get((r.id, p.member_id)) if p.member_id is not None else None
            writer.writerow([_cell(v) for v in (
                r.id, r.table_id, r.finished_at, season, round_, p.seat + 1, p.place,
                p.member_id, p.name, int(p.member_id is None), int(p.forfeited),
                int(is_rated(r)), int(r.abandoned), r.voided,
                None if p.score is None else round(p.score, 3),
                None if moved is None else round(moved[0], 3),
                None if moved is None else round(moved[1], 3),
            )])
    return buffer.getvalue()


def standings_png(title: str, lines: Sequence[StandingLine]) -> tuple[bytes, str]:
    """The standings image (PNG) and its alt text, for Discord and the league's web page."""
    rows = [StandingRow(x.rank, x.name, x.rating, x.games, x.wins, x.reliability,
                        x.provisional, x.change, x.forfeits) for x in lines]
    image = render_standings(title, rows)
    return encode_png(image), standings_alt_text(title, rows)
