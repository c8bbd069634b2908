"""The pure parts of asynchronous play: paces, durations, quiet hours, reminder times,
turn planning."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.pace.clock import FakeClock, epoch
from bot.pace.member import MemberSettings, check_clock_time, check_zone
from bot.pace.model import (
    DAY,
    HOUR,
    MINUTE,
    Mode,
    Policy,
    Timing,
    make_timing,
    parse_duration,
    reminder_lead,
)
from bot.pace.plan import SeatInfo, reconcile, reminder_time
from bot.store.records import SeatClock, TurnRecord
from bot.values import TableError

T0 = int(datetime(2025, 1, 6, 12, 0, tzinfo=UTC).timestamp())  # a Monday, noon UTC


def test_presets_and_custom_paces() -> None:
    assert make_timing("none").mode is Mode.NONE
    assert make_timing("fast").period == HOUR
    assert make_timing("daily").period == DAY
    assert make_timing("relaxed").period == 3 * DAY
    custom = make_timing("custom", duration="1m")
    assert (custom.mode, custom.period) == (Mode.DEADLINE, MINUTE)
    bank = make_timing("custom", duration="2d", bank=True, increment="6h", cap="5d")
    assert (bank.mode, bank.period, bank.increment, bank.cap) == (Mode.BANK, 2 * DAY,
                                                                  6 * HOUR, 5 * DAY)


@pytest.mark.parametrize("duration", ["30s", "15d", "0m"])
def test_custom_pace_is_one_minute_to_fourteen_days(duration: str) -> None:
    with pytest.raises(TableError, match="1 minute and 14 days"):
        make_timing("custom", duration=duration)


def test_bad_inputs_say_what_is_allowed() -> None:
    with pytest.raises(TableError, match="fast"):
        make_timing("speedy")
    with pytest.raises(TableError, match="autopilot"):
        make_timing("daily", policy="explode")
    with pytest.raises(TableError, match="duration like"):
        parse_duration("soon")
    assert parse_duration("1h30m") == 90 * MINUTE
    assert parse_duration("45") == 45 * MINUTE


def test_reminder_lead_scales_with_the_period() -> None:
    assert reminder_lead(HOUR) == 15 * MINUTE
    assert reminder_lead(DAY) == HOUR
    assert reminder_lead(4 * DAY) == 2 * HOUR
    assert reminder_lead(7 * DAY) == 4 * HOUR


def test_quiet_hours_across_midnight_in_the_members_zone() -> None:
    paris = MemberSettings(1, tz="Europe/Paris", quiet_start="22:00", quiet_end="07:00")
    # 22:30 UTC is 23:30 in Paris in January: quiet until 07:00 Paris = 06:00 UTC.
    late = int(datetime(2025, 1, 6, 22, 30, tzinfo=UTC).timestamp())
    window = paris.quiet_window(late)
    assert window is not None
    assert window[1] == int(datetime(2025, 1, 7, 6, 0, tzinfo=UTC).timestamp())
    assert not paris.quiet(T0)
    assert paris.quiet(int(datetime(2025, 1, 7, 5, 59, tzinfo=UTC).timestamp()))


def test_settings_are_checked() -> None:
    assert check_clock_time("7:05") == "07:05"
    with pytest.raises(TableError, match="HH:MM"):
        check_clock_time("25:00")
    with pytest.raises(TableError, match="time zone"):
        check_zone("Mars/Olympus")


def test_a_reminder_never_falls_in_quiet_hours() -> None:
    night = MemberSettings(1, quiet_start="10:00", quiet_end="12:00")
    start = T0 - DAY  # Sunday noon; the deadline is Monday noon, the reminder would be 11:00
    at = reminder_time(night, start, T0, DAY)
    assert at is not None and not night.quiet(at)
    assert at < T0 - 2 * HOUR  # moved before the quiet hours, not after the deadline
    assert reminder_time(MemberSettings(1), start, T0, DAY) == T0 - HOUR


def test_a_fake_clock_only_moves_when_told() -> None:
    clock = FakeClock()
    first = epoch(clock)
    clock.advance(90)
    assert epoch(clock) == first + 90
    with pytest.raises(ValueError):
        clock.advance(-1)


SEATS = [SeatInfo(0, 11, False), SeatInfo(1, 12, False), SeatInfo(2, None, True)]
DAILY = Timing(mode=Mode.DEADLINE, period=DAY)


def test_a_simultaneous_phase_has_one_deadline_for_all_who_owe() -> None:
    plan = reconcile(DAILY, SEATS, {}, {}, frozenset({0, 1, 2}), frozenset(), frozenset(),
                     5, T0, {})
    dues = {t.seat: t.due_at for t in plan.new_turns}
    assert dues == {0: T0 + DAY, 1: T0 + DAY}  # the computer seat has no clock


def test_quiet_hours_push_a_deadline_past_their_end_with_its_reminder_after_them() -> None:
    sleepy = {12: MemberSettings(12, quiet_start="11:00", quiet_end="13:00")}
    plan = reconcile(DAILY, SEATS, {}, {}, frozenset({0, 1}), frozenset(), frozenset(), 5,
                     T0, sleepy)
    dues = {t.seat: t.due_at for t in plan.new_turns}
    # Out of quiet hours by a reminder's lead (1 h at a daily pace), reminded as they end.
    assert dues[0] == T0 + DAY and dues[1] == T0 + DAY + 2 * HOUR
    assert {t.seat: t.reminder_at for t in plan.new_turns}[1] == T0 + DAY + HOUR


def test_a_holiday_pauses_the_seats_clock_within_the_tables_allowance() -> None:
    away = {11: MemberSettings(11, away_from=T0 + HOUR, away_until=T0 + 3 * DAY)}
    timing = Timing(mode=Mode.DEADLINE, period=DAY, holiday_days=1)
    plan = reconcile(timing, SEATS, {}, {}, frozenset({0}), frozenset(), frozenset(), 5, T0,
                     away)
    assert plan.new_turns[0].due_at == T0 + 2 * DAY  # one day of holiday allowed here
    # The holiday a turn took is charged when it ends.
    moved = reconcile(timing, SEATS, plan.clocks and {0: plan.clocks[0]},
                      {0: turn(0, 11, T0)}, frozenset({1}), frozenset({0}), frozenset(), 6,
                      T0 + 2 * DAY, away)
    assert {c.seat: c.holiday_used for c in moved.clocks}[0] == DAY


def turn(seat: int, member: int, started: int, tid: int = 1) -> TurnRecord:
    return TurnRecord(tid, 1, seat, member, 5, started, started + DAY, None, None)


def test_a_bank_runs_down_while_waiting_and_refills_per_move() -> None:
    bank = Timing(mode=Mode.BANK, period=DAY, increment=HOUR, cap=2 * DAY)
    clocks = {0: SeatClock(0, bank=DAY)}
    plan = reconcile(bank, SEATS, clocks, {0: turn(0, 11, T0)}, frozenset({1}),
                     frozenset({0}), frozenset(), 6, T0 + 10 * HOUR, {})
    assert plan.end_turns == [1]
    assert {c.seat: c.bank for c in plan.clocks}[0] == 15 * HOUR


def test_autopilot_moves_in_a_row_mark_a_seat_absent_and_its_own_move_clears_it() -> None:
    timing = Timing(mode=Mode.DEADLINE, period=DAY, absent_after=2)
    clocks = {0: SeatClock(0, streak=1)}
    plan = reconcile(timing, SEATS, clocks, {0: turn(0, 11, T0)}, frozenset({0}),
                     frozenset({0}), frozenset({0}), 6, T0 + DAY, {})
    absent = plan.clocks[0]
    assert absent.absent and absent.streak == 2
    # From now on played after a short grace: a tenth of the period, at least a minute.
    assert plan.new_turns[0].due_at == T0 + DAY + DAY // 10
    back = reconcile(timing, SEATS, {0: absent}, {0: turn(0, 11, T0 + DAY)}, frozenset({1}),
                     frozenset({0}), frozenset(), 7, T0 + DAY + 5, {})
    assert not back.clocks[0].absent and back.clocks[0].streak == 0


def test_no_reminder_planned_without_a_deadline_unless_the_member_asks() -> None:
    none = Timing()
    plan = reconcile(none, SEATS, {}, {}, frozenset({0, 1}), frozenset(), frozenset(), 5, T0,
                     {12: MemberSettings(12, interval_hours=6)})
    reminders = {t.seat: t.reminder_at for t in plan.new_turns}
    assert reminders == {0: None, 1: T0 + 6 * HOUR}
    assert all(t.due_at is None for t in plan.new_turns)


def test_policy_names() -> None:
    assert {p.value for p in Policy} == {"autopilot", "skip", "vote", "wait"}
