"""Changing a running table's time (creator or server manager): more time for the seats
waited on, another pace, another out-of-time policy, a pause; a member back from a holiday
or absence, one who leaves, a substitute who takes a seat. Each is said in the channel."""

from __future__ import annotations

from dataclasses import asdict, replace

from bot.notices import Notice
from bot.pace.deadlines import Deadlines, afresh
from bot.pace.member import plan_holiday
from bot.pace.model import (
    MAX_PERIOD,
    MIN_PERIOD,
    Mode,
    Timing,
    make_timing,
    parse_duration,
    span,
)
from bot.pace.notices import deadline_text
from bot.pace.settings import PaceSettings
from bot.pace.table_time import TableTime
from bot.pace.usecases import substitute
from bot.store import Status
from bot.store.records import TurnRecord
from bot.text import escape
from bot.values import Member, TableError


class Retiming:
    def __init__(self, time: TableTime, deadlines: Deadlines, settings: PaceSettings) -> None:
        self.time, self.deadlines, self.settings = time, deadlines, settings
        self.store, self.tables = time.store, time.tables

    async def left(self, table_id: int, member_id: int) -> None:
        """The member abandoned a game they sat at (``/game abandon``)."""
        if any(s.member_id == member_id for s in await self.tables.seats(table_id)):
            await self.time.gone(table_id, member_id)

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
        timing = await self.time.timing(table_id)
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

        changed = await self.deadlines.replan(table_id, None, added, least)
        if not changed:
            raise TableError("No seat is waited on here (or a vote is deciding).")
        return (f"{escape(member.name)} gave the table {span(more)} more. "
                + await self._deadlines(table_id, changed))

    async def change_pace(self, table_id: int, member: Member, pace: str,
                          duration: str | None) -> str:
        """``/game pace`` on a running table: every open turn gets the new time from now."""
        await self._own_timing(table_id, member, "change its pace")
        chosen = make_timing(pace, duration=duration)
        timing = replace(await self.time.timing(table_id), mode=chosen.mode, period=chosen.period)
        if timing.mode is Mode.BANK:
            raise TableError("A time bank is chosen before the game starts.")
        await self.store.set_table_timing(table_id, asdict(timing))
        changed = await self.deadlines.replan(table_id, None, afresh)
        said = f"{escape(member.name)} changed the pace. {timing.describe()}"
        return f"{said} {await self._deadlines(table_id, changed)}" if changed else said

    async def change_policy(self, table_id: int, member: Member, policy: str,
                            level: str | None) -> str:
        """``/game out-of-time`` on a running table; seats the table was waiting for under
        the old rule get a new deadline from now."""
        await self._own_timing(table_id, member, "change what happens out of time")
        now = await self.time.timing(table_id)
        chosen = make_timing("none", policy=policy, level=level or now.level)
        timing = replace(now, policy=chosen.policy, level=chosen.level)
        await self.store.set_table_timing(table_id, asdict(timing))
        changed = await self.deadlines.replan(table_id, None, afresh) if timing.timed else {}
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

    async def pause(self, table_id: int, member: Member, reason: str) -> str:
        await self.managed(table_id, member, "pause it")
        reason = reason.strip()[:200] or "no reason given"
        if not await self.store.pause_table(table_id, self.time.now(), member.id, reason,
                                            asdict(Timing())):
            raise TableError("This table is already paused.")
        return f"{escape(member.name)} paused the game's clock: {escape(reason)}"

    async def resume(self, table_id: int, member: Member) -> str:
        await self.managed(table_id, member, "resume it")
        paused = await self.store.resume_table(table_id, self.time.now())
        if paused is None:
            raise TableError("This table is not paused.")
        await self.deadlines.replan(table_id)  # moved on by the pause, out of quiet hours again
        return (f"{escape(member.name)} restarted the game's clock; deadlines moved on by "
                "the pause.")

    async def come_back(self, table_id: int, member_id: int) -> tuple[bool, bool]:
        """``/game back``: the member's holiday under way ends now (everywhere) and an absent
        seat of theirs here is theirs again. Whether they were absent, and on holiday."""
        mine = await self.time.settings(member_id)
        on_holiday = mine.away(self.time.now())
        if on_holiday:
            await self.settings.save_settings(plan_holiday(mine, self.time.clock.now(), 0, None))
        return await self.deadlines.present(table_id, member_id), on_holiday

    async def substitute(self, table_id: int, seat: int, newcomer: Member, by: Member
                         ) -> Notice:
        return await substitute(self.tables.live, table_id, seat, newcomer, by,
                                self.time.now())
