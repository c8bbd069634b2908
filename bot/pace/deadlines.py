"""Deadlines planned again while a turn is open: when a member changes their holiday or quiet
hours, when a paused table resumes, when the table extends a turn, and when an absent member
comes back. Each goes through ``bot.pace.plan.deadline``, like a new turn's."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace

from bot.pace.member import MemberSettings
from bot.pace.model import Mode
from bot.pace.plan import allowance, deadline, quiet_lead, turn_span
from bot.pace.table_time import TableTime
from bot.store.records import PlanInputs, PlanRequest, PlanRows, SeatClock, TurnRecord

# A turn's new extra time (seconds added to its deadline), from the turn and the time now.
Added = Callable[[TurnRecord, int], int]


def afresh(turn: TurnRecord, now: int) -> int:
    """The turn's time counts again from now (a vote to wait, a return from absence)."""
    return max(turn.extra, now - turn.started_at)


class Deadlines:
    def __init__(self, time: TableTime) -> None:
        self.time = time
        self.store = time.store

    async def replan(self, table_id: int, seats: Collection[int] | None = None,
                     added: Added | None = None, least: Added | None = None,
                     held: Mapping[int, int] | None = None) -> dict[int, int]:
        """Plan again the deadlines of the table's open turns (those of ``seats``, or all):
        from their start, the table's timing and each member's settings as they are now.
        ``added`` gives turns new extra time; a fired turn then waits for its new deadline
        (without it, fired turns are left to what firing decided). ``least``: the earliest a
        new deadline may fall before quiet hours and holidays move it on (so a deadline that
        quiet hours had pushed is not pushed back to where it was). ``held``: holiday already
        taken that the member's settings no longer show, by turn id, added to its extra time.
        A deadline still ahead never moves behind the time now (nor within a reminder's lead
        of it): a member's change of settings must not fire a turn at once. Returns the
        deadlines that changed, by member."""
        timing = await self.time.timing(table_id)
        turns = [t for t in (await self.store.open_turns(table_id)).values()
                 if seats is None or t.seat in seats]
        if not turns:
            return {}
        clocks = await self.store.seat_clocks(table_id)
        members = await self.time.settings_of(t.member_id for t in turns if t.member_id)
        now, changed = self.time.now(), {}
        for turn in turns:
            if turn.member_id is None:
                continue
            extra = turn.extra if added is None else added(turn, now)
            extra += (held or {}).get(turn.id, 0)
            clock = clocks.get(turn.seat) or SeatClock(turn.seat, bank=timing.period)
            if least is not None and timing.timed:
                extra = max(extra, least(turn, now) - turn.started_at - turn_span(timing, clock))
            member = members[turn.member_id]
            due, reminder = deadline(timing, clock, member, turn.started_at, extra, now)
            if due is not None and turn.due_at is not None and turn.fired_at is None:
                floor = min(turn.due_at, now + quiet_lead(timing.period))
                if due < floor:
                    extra = max(extra, floor - turn.started_at - turn_span(timing, clock))
                    due, reminder = deadline(timing, clock, member, turn.started_at, extra,
                                             now)
            if await self.store.set_deadline(turn.id, due, reminder, extra, added is not None):
                if due is not None:
                    changed[turn.member_id] = due
        return changed

    async def replan_member(self, member_id: int, before: MemberSettings | None = None
                            ) -> None:
        """After a member's holiday or quiet hours changed (from ``before``): their open
        turns, everywhere."""
        tables: dict[int, set[int]] = {}
        for w in await self.store.waiting_turns(member_id):
            tables.setdefault(w.table_id, set()).add(w.seat)
        after = await self.time.settings(member_id)
        moved = before is not None and (before.away_from, before.away_until) != (
            after.away_from, after.away_until)
        for table_id, seats in tables.items():
            held = (await self._hold(table_id, seats, before, after)
                    if before is not None and moved else {})
            await self.replan(table_id, seats, held=held)

    async def _hold(self, table_id: int, seats: Collection[int], before: MemberSettings,
                    after: MemberSettings) -> dict[int, int]:
        """Holiday the member already took during their open turns here that the new settings
        no longer show (a holiday ended, then another planned; one planned again from today):
        charged to the seat's allowance now, and kept as the turn's extra time, so neither is
        erased. By turn id."""
        timing = await self.time.timing(table_id)
        if not timing.timed:
            return {}
        clocks = await self.store.seat_clocks(table_id)
        now, held, charged = self.time.now(), {}, {}
        bank = timing.mode is Mode.BANK
        # While the table is paused its clock stands still: holiday since the pause began was
        # never taken from a turn (the resume moves the turn on by the whole pause).
        paused = await self.store.table_clock(table_id)
        upto = now if paused is None or paused.paused_at is None else min(now, paused.paused_at)
        for turn in (await self.store.open_turns(table_id)).values():
            if turn.seat not in seats or turn.member_id != after.member_id:
                continue
            left = allowance(timing, clocks.get(turn.seat) or SeatClock(turn.seat))
            moved = (min(left, before.away_overlap(turn.started_at, upto))
                     - min(left, after.away_overlap(turn.started_at, upto)))
            if moved <= 0:
                continue
            charged[turn.seat] = moved
            if turn.fired_at is None and turn.vote_due is None and not bank:
                held[turn.id] = moved
        if charged:
            def planner(inputs: PlanInputs) -> PlanRows:
                # A bank gets the time back instead: its turn ends charging all it lasted.
                return PlanRows([], [], [
                    replace(c, holiday_used=c.holiday_used + charged[seat],
                            bank=c.bank + (charged[seat] if bank else 0))
                    for seat, c in ((s, inputs.clocks.get(s) or SeatClock(s, bank=timing.period))
                                    for s in charged)])

            await self.store.write_plan(PlanRequest(table_id, (), now, planner))
        return held

    async def present(self, table_id: int, member_id: int) -> bool:
        """The member acted at the table (a move, ``/hand``, a button, ``/game back``): an
        absent seat of theirs is theirs again, its open turn with its full time from now.
        True when they were absent."""
        clocks = await self.store.seat_clocks(table_id)
        if not any(c.absent for c in clocks.values()):
            return False
        back = [s.position for s in await self.time.tables.seats(table_id)
                if s.member_id == member_id and s.position in clocks
                and clocks[s.position].absent]
        for seat in back:
            await self.store.set_absent(table_id, seat, False)
        if back:
            # Back and playing on: the game is not abandoned on their record.
            await self.store.forget_member_event(member_id, table_id, "abandoned")
        if back:
            await self.replan(table_id, back, afresh)
        return bool(back)
