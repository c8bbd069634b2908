"""Changing a running table's time (creator or server manager): more time for the seats
waited on, another pace, another out-of-time policy. Each is said in the channel."""

from __future__ import annotations

from dataclasses import asdict, replace

from bot.leagues.reliability import Record, member_events, percent, record_of
from bot.pace.deadlines import afresh
from bot.pace.model import MAX_PERIOD, MIN_PERIOD, Mode, make_timing, parse_duration, span
from bot.pace.notices import deadline_text
from bot.pace.votes import Votes
from bot.store import Status
from bot.store.timing_records import TurnRecord
from bot.text import escape
from bot.values import Member, TableError


class Running(Votes):
    async def record(self, member_id: int) -> Record:
        """A member's reliability record (``/profile``, a table's or a league's minimum)."""
        return record_of(member_events(await self.store.member_events(member_id),
                                       await self.store.member_league_games(member_id)),
                         self.now())

    async def may_join(self, table_id: int, member_id: int) -> None:
        """Refused when the table asks for a reliability the member does not have."""
        least = (await self.timing(table_id)).min_reliability
        if least and (mine := await self.record(member_id)).score * 100 < least:
            raise TableError(f"This table asks for a reliability of {least}%; yours is "
                             f"{percent(mine.score)} (`/profile`). Finished games raise it, "
                             "and old misses fade.")

    async def left(self, table_id: int, member_id: int) -> None:
        """The member abandoned a game they sat at (``/game abandon``)."""
        if any(s.member_id == member_id for s in await self.tables.seats(table_id)):
            await self.gone(table_id, member_id)

    async def managed(self, table_id: int, member: Member, what: str) -> None:
        table = await self.tables.live.record(table_id)
        if member.id != table.creator_id and not member.is_admin:
            raise TableError(f"Only the table's creator or a server manager can {what}.")
        if table.status != Status.PLAYING:
            raise TableError("Only a game in progress has a clock.")

    async def extend(self, table_id: int, member: Member, by: str | None) -> str:
        """``/game extend``: every seat waited on here gets ``by`` more (one period if not
        given), counted from its deadline, or from now when that has passed."""
        await self.managed(table_id, member, "extend its deadlines")
        timing = await self.timing(table_id)
        if not timing.timed:
            raise TableError("This table has no time limit to extend.")
        more = parse_duration(by) if by else timing.period
        if not MIN_PERIOD <= more <= MAX_PERIOD:
            raise TableError("Extend by 1 minute to 14 days.")

        def added(turn: TurnRecord, now: int) -> int:
            late = max(0, now - turn.due_at) if turn.due_at is not None else 0
            return turn.extra + late + more

        def least(turn: TurnRecord, now: int) -> int:
            return max(now, turn.due_at if turn.due_at is not None else now) + more

        changed = await self.replan(table_id, None, added, least)
        if not changed:
            raise TableError("No seat is waited on here (or a vote is deciding).")
        return (f"{escape(member.name)} gave the table {span(more)} more. "
                + await self._deadlines(table_id, changed))

    async def change_pace(self, table_id: int, member: Member, pace: str,
                          duration: str | None) -> str:
        """``/game pace`` on a running table: every open turn gets the new time from now."""
        await self._own_timing(table_id, member, "change its pace")
        chosen = make_timing(pace, duration=duration)
        timing = replace(await self.timing(table_id), mode=chosen.mode, period=chosen.period)
        if timing.mode is Mode.BANK:
            raise TableError("A time bank is chosen before the game starts.")
        await self.store.set_table_timing(table_id, asdict(timing))
        changed = await self.replan(table_id, None, afresh)
        said = f"{escape(member.name)} changed the pace. {timing.describe()}"
        return f"{said} {await self._deadlines(table_id, changed)}" if changed else said

    async def change_policy(self, table_id: int, member: Member, policy: str,
                            level: str | None) -> str:
        """``/game out-of-time`` on a running table; seats the table was waiting for under
        the old rule get a new deadline from now."""
        await self._own_timing(table_id, member, "change what happens out of time")
        now = await self.timing(table_id)
        chosen = make_timing("none", policy=policy, level=level or now.level)
        timing = replace(now, policy=chosen.policy, level=chosen.level)
        await self.store.set_table_timing(table_id, asdict(timing))
        changed = await self.replan(table_id, None, afresh) if timing.timed else {}
        said = f"{escape(member.name)} changed the out-of-time rule. {timing.describe()}"
        return f"{said} {await self._deadlines(table_id, changed)}" if changed else said

    async def _own_timing(self, table_id: int, member: Member, what: str) -> None:
        await self.managed(table_id, member, what)
        if (await self.store.timing_in_force(table_id))[1]:
            raise TableError("This table's league sets its pace and out-of-time rule.")

    async def _deadlines(self, table_id: int, changed: dict[int, int]) -> str:
        names = {s.member_id: s.name for s in await self.tables.seats(table_id)}
        return "New deadlines: " + ", ".join(
            f"{escape(names.get(m, '?'))} {deadline_text(due)}" for m, due in changed.items()
        ) + "."
