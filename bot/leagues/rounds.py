"""A league round: tables formed from the signed-up members, then opened through the table use
cases (open, join, add a computer, start), one per channel the front end provides."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from itertools import combinations

from bot.leagues.pairing import Entrant, form_tables
from bot.leagues.results import all_time, season_scope
from bot.leagues.service import Leagues
from bot.notices import Notice
from bot.store import LeagueRecord, RoundRecord, SeasonRecord
from bot.tables import Tables
from bot.values import Member, TableError


@dataclass(frozen=True)
class RoundPlan:
    league: LeagueRecord
    round: RoundRecord
    tables: list[list[Member]]  # best rating first
    computers: list[int]  # computer seats to add, per table
    sitting_out: list[Member]


class Rounds:
    def __init__(self, leagues: Leagues, tables: Tables) -> None:
        self.leagues = leagues
        self.tables = tables
        self.store = leagues.store

    async def plan(self, guild_id: int, member: Member, name: str,
                   roles: Collection[int] = ()) -> RoundPlan:
        """Form the next round's tables and store the round (with everyone's rating now, for
        "change since last round"). Opening the tables is ``open_table``'s job."""
        await self.leagues.require_runner(guild_id, member, roles, "start a round")
        league = await self.leagues.named(guild_id, name)
        if league.closed:
            raise TableError("That league is closed.")
        signed = await self.store.league_members(league.id)
        season = await self.leagues.current_season(league)
        scope = season_scope(season.id) if season else all_time(guild_id, league.game_id)
        ratings = await self.store.ratings(scope)
        entrants = [Entrant(m.member_id, ratings[m.member_id].shown if m.member_id in ratings
                            else 0.0, ratings[m.member_id].games if m.member_id in ratings
                            else 0) for m in signed]
        low, high = self.leagues.seat_range(league)
        made = form_tables(entrants, low, high, await self._met(league, season),
                           league.computers)
        if not made.tables:
            raise TableError(
                f"Not enough members signed up for a table ({len(signed)} signed up; a table "
                f"needs {low} to {high} seats{', computers may fill' if league.computers else ''})."
            )
        members = {m.member_id: Member(m.member_id, m.name) for m in signed}
        marks = {e.member_id: e.rating for e in entrants}
        record = await self.store.add_round(league.id, season.id if season else None, marks)
        return RoundPlan(league, record, [[members[i] for i in t] for t in made.tables],
                         made.computers, [members[i] for i in made.sitting_out])

    async def _met(self, league: LeagueRecord, season: SeasonRecord | None
                   ) -> Counter[frozenset[int]]:
        """How often each pair of members sat together this season (or ever)."""
        since = season.started_at if season else ""
        by_table: dict[int, list[int]] = {}
        for table_id, member_id in await self.store.league_seatings(league.id, since):
            by_table.setdefault(table_id, []).append(member_id)
        met: Counter[frozenset[int]] = Counter()
        for seated in by_table.values():
            met.update(frozenset(pair) for pair in combinations(sorted(seated), 2))
        return met

    async def open_table(self, plan: RoundPlan, index: int, channel_id: int,
                         guild_id: int) -> Notice:
        """Open table ``index`` of the plan in ``channel_id``, seat its members (and computer
        seats), start it, and file it under the round. Returns the start notice."""
        members = plan.tables[index]
        opener = members[0]
        await self.tables.open(plan.league.game_id, channel_id, opener, guild_id=guild_id,
                               league=plan.league.name, seat_order="shuffled")
        for member in members[1:]:
            await self.tables.join(channel_id, member)
        for _ in range(plan.computers[index]):
            await self.tables.add_computer(channel_id, opener)
        table = await self.tables.table_in(channel_id)
        await self.store.add_round_table(plan.round.id, table.id)
        return await self.tables.start(channel_id, opener)
