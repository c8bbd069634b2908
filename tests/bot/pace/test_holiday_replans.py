"""A holiday planned again while a turn is open (both stores, a fake clock): the days already
away stay counted, both in the deadline and in the table's allowance, and no re-plan puts an
open turn's deadline in the past."""

from __future__ import annotations

from datetime import timedelta

from bot.pace.clock import epoch
from bot.pace.member import MemberSettings, plan_holiday
from bot.pace.model import DAY, HOUR
from bot.pace.notices import MoveNotice
from bot.pace.status import status_lines
from tests.bot.pace.conftest import Stack
from tests.bot.pace.test_scheduler import pebbles
from tests.conftest import ALICE


async def away_two_days_then_planned_again(stack: Stack) -> None:
    """An hour into her turn Alice goes away for 7 days, ends it after 2 and plans another
    from 3 days later."""
    stack.clock.advance(HOUR)
    away = plan_holiday(await stack.scheduler.settings(ALICE.id), stack.clock.now(), 7, None)
    await stack.scheduler.save_settings(away)
    stack.clock.advance(2 * DAY)
    back = plan_holiday(away, stack.clock.now(), 0, None)
    await stack.scheduler.save_settings(back)
    later = (stack.clock.now() + timedelta(days=3)).strftime("%Y-%m-%d")
    await stack.scheduler.save_settings(plan_holiday(back, stack.clock.now(), 7, later))


async def test_a_holiday_ended_then_planned_again_keeps_the_days_taken(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)  # Alice owes a move within a day
    await away_two_days_then_planned_again(stack)
    [turn] = (await stack.store.open_turns(table_id)).values()
    now = epoch(stack.clock)
    # The 23 h Alice had left when she went away are still hers.
    assert turn.due_at == now + DAY - HOUR
    stack.clock.advance(60)
    assert [d for d in await stack.scheduler.tick() if isinstance(d, MoveNotice)] == []
    await stack.tables.act(table_id, ALICE, "hold")
    clock = (await stack.store.seat_clocks(table_id))[0]
    assert clock.holiday_used == 2 * DAY  # the days away count against the allowance


async def test_no_replan_puts_a_deadline_in_the_past(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)  # due tomorrow noon UTC
    # Quiet from 11:00 to 14:00 pushes the deadline past noon; just after noon the member
    # drops them: the deadline may come back, but not behind the time now.
    await stack.scheduler.save_settings(MemberSettings(ALICE.id, quiet_start="11:00",
                                                       quiet_end="14:00"))
    stack.clock.advance(DAY + 30 * 60)
    await stack.scheduler.save_settings(MemberSettings(ALICE.id))
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at is not None and turn.due_at > epoch(stack.clock)
    assert [d for d in await stack.scheduler.tick() if isinstance(d, MoveNotice)] == []
    assert "deadline" in await status_lines(stack.scheduler, table_id)


async def test_a_holiday_replanned_while_under_way_keeps_the_days_taken(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    stack.clock.advance(HOUR)
    away = plan_holiday(await stack.scheduler.settings(ALICE.id), stack.clock.now(), 3, None)
    await stack.scheduler.save_settings(away)
    stack.clock.advance(2 * DAY)
    # Two days in, the member asks for five days from today instead.
    longer = plan_holiday(away, stack.clock.now(), 5, None)
    await stack.scheduler.save_settings(longer)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + 5 * DAY + DAY - HOUR


async def test_a_bank_keeps_the_time_it_had_across_a_replanned_holiday(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, bank=True)  # a day's bank, +6 h a move
    await away_two_days_then_planned_again(stack)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + DAY - HOUR
    await stack.tables.act(table_id, ALICE, "hold")
    clock = (await stack.store.seat_clocks(table_id))[0]
    # Only the hour before the holiday came off the bank.
    assert (clock.bank, clock.holiday_used) == (DAY - HOUR + 6 * HOUR, 2 * DAY)
