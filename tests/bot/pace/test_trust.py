"""Time and seats you can trust, through the table use cases and the scheduler (Pebbles, a
fake clock, both stores): a holiday set while a turn is open protects it at once; an absent
member comes back; votes end, count per round and default on a tie; every moved deadline
leaves quiet hours; refused DMs switch reminders to mentions."""

from __future__ import annotations

from typing import Any

import pytest

import bot.pace.votes as votes_module
from bot.pace.clock import epoch
from bot.pace.member import MemberSettings, plan_holiday
from bot.pace.model import DAY, HOUR, MINUTE, make_timing
from bot.pace.notices import MoveNotice, Reminder, TableMessage, VoteRequest
from bot.pace.overview import server_tables
from bot.pace.plan import grace
from bot.pace.server_settings import ServerSettings
from bot.pace.status import status_lines
from bot.values import TableError
from tests.bot.pace.conftest import Stack
from tests.bot.pace.test_scheduler import pebbles
from tests.conftest import ALICE, BOB, CAROL


def moves(fired: list[object]) -> list[MoveNotice]:
    return [d for d in fired if isinstance(d, MoveNotice)]


class Crash(Exception):
    """The process died here (raised once, where the test plants it)."""


def crash_once(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
    real = getattr(owner, name)
    crashed: list[bool] = []

    async def dying(*args: Any, **kwargs: Any) -> Any:
        if not crashed:
            crashed.append(True)
            raise Crash(name)
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, name, dying)


async def vote_on_alice(stack: Stack) -> tuple[int, VoteRequest]:
    """A table of three under ``vote``: Alice's deadline has fired and the others are asked."""
    table_id = await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    stack.clock.advance(HOUR)
    [request] = await stack.scheduler.tick()
    assert isinstance(request, VoteRequest)
    return table_id, request


async def a_vote_that_never_opened(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice's deadline fired, then the process died before the vote opened; it restarts."""
    await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    stack.clock.advance(HOUR)
    crash_once(monkeypatch, type(stack.store), "open_vote")
    assert await stack.scheduler.tick() == []  # fired; the vote never opened
    await stack.restart()


async def test_a_holiday_set_during_a_turn_protects_it_at_once(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)  # Alice owes a move within a day
    stack.clock.advance(HOUR)
    away = plan_holiday(await stack.scheduler.settings(ALICE.id), stack.clock.now(), 6, None)
    await stack.scheduler.save_settings(away)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at is not None and turn.due_at >= epoch(stack.clock) + 6 * DAY
    assert "away until" in await status_lines(stack.scheduler, table_id)
    stack.clock.advance(5 * DAY)
    assert moves(await stack.scheduler.tick()) == []  # day 5 of 6: still hers
    # Back a day early: the deadline comes back, keeping the 23 h she had left.
    back = plan_holiday(away, stack.clock.now(), 0, None)
    await stack.scheduler.save_settings(back)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + DAY - HOUR
    assert "away" not in await status_lines(stack.scheduler, table_id)


async def test_quiet_hours_set_during_a_turn_move_its_deadline(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)  # due tomorrow noon UTC
    await stack.scheduler.save_settings(MemberSettings(ALICE.id, quiet_start="10:00",
                                                       quiet_end="14:00"))
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + DAY + 3 * HOUR  # 14:00 and an hour's lead


async def test_an_absent_member_waits_a_grace_and_comes_back(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, pace="fast", absent_after=1)
    stack.clock.advance(HOUR)
    assert len(moves(await stack.scheduler.tick())) == 1  # Alice is absent now
    assert (await stack.store.seat_clocks(table_id))[0].absent
    await stack.tables.act(table_id, BOB, "hold")
    stack.clock.advance(10)
    assert moves(await stack.scheduler.tick()) == []  # not the next tick: a grace first
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) - 10 + grace(HOUR)
    assert "absent" in await status_lines(stack.scheduler, table_id)
    # Any action at the table ends the absence: her turn has its full time from now.
    assert await stack.scheduler.present(table_id, ALICE.id)
    assert not (await stack.store.seat_clocks(table_id))[0].absent
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + HOUR
    stack.clock.advance(grace(HOUR) + MINUTE)
    assert moves(await stack.scheduler.tick()) == []
    assert not await stack.scheduler.present(table_id, ALICE.id)  # nothing to end twice


