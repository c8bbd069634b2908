"""The rules of a deadline written again, small, from ``docs/playing.md`` (not from
``bot.pace``, whose functions this module never calls): the model test compares every open
turn's stored deadline with the one these rules give.

- A seat's time: the period (``custom``/presets), its bank (a time bank), or, for an absent
  seat, a grace of a tenth of the period, at least a minute; plus what the table added.
- Then the member's whole holiday, up to what is left of the table's allowance (days per seat
  per table, added up across the seat's turns); back from holiday, room for a reminder first.
- Then, unless the table ignores quiet hours, out of the member's quiet hours (their own time
  zone) to a reminder's lead after they end (half the period for short ones, a minute at
  least); and again if that lands in the holiday, until it holds.
- A vote lasts half the period, at least a minute, at most a day.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

MINUTE = 60
HOUR = 3600
DAY = 86400
SETTLING = 10  # passes of "out of quiet hours, then the rest of the holiday" before giving up


@dataclass(frozen=True)
class TableRules:
    period: int  # seconds per move, or a bank's start
    bank: bool = False
    allowance_days: int = 7
    quiet_hours: bool = True  # deadlines move out of members' quiet hours

    @property
    def cap(self) -> int:
        return 2 * self.period

    @property
    def increment(self) -> int:
        return self.period // 4


@dataclass(frozen=True)
class SeatTime:
    bank: int = 0
    absent: bool = False
    holiday_used: int = 0


@dataclass(frozen=True)
class MemberTime:
    zone: str = "UTC"
    quiet: tuple[str, str] | None = None  # ("22:00", "07:00"), local
    away: tuple[int, int] | None = None  # a holiday, epoch seconds [from, until)


def reminder_lead(period: int) -> int:
    """15 minutes before a deadline of up to an hour, 1 hour up to a day, 2 up to 4 days,
    4 hours beyond."""
    for limit, lead in ((HOUR, 15 * MINUTE), (DAY, HOUR), (4 * DAY, 2 * HOUR)):
        if period <= limit:
            return lead
    return 4 * HOUR


def wake_lead(period: int) -> int:
    """How far after quiet hours (or a holiday) a moved deadline falls: a reminder's lead,
    half-way for short periods, a minute at least."""
    return min(reminder_lead(period), max(MINUTE, period // 2))


def grace(period: int) -> int:
    return max(MINUTE, period // 10)


def vote_span(period: int) -> int:
    return min(DAY, max(MINUTE, period // 2))


def bank_after(rules: TableRules, bank: int, spent: int) -> int:
    """A bank after a move that took ``spent`` seconds of it."""
    return min(rules.cap, max(0, bank - spent) + rules.increment)


def quiet_end(member: MemberTime, at: int) -> int | None:
    """The end of the member's quiet hours holding ``at`` (None: not quiet then)."""
    if member.quiet is None or member.quiet[0] == member.quiet[1]:
        return None
    zone = ZoneInfo(member.zone)
    local = datetime.fromtimestamp(at, UTC).astimezone(zone)
    start, end = (_minutes(t) for t in member.quiet)
    now = local.hour * 60 + local.minute + local.second / 60
    if start < end:
        inside, ends_on = start <= now < end, local.date()
    else:  # across midnight: from start to midnight, or from midnight to end
        inside = now >= start or now < end
        ends_on = local.date() + timedelta(days=1) if now >= start else local.date()
    if not inside:
        return None
    finish = datetime(ends_on.year, ends_on.month, ends_on.day, end // 60, end % 60,
                      tzinfo=zone)
    return int(finish.timestamp())


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def deadline(rules: TableRules, seat: SeatTime, member: MemberTime, start: int,
             extra: int) -> int:
    """A turn's deadline from its start and the time the table added to it."""
    own = grace(rules.period) if seat.absent else (seat.bank if rules.bank else rules.period)
    due = start + own + extra
    left = max(0, rules.allowance_days * DAY - seat.holiday_used)
    if member.away is not None:
        begins, ends = member.away
        if begins < due and ends > start:  # the holiday stops the clock while it lasts
            whole = ends - max(begins, start)
            taken = min(left, whole)
            due, left = due + taken, left - taken
            if taken == whole:
                due = max(due, ends + wake_lead(rules.period))
    for _ in range(SETTLING):
        before = due
        woken = quiet_end(member, due) if rules.quiet_hours else None
        if woken is not None:
            due = woken + wake_lead(rules.period)
        if member.away is not None and member.away[0] <= due < member.away[1] and left > 0:
            taken = min(left, member.away[1] - due)
            due, left = due + taken, left - taken
        if due == before:
            break
    return due


def away_within(spells: Iterable[tuple[int, int]], start: int, end: int) -> int:
    """Seconds of ``[start, end)`` the member was away, given the spells they were away
    (which do not overlap)."""
    return sum(max(0, min(end, b) - max(start, a)) for a, b in spells)


def holiday_used(rules: TableRules, away: Iterable[int], used: int = 0) -> int:
    """A seat's holiday used after turns away ``away`` seconds each, in order, from ``used``:
    each takes what it lasted, up to what is left of the allowance (it adds up across turns)."""
    for seconds in away:
        used += min(rules.allowance_days * DAY - used, seconds)
    return used
