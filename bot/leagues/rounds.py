"""League tables through the table use cases: a round's tables formed from the signed-up
members and opened (open, join, add a computer, start), one per channel the front end provides;
tables an organiser opens for the league outside rounds; and a member walking out of a league
game, which is a forfeit.

A round is open until every one of its tables has ended (or its deadline settles them); a new
round is refused while one is open, unless the organiser forces it (the open one is then
closed, its tables play on and still count).

Opening a round is recoverable: its plan (who sits at which table) is stored with the round,
before any table is made, and each step of opening a table is harmless twice (a slot's channel
and table are filed once; members already seated are not seated again; a started table is not
started again). A process that starts finishes the rounds a crash left half open
(``opening``), or rolls one back (``roll_back``) when it cannot."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import timedelta
from itertools import combinations
from typing import Any

from bot.leagues.pairing import Entrant, form_tables
from bot.leagues.service import Leagues
from bot.notices import Notice
from bot.store import LeagueRecord, RoundRecord, RoundSlot, SeasonRecord, Status
from bot.tables import Tables
from bot.values import Member, TableError

ROLLBACK = Member(0, "Opening the round", is_admin=True)
STILL_OPEN = ("A round of this league is still open: it completes when all its tables have "
              "ended (or at its deadline). Use `force` to open the next round anyway.")


@dataclass(frozen=True)
class RoundPlan:
    league: LeagueRecord
    round: RoundRecord
    tables: list[list[Member]]  # best rating first
    computers: list[int]  # computer seats to add, per table
    sitting_out: list[Member]
    # Signed up but not checked in (leagues with check-in): listed with the round.
    no_shows: list[Member] = field(default_factory=list)


# The plan's lists that are no table, by their slot number in the stored plan.
SITTING_OUT, NO_SHOWS = -1, -2


class Rounds:
    def __init__(self, leagues: Leagues, tables: Tables) -> None:
        self.leagues = leagues
        self.tables = tables
        self.store = leagues.store

    async def plan(self, guild_id: int, member: Member, name: str,
                   roles: Collection[int] = (), *, force: bool = False,
                   deadline: timedelta | None = None, auto_next: bool = False) -> RoundPlan:
        """Form the next round's tables and store the round (with everyone's rating now, for
        "change since last round"). Opening the tables is ``open_table``'s job. Refused while
        a round of the league is open, unless ``force``; two requests at the same moment
        cannot both succeed (the store decides, in one transaction). With ``auto_next`` (and
        a deadline), the next round opens by itself at the deadline, with the same time."""
        if auto_next and deadline is None:
            raise TableError("Only a round with a deadline can open the next one by itself.")
        await self.leagues.require_runner(guild_id, member, roles, "start a round")
        league = await self.leagues.named(guild_id, name)
        if league.closed:
            raise TableError("That league is closed.")
        # The open round is the reason to refuse, whoever has checked in (the store decides
        # again when the round is added, for two requests at once).
        if not force and any(r.open for r in await self.store.rounds(league.id)):
            raise TableError(STILL_OPEN)
        signed = await self.store.league_members(league.id)
        absent = []
        if league.checkin:
            # Only members present for this round are paired (they checked in for it).
            present = await self.store.checked_in(league.id)
            absent = [m for m in signed if m.member_id not in present]
            signed = [m for m in signed if m.member_id in present]
        season = await self.leagues.current_season(league)
        ratings = await self.leagues.ratings_now(league, season, [m.member_id for m in signed])
        entrants = [Entrant(m.member_id, ratings[m.member_id].shown,
                            ratings[m.member_id].games) for m in signed]
        low, high = self.leagues.seat_range(league)
        met = await self._met(league, season)
        made = await asyncio.to_thread(form_tables, entrants, low, high, met, league.computers)
        if not made.tables:
            seats = f"{low}" if low == high else f"{low} to {high}"
            raise TableError(
                f"Not enough members {'checked in' if league.checkin else 'signed up'} for a "
                f"table ({len(signed)}; a table "
                f"needs {seats} seats{', computers may fill' if league.computers else ''})."
            )
        members = {m.member_id: Member(m.member_id, m.name) for m in signed}
        marks = {e.member_id: e.rating for e in entrants}
        due = None if deadline is None else (self.leagues.clock() + deadline).isoformat(
            timespec="seconds")
        # The plan is stored with the round (one transaction), before any table is made.
        slots = [RoundSlot(SITTING_OUT, [(i, members[i].name) for i in made.sitting_out]),
                 RoundSlot(NO_SHOWS, [(m.member_id, m.name) for m in absent])] + [
            RoundSlot(k, [(i, members[i].name) for i in t], made.computers[k])
            for k, t in enumerate(made.tables)]
        record = await self.store.add_round(league.id, season.id if season else None, marks,
                                            force=force, deadline=due,
                                            auto_next=int(deadline.total_seconds())
                                            if auto_next and deadline else None, plan=slots)
        if record is None:
            raise TableError(STILL_OPEN)
        return RoundPlan(league, record, [[members[i] for i in t] for t in made.tables],
                         made.computers, [members[i] for i in made.sitting_out],
                         [Member(m.member_id, m.name) for m in absent])

    async def opening(self) -> list[RoundPlan]:
        """The plans of the rounds whose tables a crash left half opened, to finish."""
        plans = []
        for round_ in await self.store.opening_rounds():
            league = await self.store.get_league(round_.league_id)
            if league is None:
                continue
            slots = await self.store.round_plan(round_.id)
            seated = [[Member(m, name) for m, name in s.members] for s in slots]
            plans.append(RoundPlan(
                league, round_, [seated[i] for i, s in enumerate(slots) if s.slot >= 0],
                [s.computers for s in slots if s.slot >= 0],
                [m for i, s in enumerate(slots) if s.slot == SITTING_OUT for m in seated[i]],
                [m for i, s in enumerate(slots) if s.slot == NO_SHOWS for m in seated[i]]))
        return plans

    async def slots(self, plan: RoundPlan) -> list[RoundSlot]:
        """The plan's tables as stored (their channels and tables so far), by index."""
        return [s for s in await self.store.round_plan(plan.round.id) if s.slot >= 0]

    async def roll_back(self, round_: RoundRecord) -> list[Notice]:
        """A round that cannot finish opening: its tables end without a result and it
        closes (a new round may then open)."""
        told = []
        for table in await self.store.round_tables(round_.id):
            if table.live:
                try:
                    told.append(await self.tables.abandon(table.id, ROLLBACK))
                except TableError:
                    continue  # it ended meanwhile
        await self.store.close_round(round_.id)
        return told

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
        _, notice = await self.open_slot(plan, index, channel_id, guild_id)
        if notice is None:
            raise TableError(f"Table {index + 1} of this round has started already.")
        return notice

    async def open_slot(self, plan: RoundPlan, index: int, channel_id: int,
                        guild_id: int) -> tuple[int, Notice | None]:
        """``open_table``, harmless twice: what was done before a crash is not done again.
        The table's id, and its start notice (None when it had started before: the
        table's own catch-up tells what it never announced)."""
        members = plan.tables[index]
        opener = members[0]
        # The channel is filed first, so a table opened in it but not yet filed is found.
        channel_id = await self.store.set_slot_channel(plan.round.id, index, channel_id)
        table_id = (await self.slots(plan))[index].table_id
        if table_id is None:
            made = await self.store.live_table(channel_id)
            if made is None or made.league_id != plan.league.id:
                made_id = (await self.tables.open(
                    plan.league.game_id, channel_id, opener, guild_id=guild_id,
                    league=plan.league.name, seat_order="shuffled")).table_id
            else:
                made_id = made.id
            table_id = await self.store.file_slot_table(plan.round.id, index, made_id)
        notice = None
        if (await self.tables.table_for(table_id)).status == Status.LOBBY:
            seats = await self.tables.seats(table_id)
            seated = {s.member_id for s in seats}
            for member in members[1:]:
                if member.id not in seated:
                    await self.tables.join(table_id, member)
            for _ in range(plan.computers[index] - sum(s.is_computer for s in seats)):
                await self.tables.add_computer(table_id, opener)
            notice = await self.tables.start(table_id, opener)
        await self._opened(plan)
        return table_id, notice

    async def _opened(self, plan: RoundPlan) -> None:
        """Once every table of the plan has started, the round is opened; if they have all
        ended already, it is complete too (no table's end could close it before)."""
        slots = await self.slots(plan)
        if any(s.table_id is None for s in slots):
            return
        made = [await self.tables.table_for(s.table_id) for s in slots if s.table_id]
        if any(t.status == Status.LOBBY for t in made):
            return
        await self.store.mark_round_opened(plan.round.id)
        if all(not t.live for t in made):
            await self.store.close_round(plan.round.id)

    async def open_for_league(self, guild_id: int, member: Member, game_id: str,
                              channel_id: int, name: str, roles: Collection[int] = (),
                              **options: Any) -> Notice:
        """``/game new league:<name>``: only an organiser opens a league table outside
        rounds; the table is sanctioned, so its result counts (and nobody else's does)."""
        await self.leagues.require_runner(
            guild_id, member, roles,
            "open a league table outside rounds (league games are played in rounds)")
        league = await self.leagues.named(guild_id, name)
        notice = await self.tables.open(game_id, channel_id, member, guild_id=guild_id,
                                        league=league.name, **options)
        await self.store.sanction_table(league.id, notice.table_id, member.id)
        return notice

    async def abandon(self, table_id: int, member: Member) -> Notice:
        """``/game abandon`` at a league table by one of its players: their seat forfeits
        (last place for rating purposes), the table ends, and whoever stayed shares first
        place. By anyone else (the creator, a server manager) it is the ordinary abandon:
        no result unless a seat forfeited before."""
        table = await self.tables.table_for(table_id)
        seat = next((s.position for s in await self.tables.seats(table_id)
                     if s.member_id == member.id), None)
        if table.league_id is not None and seat is not None and table.status == "playing":
            await self.leagues.recorder.forfeit(table_id, seat, "abandoned")
        notice = await self.tables.abandon(table_id, member)
        await self.leagues.recorder.record(table_id)
        return notice