async def test_a_tied_vote_ends_at_once_and_the_computer_plays_that_move(stack: Stack) -> None:
    table_id, request = await vote_on_alice(stack)
    assert request.ends_at == epoch(stack.clock) + HOUR // 2
    assert await stack.scheduler.vote(request.turn_id, request.round, BOB, "remove") == []
    shown = await status_lines(stack.scheduler, table_id)
    assert "votes until" in shown and "1 of 2 voted (Bob)" in shown
    decided = await stack.scheduler.vote(request.turn_id, request.round, CAROL, "wait")
    said = [d.text for d in decided if isinstance(d, TableMessage)]
    assert said and "a tie" in said[0] and len(moves(decided)) == 1
    assert not (await stack.store.seat_clocks(table_id))[0].absent


async def test_a_silent_vote_ends_at_its_own_deadline(stack: Stack) -> None:
    table_id, _ = await vote_on_alice(stack)
    stack.clock.advance(HOUR // 2)
    fired = await stack.scheduler.tick()
    assert len(moves(fired)) == 1
    assert any("nobody voted" in d.text for d in fired if isinstance(d, TableMessage))
    assert (await stack.tables.table_for(table_id)).version > 0
    assert await stack.scheduler.tick() == []  # ends once


async def test_votes_count_per_round(stack: Stack) -> None:
    _, first = await vote_on_alice(stack)
    await stack.scheduler.vote(first.turn_id, first.round, BOB, "wait")
    waited = await stack.scheduler.vote(first.turn_id, first.round, CAROL, "wait")
    assert any("another period" in d.text for d in waited if isinstance(d, TableMessage))
    stack.clock.advance(HOUR)
    [second] = [d for d in await stack.scheduler.tick() if isinstance(d, VoteRequest)]
    assert second.round == first.round + 1
    # Carol's "wait" of round one does not count: one vote does not decide round two.
    assert await stack.scheduler.vote(second.turn_id, second.round, BOB, "wait") == []
    with pytest.raises(TableError, match="vote is over"):
        await stack.scheduler.vote(first.turn_id, first.round, CAROL, "wait")


async def test_a_vote_to_wait_and_a_resume_leave_quiet_hours(stack: Stack) -> None:
    # Alice sleeps 12:30-20:00 UTC; the table plays at a one-hour pace from noon.
    await stack.scheduler.save_settings(MemberSettings(ALICE.id, quiet_start="12:30",
                                                       quiet_end="20:00"))
    table_id = await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    [turn] = (await stack.store.open_turns(table_id)).values()
    sleepy = await stack.scheduler.settings(ALICE.id)
    assert turn.due_at is not None and not sleepy.quiet(turn.due_at)
    reminders = await stack.rows("SELECT due_at FROM reminders WHERE turn_id = ?", turn.id)
    assert len(reminders) == 1 and not sleepy.quiet(int(str(reminders[0][0])))
    stack.clock.set(stack.clock.now().replace(hour=20, minute=15))
    [request] = [d for d in await stack.scheduler.tick() if isinstance(d, VoteRequest)]
    await stack.scheduler.vote(request.turn_id, request.round, BOB, "wait")
    await stack.scheduler.vote(request.turn_id, request.round, CAROL, "wait")
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + HOUR and not sleepy.quiet(turn.due_at)
    # Paused until 12:00 the next day: the deadline moved on lands in quiet hours, so it
    # moves past them.
    await stack.scheduler.pause(table_id, ALICE, "a break")
    stack.clock.advance(16 * HOUR - 15 * MINUTE)
    await stack.scheduler.resume(table_id, ALICE)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at is not None and not sleepy.quiet(turn.due_at)
    assert turn.due_at > epoch(stack.clock) + 7 * HOUR


async def test_after_a_wait_deadline_status_says_the_table_waits(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, pace="fast", policy="wait")
    stack.clock.advance(2 * HOUR)
    await stack.scheduler.tick()
    shown = await status_lines(stack.scheduler, table_id)
    assert "the table waits for them" in shown and "deadline" not in shown.split("\n", 1)[1]


async def test_refused_dms_turn_reminders_into_mentions_until_one_gets_through(
    stack: Stack,
) -> None:
    await pebbles(stack, 1)
    await stack.scheduler.dms_refused(ALICE.id, True)
    stack.clock.advance(DAY - HOUR)
    [reminder] = [d for d in await stack.scheduler.tick() if isinstance(d, Reminder)]
    assert not reminder.by_dm and reminder.dms_refused
    await stack.scheduler.dms_refused(ALICE.id, False)
    assert not (await stack.scheduler.settings(ALICE.id)).dms_refused


async def test_extend_gives_the_waited_seats_more_time(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, pace="fast", policy="wait")
    with pytest.raises(TableError, match="creator"):
        await stack.scheduler.extend(table_id, BOB, "1h")
    said = await stack.scheduler.extend(table_id, ALICE, "2h")
    assert "2 h more" in said
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at == epoch(stack.clock) + 3 * HOUR
    stack.clock.advance(4 * HOUR)
    await stack.scheduler.tick()  # out of time: the table waits; an extension reopens it
    await stack.scheduler.extend(table_id, ALICE, None)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.fired_at is None and turn.due_at == epoch(stack.clock) + HOUR
    with pytest.raises(TableError, match="1 minute to 14 days"):
        await stack.scheduler.extend(table_id, ALICE, "30d")


async def test_an_extension_after_a_deadline_quiet_hours_pushed_lies_ahead(
        stack: Stack) -> None:
    """Found by the model test: quiet hours had pushed the deadline to their end; once it ran
    out, an extension counted from the turn's start fell back into quiet hours and was pushed
    to the same, past, moment, so the deadline fired again at once."""
    await stack.scheduler.save_settings(MemberSettings(ALICE.id, quiet_start="12:30",
                                                       quiet_end="20:00"))
    table_id = await pebbles(stack, 1, pace="fast", policy="wait")  # from noon, an hour
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at is not None and turn.due_at > epoch(stack.clock) + 8 * HOUR
    stack.clock.set(stack.clock.now().replace(hour=21))
    await stack.scheduler.tick()  # out of time: the table waits
    await stack.scheduler.extend(table_id, ALICE, None)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.fired_at is None and turn.due_at == epoch(stack.clock) + HOUR


async def test_a_running_tables_pace_and_policy_change(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, pace="daily", policy="wait")
    with pytest.raises(TableError, match="creator"):
        await stack.scheduler.change_pace(table_id, BOB, "fast", None)
    stack.clock.advance(2 * DAY)
    await stack.scheduler.tick()  # out of time: the table waits for Alice
    said = await stack.scheduler.change_policy(table_id, ALICE, "autopilot", None)
    assert "`autopilot`" in said and "New deadlines: Alice" in said
    said = await stack.scheduler.change_pace(table_id, ALICE, "fast", None)
    assert "1 h per move" in said
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.fired_at is None and turn.due_at == epoch(stack.clock) + HOUR
    with pytest.raises(TableError, match="pace:none"):
        await stack.scheduler.change_pace(table_id, ALICE, "none", "5m")
    await stack.scheduler.change_pace(table_id, ALICE, "none", None)
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.due_at is None
    stack.clock.advance(3 * DAY)
    assert moves(await stack.scheduler.tick()) == []


def test_skip_says_it_turns_to_the_computer_once_absent() -> None:
    assert "counts as absent and the computer plays" in make_timing(
        "daily", policy="skip").describe()


async def test_tables_lists_a_servers_games_oldest_first_stalled_marked(stack: Stack) -> None:
    waiting = await pebbles(stack, 1, pace="fast", policy="wait", guild=5)
    stack.clock.advance(HOUR // 2)
    newer = await pebbles(stack, 2, ALICE, CAROL, guild=5)
    await pebbles(stack, 3, guild=6)  # another server's
    stack.clock.advance(HOUR)
    await stack.scheduler.tick()  # the first table ran out of time and waits
    await stack.scheduler.pause(newer, ALICE, "a break")
    found = await server_tables(stack.scheduler, 5)
    assert [f.table.id for f in found] == [waiting, newer]
    assert found[0].stalled and "out of time" in found[0].text and "Alice" in found[0].text
    assert not found[1].stalled and "paused since" in found[1].text
    assert "discord.com/channels/5/1" in found[0].text


async def test_a_reliability_record_outside_leagues(stack: Stack) -> None:
    fresh = await stack.scheduler.record(ALICE.id)
    assert (fresh.finished, fresh.abandoned, fresh.missed, fresh.score) == (0, 0, 0, 1.0)
    table_id = await pebbles(stack, 1, pace="fast", absent_after=1)
    stack.clock.advance(HOUR)
    await stack.scheduler.tick()  # Alice missed a deadline and her seat went absent
    mine = await stack.scheduler.record(ALICE.id)
    assert (mine.missed, mine.abandoned) == (1, 1) and mine.score < 1
    assert "1 deadline missed" in mine.describe("Alice")
    # Bob plays the game to its end with the computer in Alice's seat: a finished game.
    for _ in range(20):
        if (await stack.tables.table_for(table_id)).status == "over":
            break
        if BOB.id in (await stack.tables.status(table_id)).next_members:
            await stack.tables.act(table_id, BOB, "hold")
        stack.clock.advance(HOUR)
        await stack.scheduler.tick()
    assert (await stack.scheduler.record(BOB.id)).finished == 1
    # Forgiving: a year later the misses have faded.
    stack.clock.advance(365 * DAY)
    assert (await stack.scheduler.record(ALICE.id)).score > 0.95


async def test_a_table_may_ask_for_a_minimum_reliability(stack: Stack) -> None:
    await pebbles(stack, 1, pace="fast", absent_after=1)
    stack.clock.advance(HOUR)
    await stack.scheduler.tick()  # Alice's record now has a miss and an abandoned game
    opened = await stack.tables.open("pebbles", 2, BOB, options={"first": 0})
    await stack.scheduler.set_timing(opened.table_id, make_timing("daily", min_reliability=90),
                                     BOB)
    with pytest.raises(TableError, match="reliability of 90%"):
        await stack.scheduler.may_join(opened.table_id, ALICE.id)
    await stack.scheduler.may_join(opened.table_id, CAROL.id)
    assert "reliability of 90% to join" in make_timing("daily", min_reliability=90).describe()


async def test_server_settings_are_kept(stack: Stack) -> None:
    assert (await stack.scheduler.server(7)).pace == "none"
    await stack.scheduler.save_server(ServerSettings(7, pace="daily", substitute_role=55))
    kept = await stack.scheduler.server(7)
    assert (kept.pace, kept.substitute_role) == ("daily", 55)


async def test_a_vote_ended_just_before_a_crash_is_carried_out_on_start(
        stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, request = await vote_on_alice(stack)
    await stack.scheduler.vote(request.turn_id, request.round, BOB, "remove")
    crash_once(monkeypatch, votes_module, "move_for")
    with pytest.raises(Crash):  # the vote ended, the computer's move was never made
        await stack.scheduler.vote(request.turn_id, request.round, CAROL, "remove")
    version = (await stack.tables.table_for(table_id)).version
    await stack.restart()
    recovered = await stack.scheduler.recover()
    assert len(moves(recovered)) == 1
    assert (await stack.tables.table_for(table_id)).version > version
    assert (await stack.store.seat_clocks(table_id))[0].absent  # voted out, as decided
    await stack.restart()
    assert await stack.scheduler.recover() == []  # done once
    stack.clock.advance(HOUR)
    assert moves(await stack.scheduler.tick()) == []


async def test_a_deadline_that_fired_just_before_a_crash_opens_its_vote_on_start(
        stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    await a_vote_that_never_opened(stack, monkeypatch)
    [request] = await stack.scheduler.recover()
    assert isinstance(request, VoteRequest) and request.ends_at == epoch(stack.clock) + HOUR // 2
    assert await stack.scheduler.recover() == []  # open now: its own deadline ends it
    stack.clock.advance(HOUR // 2)
    assert len(moves(await stack.scheduler.tick())) == 1


async def test_a_vote_to_wait_cut_short_gives_the_period_on_start(
        stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, request = await vote_on_alice(stack)
    await stack.scheduler.vote(request.turn_id, request.round, BOB, "wait")
    crash_once(monkeypatch, type(stack.scheduler.deadlines), "replan")
    with pytest.raises(Crash):
        await stack.scheduler.vote(request.turn_id, request.round, CAROL, "wait")
    await stack.restart()
    recovered = await stack.scheduler.recover()
    assert any("another period" in d.text for d in recovered if isinstance(d, TableMessage))
    [turn] = (await stack.store.open_turns(table_id)).values()
    assert turn.fired_at is None and turn.due_at is not None
    assert turn.due_at > epoch(stack.clock)
    assert await stack.scheduler.recover() == []


async def test_a_table_waiting_for_a_substitute_is_not_asked_again_on_start(
        stack: Stack) -> None:
    _, request = await vote_on_alice(stack)
    await stack.scheduler.vote(request.turn_id, request.round, BOB, "substitute")
    decided = await stack.scheduler.vote(request.turn_id, request.round, CAROL, "substitute")
    assert any("substitute" in d.text for d in decided if isinstance(d, TableMessage))
    await stack.restart()
    assert await stack.scheduler.recover() == []


async def test_a_vote_opens_once_and_each_table_is_recovered_by_its_own_process(
        stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    await a_vote_that_never_opened(stack, monkeypatch)
    stack.scheduler.owns = lambda guild_id: False  # another process's shard
    assert await stack.scheduler.recover() == []
    stack.scheduler.owns = lambda guild_id: True
    [request] = await stack.scheduler.recover()
    assert isinstance(request, VoteRequest)
    # A second opening of the same round (two processes at once) asks nobody again.
    assert not await stack.store.open_vote(request.turn_id, request.round, request.ends_at)
