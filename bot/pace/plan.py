"""Planning turns, deadlines and reminders after a commit: pure functions of what the table
is, who owes a move, who just moved, and the time.

A seat's turn starts when it comes to owe a move, and again after each of its own moves while
it still owes one (a fixed deadline is per move). Seats that come to owe a move together, as in
a simultaneous phase, start together and so share one deadline, moved only by each member's
own quiet hours and holiday. A bank runs down while its seat owes a move.

Every deadline, however it is set or moved (a new turn, a member's changed holiday or quiet
hours, a resume, a vote, an extension, a return from absence), comes from ``deadline``: the
turn's start, its time (the period, the bank, or an absent seat's grace) and any extension;
then the member's holiday, all of it, within the table's allowance; then out of the member's
quiet hours (unless the table ignores them) to a reminder's lead after they end, so the one
reminder goes outside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from bot.pace.member import MemberSettings
from bot.pace.model import DAY, MINUTE, Mode, Timing, reminder_lead
from bot.store.records import NewTurn, SeatClock, TurnRecord

SETTLE_PASSES = 3  # a deadline moved out of quiet hours may land in a holiday, and back


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
    paused_at: int | None = None,
) -> Plan:
    """The turns to end and start, and the seat clocks after them. A turn ended while the
    table is paused is charged holiday and bank time only up to the pause: the table's clock
    stands still from then on (a holiday changed during the pause is charged the same way)."""
    plan = Plan()
    until = now if paused_at is None else min(now, paused_at)
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
            member = settings.get(turn.member_id or 0) or MemberSettings(turn.member_id or 0)
            off = min(allowance(timing, clock), member.away_overlap(turn.started_at, until))
            if timing.timed and off:
                clock = replace(clock, holiday_used=clock.holiday_used + off)
            if timing.mode is Mode.BANK and seat in movers:
                used = max(0, until - turn.started_at - off)
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
    """The new turn of a seat (its deadline and one reminder), and its clock after it. The
    holiday a turn takes is charged to the seat's allowance when the turn ends."""
    due, reminder = deadline(timing, clock, member, now, 0, now)
    return NewTurn(info.position, info.member_id, version, now, due, reminder), clock


def grace(period: int) -> int:
    """How long an absent seat's turn waits before the computer plays it: a tenth of the
    period, at least a minute, so a member who comes back finds their move still open."""
    return max(MINUTE, period // 10)


def allowance(timing: Timing, clock: SeatClock) -> int:
    """Seconds of holiday the seat's member may still take at this table."""
    return max(0, timing.holiday_days * DAY - clock.holiday_used)


def deadline(timing: Timing, clock: SeatClock, member: MemberSettings, start: int, extra: int,
             now: int) -> tuple[int | None, int | None]:
    """A turn's deadline and its one reminder (see the module's doc). ``extra`` is time the
    table added (a vote to wait, an extension, a return from absence); ``now`` is the
    earliest a reminder can go."""
    if timing.mode is Mode.NONE:
        if member.interval_hours:
            return None, after_quiet(member, now + member.interval_hours * 3600)
        return None, None
    due = start + turn_span(timing, clock) + extra
    left = allowance(timing, clock)
    if member.away_from is not None and member.away_until is not None:
        # The holiday stops the seat's clock from its start (or the turn's) to its end.
        if member.away_from < due and member.away_until > start:
            whole = member.away_until - max(member.away_from, start)
            taken = min(left, whole)
            due, left = due + taken, left - taken
            if taken == whole:  # back from holiday: room for a reminder first
                due = max(due, member.away_until + quiet_lead(timing.period))
    for _ in range(SETTLE_PASSES):
        before = due
        window = member.quiet_window(due) if timing.quiet_push else None
        if window is not None:
            due = window[1] + quiet_lead(timing.period)
        if member.away(due) and left > 0 and member.away_until is not None:
            taken = min(left, member.away_until - due)
            due, left = due + taken, left - taken
        if due == before:
            break
    reminder = None if clock.absent else reminder_time(member, now, due, timing.period)
    return due, reminder


def turn_span(timing: Timing, clock: SeatClock) -> int:
    """A turn's own time, before extra time, holidays and quiet hours: the period (the bank
    with a time bank), or the grace of an absent seat."""
    if clock.absent:
        return grace(timing.period)
    return timing.period if timing.mode is Mode.DEADLINE else clock.bank


def quiet_lead(period: int) -> int:
    """How far past the end of quiet hours a deadline moved out of them goes: room for its
    reminder after the member wakes."""
    return min(reminder_lead(period), max(MINUTE, period // 2))


def reminder_time(member: MemberSettings, start: int, due: int, period: int) -> int | None:
    """When the one reminder of a deadline goes: a lead before it scaled to the period, never
    on the member's holiday (moved to its end), never in their quiet hours (moved before them,
    else after them), never after the deadline; None when no time fits."""
    lead = min(reminder_lead(period), (due - start) // 2)
    at = due - lead
    if member.away(at) and member.away_until is not None:
        at = member.away_until  # not on holiday: as it ends
    if at <= start or at >= due:
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
