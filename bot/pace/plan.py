"""Planning turns, deadlines and reminders after a commit: pure functions of what the table
is, who owes a move, who just moved, and the time.

A seat's turn starts when it comes to owe a move, and again after each of its own moves while
it still owes one (a fixed deadline is per move). Seats that come to owe a move together, as in
a simultaneous phase, start together and so share one deadline, moved only by each member's
own quiet hours and holiday. A bank runs down while its seat owes a move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from bot.pace.member import MemberSettings
from bot.pace.model import DAY, Mode, Timing, reminder_lead
from bot.store.timing_records import NewTurn, SeatClock, TurnRecord

HOLIDAY_PASSES = 3  # extending a deadline can reach further into a holiday; a few passes settle


@dataclass(frozen=True)
class SeatInfo:
    position: int
    member_id: int | None
    is_computer: bool


@dataclass
class Plan:
    end_turns: list[int] = field(default_factory=list)  # open turn ids that end now
    new_turns: list[NewTurn] = field(default_factory=list)
    clocks: list[SeatClock] = field(default_factory=list)  # changed seat clocks


def reconcile(
    timing: Timing,
    seats: Iterable[SeatInfo],
    clocks: Mapping[int, SeatClock],
    open_turns: Mapping[int, TurnRecord],
    active: frozenset[int],
    movers: frozenset[int],
    autopiloted: frozenset[int],
    version: int,
    now: int,
    settings: Mapping[int, MemberSettings],
) -> Plan:
    plan = Plan()
    for info in seats:
        if info.is_computer:
            continue
        seat = info.position
        clock = clocks.get(seat) or SeatClock(seat, bank=timing.period)
        before = clock
        turn = open_turns.get(seat)
        owes = seat in active
        if turn is not None and (not owes or seat in movers
                                 or turn.member_id != info.member_id):
            plan.end_turns.append(turn.id)
            if timing.mode is Mode.BANK and seat in movers:
                used = now - turn.started_at
                clock = replace(clock, bank=min(timing.cap,
                                                max(0, clock.bank - used) + timing.increment))
            turn = None
        if seat in movers:
            if seat in autopiloted:
                streak = clock.streak + 1
                clock = replace(clock, streak=streak,
                                absent=clock.absent or streak >= timing.absent_after)
            else:
                clock = replace(clock, streak=0, absent=False)
        if owes and turn is None:
            member = settings.get(info.member_id or 0) or MemberSettings(info.member_id or 0)
            new, clock = start_turn(timing, info, clock, member, version, now)
            plan.new_turns.append(new)
        if clock != before or seat not in clocks:
            plan.clocks.append(clock)
    return plan


def start_turn(
    timing: Timing,
    info: SeatInfo,
    clock: SeatClock,
    member: MemberSettings,
    version: int,
    now: int,
) -> tuple[NewTurn, SeatClock]:
    """The new turn of a seat (its deadline and one reminder), and its clock after it."""
    due: int | None = None
    reminder: int | None = None
    if clock.absent and timing.timed:
        due = now  # an absent seat is played at once, without reminders
    elif timing.mode is not Mode.NONE:
        span = timing.period if timing.mode is Mode.DEADLINE else clock.bank
        due = now + span
        # A holiday pauses the seat's clock, up to the days the table allows.
        allowance = max(0, timing.holiday_days * DAY - clock.holiday_used)
        extra = 0
        for _ in range(HOLIDAY_PASSES):
            extra = min(allowance, member.away_overlap(now, now + span + extra))
        due += extra
        clock = replace(clock, holiday_used=clock.holiday_used + extra)
        if timing.quiet_push:
            window = member.quiet_window(due)
            if window is not None:
                due = window[1]
        reminder = reminder_time(member, now, due, timing.period)
    elif member.interval_hours:
        reminder = after_quiet(member, now + member.interval_hours * 3600)
    turn = NewTurn(info.position, info.member_id, version, now, due, reminder)
    return turn, clock


def reminder_time(member: MemberSettings, start: int, due: int, period: int) -> int | None:
    """When the one reminder of a deadline goes: a lead before it scaled to the period, never
    in the member's quiet hours (moved before them, else after them), never after the
    deadline; None when no time fits."""
    lead = min(reminder_lead(period), (due - start) // 2)
    at = due - lead
    if at <= start:
        return None
    window = member.quiet_window(at)
    if window is None:
        return at
    if window[0] - 60 > start:
        return window[0] - 60  # just before the member's quiet hours begin
    if window[1] < due:
        return window[1]
    return None


def after_quiet(member: MemberSettings, at: int) -> int:
    window = member.quiet_window(at)
    return window[1] if window is not None else at
