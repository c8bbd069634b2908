"""Deadlines planned again while a turn is open: when a member changes their holiday or quiet
hours, when a paused table resumes, when the table extends a turn, and when an absent member
comes back. Each goes through ``bot.pace.plan.deadline``, like a new turn's."""

from __future__ import annotations

from collections.abc import Callable, Collection

from bot.pace.base import SchedulerBase
from bot.pace.plan import deadline, turn_span
from bot.store.timing_records import SeatClock, TurnRecord

# A turn's new extra time (seconds added to its deadline), from the turn and the time now.
Added = Callable[[TurnRecord, int], int]


def afresh(turn: TurnRecord, now: int) -> int:
    """The turn's time counts again from now (a vote to wait, a return from absence)."""
    return max(turn.extra, now - turn.started_at)


class Deadlines(SchedulerBase):
    async def gone(self, table_id: int, member_id: int | None) -> None:
        """The member's seat went absent or was voted out: an abandoned game on their
        reliability record (once per table)."""
        if member_id is not None:
            await self.store.add_member_event(member_id, table_id, "abandoned", 0, self.now())

    async def replan(self, table_id: int, seats: Collection[int] | None = None,
                     added: Added | None = None, least: Added | None = None
                     ) -> dict[int, int]:
        """Plan again the deadlines of the table's open turns (those of ``seats``, or all):
        from their start, the table's timing and each member's settings as they are now.
        ``added`` gives turns new extra time; a fired turn then waits for its new deadline
        (without it, fired turns are left to what firing decided). ``least``: the earliest a
        new deadline may fall before quiet hours and holidays move it on (so a deadline that
        quiet hours had pushed is not pushed back to where it was). Returns the deadlines
        that changed, by member."""
        timing = await self.timing(table_id)
        turns = [t for t in (await self.store.open_turns(table_id)).values()
                 if seats is None or t.seat in seats]
        if not turns:
            return {}
        clocks = await self.store.seat_clocks(table_id)
        members = await self.settings_of(t.member_id for t in turns if t.member_id)
        now, changed = self.now(), {}
        for turn in turns:
            if turn.member_id is None:
                continue
            extra = turn.extra if added is None else added(turn, now)
            clock = clocks.get(turn.seat) or SeatClock(turn.seat, bank=timing.period)
            if least is not None and timing.timed:
                extra = max(extra, least(turn, now) - turn.started_at - turn_span(timing, clock))
            due, reminder = deadline(timing, clock, members[turn.member_id], turn.started_at,
                                     extra, now)
            if await self.store.set_deadline(turn.id, due, reminder, extra, added is not None):
                if due is not None:
                    changed[turn.member_id] = due
        return changed

    async def replan_member(self, member_id: int) -> None:
        """After a member's holiday or quiet hours changed: their open turns, everywhere."""
        tables: dict[int, set[int]] = {}
        for w in await self.store.waiting_turns(member_id):
            tables.setdefault(w.table_id, set()).add(w.seat)
        for table_id, seats in tables.items():
            await self.replan(table_id, seats)

    async def present(self, table_id: int, member_id: int) -> bool:
        """The member acted at the table (a move, ``/hand``, a button, ``/game back``): an
        absent seat of theirs is theirs again, its open turn with its full time from now.
        True when they were absent."""
        clocks = await self.store.seat_clocks(table_id)
        if not any(c.absent for c in clocks.values()):
            return False
        back = [s.position for s in await self.tables.seats(table_id)
                if s.member_id == member_id and s.position in clocks
                and clocks[s.position].absent]
        for seat in back:
            await self.store.set_absent(table_id, seat, False)
        if back:
            await self.replan(table_id, back, afresh)
        return bool(back)
