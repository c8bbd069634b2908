"""Holidays and quiet hours in deadlines (finding 1, 6, 8 of the time issue): a holiday covers
its whole length within the table's allowance, however many periods long; a member plans one
ahead; every deadline leaves quiet hours with room for a reminder outside them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.pace.member import MemberSettings, check_quiet, plan_holiday
from bot.pace.model import DAY, HOUR, MINUTE, Mode, Timing, make_timing
from bot.pace.plan import deadline, grace, quiet_lead
from bot.pace.server_settings import ServerSettings
from bot.store.records import SeatClock
from bot.values import TableError

T0 = int(datetime(2025, 1, 6, 12, 0, tzinfo=UTC).timestamp())  # a Monday, noon UTC


@pytest.mark.parametrize(("period", "days"), [(MINUTE, 2), (HOUR, 2), (DAY, 6), (HOUR, 7)])
def test_a_holiday_many_periods_long_is_covered_whole(period: int, days: int) -> None:
    timing = Timing(mode=Mode.DEADLINE, period=period)
    away = MemberSettings(1, away_from=T0 + period // 2, away_until=T0 + days * DAY)
    due, reminder = deadline(timing, SeatClock(0, bank=period), away, T0, 0, T0)
    assert due is not None and due >= T0 + days * DAY  # never inside the holiday
    # The seat keeps the time it had left when the holiday began, and room for a reminder.
    assert due == T0 + days * DAY + max(period - period // 2, quiet_lead(period))
    assert reminder is not None and reminder >= T0 + days * DAY


def test_the_tables_allowance_limits_the_cover() -> None:
    timing = Timing(mode=Mode.DEADLINE, period=DAY, holiday_days=7)
    away = MemberSettings(1, away_from=T0, away_until=T0 + 20 * DAY)
    due, _ = deadline(timing, SeatClock(0, bank=DAY, holiday_used=2 * DAY), away, T0, 0, T0)
    assert due == T0 + DAY + 5 * DAY


def test_a_holiday_after_the_deadline_changes_nothing() -> None:
    away = MemberSettings(1, away_from=T0 + 2 * DAY, away_until=T0 + 5 * DAY)
    due, _ = deadline(Timing(mode=Mode.DEADLINE, period=DAY), SeatClock(0), away, T0, 0, T0)
    assert due == T0 + DAY


def test_an_absent_seat_waits_a_grace() -> None:
    assert grace(MINUTE) == MINUTE and grace(DAY) == DAY // 10
    due, reminder = deadline(Timing(mode=Mode.DEADLINE, period=DAY),
                             SeatClock(0, absent=True), MemberSettings(1), T0, 0, T0)
    assert due == T0 + DAY // 10 and reminder is None


def test_a_deadline_in_quiet_hours_gets_a_reminder_after_them() -> None:
    # Noon: quiet from 11:55 to 19:00; a one-minute table's deadline would fall inside.
    sleepy = MemberSettings(1, quiet_start="11:55", quiet_end="19:00")
    timing = Timing(mode=Mode.DEADLINE, period=MINUTE)
    due, reminder = deadline(timing, SeatClock(0), sleepy, T0, 0, T0)
    end = T0 + 7 * HOUR
    assert due is not None and reminder is not None
    assert end < due and end <= reminder < due
    assert not sleepy.quiet(due) and not sleepy.quiet(reminder)


def test_a_table_may_ignore_quiet_hours() -> None:
    sleepy = MemberSettings(1, quiet_start="11:00", quiet_end="13:00")
    timing = make_timing("daily", quiet_hours=False)
    due, _ = deadline(timing, SeatClock(0), sleepy, T0, 0, T0)
    assert due == T0 + DAY


def test_quiet_hours_come_as_a_pair_of_at_most_twelve_hours() -> None:
    with pytest.raises(TableError, match="both"):
        check_quiet(MemberSettings(1, quiet_start="22:00"))
    with pytest.raises(TableError, match="at most 12 hours"):
        check_quiet(MemberSettings(1, quiet_start="20:00", quiet_end="09:00"))
    assert check_quiet(MemberSettings(1, quiet_start="22:00", quiet_end="07:00")).quiet(
        int(datetime(2025, 1, 6, 23, 0, tzinfo=UTC).timestamp()))


def test_a_holiday_planned_ahead_and_ended_early() -> None:
    now = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
    ahead = plan_holiday(MemberSettings(1, tz="Europe/Paris"), now, 3, "2025-01-10")
    start = int(datetime(2025, 1, 9, 23, 0, tzinfo=UTC).timestamp())  # midnight in Paris
    assert (ahead.away_from, ahead.away_until) == (start, start + 3 * DAY)
    assert ahead.away_text(T0) is not None and "away from" in (ahead.away_text(T0) or "")
    with pytest.raises(TableError, match="today or later"):
        plan_holiday(MemberSettings(1), now, 3, "2025-01-01")
    with pytest.raises(TableError, match="YYYY-MM-DD"):
        plan_holiday(MemberSettings(1), now, 3, "next week")
    under_way = plan_holiday(MemberSettings(1), now, 5, None)
    ended = plan_holiday(under_way, datetime(2025, 1, 7, 12, 0, tzinfo=UTC), 0, None)
    # Ended now, not erased: the day already away still moved the deadlines.
    assert (ended.away_from, ended.away_until) == (T0, T0 + DAY)
    assert plan_holiday(ahead, now, 0, None).away_from is None


def test_a_duration_without_a_custom_pace_is_refused() -> None:
    with pytest.raises(TableError, match="pace:none"):
        make_timing("none", duration="5m")
    with pytest.raises(TableError, match="own time per move"):
        make_timing("daily", duration="5m")


def test_a_servers_defaults_fill_what_a_new_table_does_not_choose() -> None:
    server = ServerSettings(1, pace="custom", duration="2h", policy="vote", quiet_hours=False)
    default = server.new_table(None, None, False, None, "normal", None)
    assert (default.period, default.policy.value, default.quiet_push) == (2 * HOUR, "vote",
                                                                          False)
    own = server.new_table("daily", None, False, "wait", "normal", True)
    assert (own.period, own.policy.value, own.quiet_push) == (DAY, "wait", True)
    assert server.new_table(None, "30m", False, None, "normal", None).period == 30 * MINUTE
    with pytest.raises(TableError, match="pace:none"):
        ServerSettings(1, duration="5m").checked()
