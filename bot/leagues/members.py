"""What a member sees of themselves in a league: rank, rating and points now, their results
(with the rating each moved), and where they play in the open round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.leagues.report import StandingLine, rating_moves, safe_name
from bot.leagues.service import Leagues
from bot.leagues.tournament import PointsLine
from bot.store import LeagueResult, RoundRecord
from bot.values import TableError

HISTORY_SHOWN = 10


@dataclass(frozen=True)
class Played:
    result: LeagueResult
    place: int
    seats: int
    forfeited: bool
    before: float | None  # shown rating before and after (None: unrated)
    after: float | None


@dataclass(frozen=True)
class MemberView:
    name: str
    title: str
    standing: StandingLine | None
    points: PointsLine | None
    ranked: int  # members in the standings
    played: list[Played]  # newest first
    round: RoundRecord | None  # the league's open round
    table_channel: int | None  # the member's table in it
    table_over: bool = False  # that table has ended (the round waits for others)
    table_result: Played | None = None  # and the member's finish there, once recorded


async def member_view(leagues: Leagues, guild_id: int, name: str, member_id: int,
                      member_name: str) -> MemberView:
    standings = await leagues.standings(guild_id, name)
    league = standings.league
    line = next((x for x in standings.lines if x.member_id == member_id), None)
    points = next((x for x in standings.points if x.member_id == member_id), None)
    store = leagues.store
    everything = [r for r in await store.league_results()
                  if r.guild_id == guild_id and r.game_id == league.game_id]
    moves = rating_moves(everything, await store.season_carries())
    played = []
    for r in reversed(everything):
        if r.league_id != league.id:
            continue
        mine = next((p for p in r.places if p.member_id == member_id), None)
        if mine is None:
            continue
        moved = moves.get((r.id, member_id))
        played.append(Played(r, mine.place, len(r.places), mine.forfeited,
                             moved[0] if moved else None, moved[1] if moved else None))
    open_round = next((r for r in await store.open_rounds() if r.league_id == league.id), None)
    channel, over, finish = None, False, None
    if open_round is not None:
        for table in await store.round_tables(open_round.id):
            if any(s.member_id == member_id for s in await store.seats(table.id)) or any(
                    f.member_id == member_id for f in await store.forfeits(table.id)):
                channel, over = table.channel_id, not table.live
                finish = next((p for p in played if p.result.table_id == table.id), None)
                if not over:
                    break  # a live table first: that is where the member plays now
    if line is None and not played:
        raise TableError(f"{safe_name(member_name)} has no standing in {safe_name(league.name)}"
                         " yet: sign up with `/league join`.")
    return MemberView(member_name, standings.title, line, points, len(standings.lines),
                      played, open_round, channel, over, finish)


def history_lines(played: Sequence[Played], shown: int = HISTORY_SHOWN) -> list[str]:
    out = []
    for p in played[:shown]:
        moved = (f" · rating {p.before:.1f} → {p.after:.1f}"
                 if p.before is not None and p.after is not None else "")
        how = " (forfeit)" if p.forfeited else ""
        void = f" · void: {safe_name(p.result.voided, 80)}" if p.result.voided else ""
        out.append(f"- #{p.result.id} {p.result.finished_at[:10]}: place {p.place} of "
                   f"{p.seats}{how}{moved}{void}")
    if len(played) > shown:
        out.append(f"… and {len(played) - shown} earlier (`/league export`).")
    return out


def me_text(view: MemberView, now: datetime) -> str:
    out = [f"**{safe_name(view.name)}** in **{view.title}**"]
    if view.standing is not None:
        s = view.standing
        out.append(f"Rank {s.rank} of {view.ranked}: rating {s.rating:.1f}"
                   f"{'?' if s.provisional else ''} · {s.games} played, {s.wins} won")
    if view.points is not None:
        p = view.points
        out.append(f"Points: {p.points:g} (place {p.rank} by points)")
    if view.round is None:
        out.append("No round is open; the next opens when an organiser starts it.")
    else:
        if view.table_channel and view.table_over:
            done = view.table_result
            where = f"your table <#{view.table_channel}> has finished" + (
                f": place {done.place} of {done.seats}{' (forfeit)' if done.forfeited else ''}"
                if done is not None else "")
        else:
            where = (f"your table is <#{view.table_channel}>" if view.table_channel
                     else "you have no table in it")
        until = ""
        if view.round.deadline:
            when = datetime.fromisoformat(view.round.deadline)
            until = f" (deadline <t:{int(when.timestamp())}:R>)" if when > now else ""
        out.append(f"Round {view.round.number} is open{until}: {where}.")
    if view.played:
        out.append("Your latest results:")
        out += history_lines(view.played, 5)
    return "\n".join(out)


def history_text(view: MemberView) -> str:
    if not view.played:
        return f"**{safe_name(view.name)}** has no results in **{view.title}** yet."
    return "\n".join([f"**{safe_name(view.name)}** in **{view.title}**, newest first:",
                      *history_lines(view.played)])
