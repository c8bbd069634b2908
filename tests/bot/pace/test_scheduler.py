"""The scheduler on the table use cases (Pebbles, a fake clock): reminders, quiet hours,
pauses, restarts, policies, substitutes and the list of waiting tables."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.pace.clock import epoch
from bot.pace.member import MemberSettings
from bot.pace.model import DAY, HOUR, make_timing
from bot.pace.notices import Dashboard, MoveNotice, Reminder, TableMessage, VoteRequest
from bot.values import TableError
from tests.bot.pace.conftest import Stack
from tests.conftest import ADMIN, ALICE, BOB, CAROL, MALLORY


async def pebbles(stack: Stack, channel: int, *members: object, pace: str = "daily",
                  guild: int | None = None, **extra: object) -> int:
    who = list(members) or [ALICE, BOB]
    opened = await stack.tables.open("pebbles", channel, who[0], options={"first": 0},  # type: ignore[arg-type]
                                     seat_order="join", guild_id=guild)
    await stack.scheduler.set_timing(opened.table_id, make_timing(pace, **extra), who[0])  # type: ignore[arg-type]
    for m in who[1:]:
        await stack.tables.join(opened.table_id, m)  # type: ignore[arg-type]
    await stack.tables.start(opened.table_id, who[0])  # type: ignore[arg-type]
    return opened.table_id


async def test_the_turn_notice_carries_the_deadline(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    notice = await stack.tables.act(table_id, ALICE, "hold")
    assert notice.data["deadlines"] == {BOB.id: epoch(stack.clock) + DAY}


async def test_one_reminder_per_deadline_and_none_after_the_move(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    stack.clock.advance(DAY - HOUR)
    first = await stack.scheduler.tick()
    assert [type(d) for d in first] == [Reminder]
    assert first[0].member_id == ALICE.id and "<t:" in first[0].text
    stack.clock.advance(60)
    assert await stack.scheduler.tick() == []  # no second reminder for the same deadline
    await stack.tables.act(table_id, ALICE, "hold")
    # Bob's deadline is a day away; Alice moved and is reminded of nothing more.
    stack.clock.advance(DAY - HOUR)
    later = await stack.scheduler.tick()
    assert [d.member_id for d in later if isinstance(d, Reminder)] == [BOB.id]


async def test_one_reminder_lists_every_table_waiting_on_the_member(stack: Stack) -> None:
    await pebbles(stack, 1, ALICE, BOB, guild=10)
    await pebbles(stack, 2, ALICE, CAROL, guild=20)
    stack.clock.advance(DAY - HOUR)
    sent = [d for d in await stack.scheduler.tick() if isinstance(d, Reminder)]
    assert len(sent) == 1
    assert {w.guild_id for w in sent[0].waiting} == {10, 20}
    assert sent[0].text.count("discord.com/channels/") == 2


async def test_no_reminder_in_quiet_hours(stack: Stack) -> None:
    start = epoch(stack.clock)  # noon UTC
    # Alice sleeps 10:00-12:00 UTC; her deadline is tomorrow noon -> pushed to nothing
    # (already at the quiet end), the reminder moved before 10:00.
    await stack.scheduler.save_settings(MemberSettings(ALICE.id, quiet_start="10:00",
                                                       quiet_end="12:00"))
    await pebbles(stack, 1)
    for _ in range(24 * 4):
        stack.clock.advance(15 * 60)
        for d in await stack.scheduler.tick():
            if isinstance(d, Reminder):
                settings = await stack.scheduler.settings(ALICE.id)
                assert not settings.quiet(epoch(stack.clock))
                assert epoch(stack.clock) < start + DAY - 2 * HOUR


async def test_a_deadline_inside_quiet_hours_moves_past_their_end(stack: Stack) -> None:
    await stack.scheduler.save_settings(MemberSettings(BOB.id, tz="Europe/Paris",
                                                       quiet_start="12:30", quiet_end="16:00"))
    table_id = await pebbles(stack, 1)
    notice = await stack.tables.act(table_id, ALICE, "hold")
    # Noon UTC is 13:00 in Paris (winter): inside Bob's quiet hours, so the deadline moves
    # to a reminder's lead (1 h) past 16:00 Paris, 15:00 UTC.
    assert notice.data["deadlines"][BOB.id] == epoch(stack.clock) + DAY + 4 * HOUR


async def test_a_restart_fires_a_deadline_that_passed_while_down_once(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    stack.clock.advance(3 * DAY)  # the bot was down: the restart closes and reopens the store
    await stack.restart()
    fired = await stack.scheduler.tick()
    moves = [d for d in fired if isinstance(d, MoveNotice)]
    assert len(moves) == 1 and "Time ran out for Alice" in moves[0].notice.public_text
    await stack.restart()
    assert [d for d in await stack.scheduler.tick() if isinstance(d, MoveNotice)] == []
    assert (await stack.tables.table_for(table_id)).version == moves[0].notice.version


async def test_a_claimed_deadline_whose_move_was_lost_is_made_on_recovery(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    stack.clock.advance(DAY)
    turn = (await stack.store.open_turns(table_id))[0]
    assert await stack.store.claim_turn(turn.id, epoch(stack.clock))  # then a crash
    await stack.restart()
    assert await stack.scheduler.tick() == []
    moved = await stack.scheduler.recover()
    assert len(moved) == 1
    assert await stack.scheduler.recover() == []


async def test_a_paused_table_does_not_fire_and_resuming_moves_deadlines_on(stack: Stack
                                                                            ) -> None:
    table_id = await pebbles(stack, 1)
    with pytest.raises(TableError, match="creator or a server manager"):
        await stack.scheduler.pause(table_id, BOB, "no")
    said = await stack.scheduler.pause(table_id, ALICE, "holiday week")
    assert "holiday week" in said
    stack.clock.advance(5 * DAY)
    assert await stack.scheduler.tick() == []
    await stack.scheduler.resume(table_id, ADMIN)
    turn = (await stack.store.open_turns(table_id))[0]
    assert turn.due_at == epoch(stack.clock) + DAY
    stack.clock.advance(DAY)
    assert any(isinstance(d, MoveNotice) for d in await stack.scheduler.tick())


async def test_skip_passes_where_the_game_allows_and_wait_only_says_so(stack: Stack) -> None:
    waiting = await pebbles(stack, 1, pace="fast", policy="wait")
    version = (await stack.tables.table_for(waiting)).version
    stack.clock.advance(HOUR)
    said = await stack.scheduler.tick()
    assert [type(d) for d in said] == [TableMessage]
    assert "waits" in said[0].text  # type: ignore[union-attr]
    stack.clock.advance(10 * HOUR)
    assert await stack.scheduler.tick() == []  # once per deadline
    assert (await stack.tables.table_for(waiting)).version == version
    # Pebbles has no pass: a seat out of time under "skip" is played by the computer.
    skipping = await pebbles(stack, 2, CAROL, MALLORY, pace="fast", policy="skip")
    stack.clock.advance(HOUR)
    [moved] = [d for d in await stack.scheduler.tick() if isinstance(d, MoveNotice)]
    assert moved.notice.table_id == skipping and "plays for them" in moved.notice.public_text


async def test_the_vote_decides_a_seat_out_of_time(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    stack.clock.advance(HOUR)
    [request] = await stack.scheduler.tick()
    assert isinstance(request, VoteRequest) and set(request.voters) == {BOB.id, CAROL.id}
    with pytest.raises(TableError, match="other players"):
        await stack.scheduler.vote(request.turn_id, request.round, ALICE, "wait")
    assert await stack.scheduler.vote(request.turn_id, request.round, BOB, "remove") == []
    decided = await stack.scheduler.vote(request.turn_id, request.round, CAROL, "remove")
    assert any(isinstance(d, MoveNotice) for d in decided)
    assert (await stack.store.seat_clocks(table_id))[0].absent
    with pytest.raises(TableError, match="vote is over"):
        await stack.scheduler.vote(request.turn_id, request.round, BOB, "wait")


async def test_a_substitute_takes_the_seat_and_its_private_view(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    with pytest.raises(TableError, match="creator"):
        await stack.scheduler.substitute(table_id, 1, MALLORY, CAROL)
    notice = await stack.scheduler.substitute(table_id, 1, CAROL, ALICE)
    assert f"Carol takes over seat 2 from <@{BOB.id}>" in notice.public_text
    [private] = notice.private
    assert private.member_id == CAROL.id and "hand" in private.view
    with pytest.raises(TableError, match="do not have a seat"):
        await stack.tables.private_view(table_id, BOB)
    await stack.tables.act(table_id, ALICE, "hold")
    with pytest.raises(TableError, match="do not have a seat"):
        await stack.tables.act(table_id, BOB, "hold")
    await stack.tables.act(table_id, CAROL, "hold")
    changes = await stack.store.seat_changes(table_id)
    assert [(c.old_member_id, c.new_member_id, c.by_member_id) for c in changes] == [
        (BOB.id, CAROL.id, ALICE.id)]
    # A member may hand their own seat on.
    await stack.scheduler.substitute(table_id, 0, BOB, ALICE)


async def test_turns_lists_tables_across_servers_oldest_first(stack: Stack) -> None:
    first = await pebbles(stack, 1, ALICE, BOB, guild=10)
    stack.clock.advance(60)
    second = await pebbles(stack, 2, ALICE, CAROL, guild=20)
    waiting = await stack.scheduler.waiting(ALICE.id)
    assert [w.table_id for w in waiting] == [first, second]
    await stack.tables.act(first, ALICE, "hold")
    after = await stack.scheduler.next_waiting(ALICE.id, first)
    assert after is not None and after.table_id == second


async def test_a_bank_pace_gives_each_seat_its_own_clock(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, pace="fast", bank=True, increment="10m", cap="2h")
    stack.clock.advance(20 * 60)
    await stack.tables.act(table_id, ALICE, "hold")
    clocks = await stack.store.seat_clocks(table_id)
    assert clocks[0].bank == HOUR - 20 * 60 + 10 * 60


async def alice_holds_bob_is_silent(stack: Stack, table_id: int) -> None:
    """Alice holds whenever it is her turn; a minute passes after each round (bounded)."""
    for _ in range(200):
        if (await stack.tables.table_for(table_id)).status == "over":
            break
        loaded = await stack.tables.live.load(table_id)
        assert loaded.state is not None
        if 0 in loaded.game.active_seats(loaded.state):
            await stack.tables.act(table_id, ALICE, "hold")
        stack.clock.advance(60)
        await stack.scheduler.tick()


async def test_a_one_minute_pace_with_a_silent_member_ends_by_autopilot(stack: Stack) -> None:
    table_id = await pebbles(stack, 1, pace="custom", duration="1m")
    await alice_holds_bob_is_silent(stack, table_id)
    assert (await stack.tables.table_for(table_id)).status == "over"


async def test_the_pace_is_fixed_once_the_game_starts(stack: Stack) -> None:
    table_id = await pebbles(stack, 1)
    with pytest.raises(TableError, match="fixed"):
        await stack.scheduler.set_timing(table_id, make_timing("fast"), ALICE)
    assert replace(await stack.scheduler.timing(table_id)).period == DAY


async def test_a_dashboard_is_one_message_redrawn_when_the_waiting_tables_change(
    stack: Stack,
) -> None:
    await stack.scheduler.save_settings(MemberSettings(BOB.id, dashboard=True))
    [first] = [d for d in await stack.scheduler.tick() if isinstance(d, Dashboard)]
    assert first.member_id == BOB.id and "No table waits on you" in first.text
    assert first.message_id is None  # not sent yet: the front end sends it
    await stack.scheduler.dashboard_posted(BOB.id, 77, 7001)
    assert [d for d in await stack.scheduler.tick() if isinstance(d, Dashboard)] == []
    table_id = await pebbles(stack, 1)
    await stack.tables.act(table_id, ALICE, "hold")  # now Bob's turn
    [again] = [d for d in await stack.scheduler.tick() if isinstance(d, Dashboard)]
    assert (again.channel_id, again.message_id) == (77, 7001)  # the same message, edited
    assert [w.table_id for w in again.waiting] == [table_id]
    # Nothing changed for Bob: nothing to redraw; closed DMs turn it off.
    assert [d for d in await stack.scheduler.tick() if isinstance(d, Dashboard)] == []
    await stack.scheduler.dashboard_posted(BOB.id, None, None)
    assert not (await stack.scheduler.settings(BOB.id)).dashboard


async def test_a_seat_that_turns_absent_is_reported_once(stack: Stack) -> None:
    """The computer's moves for a silent member make the seat absent after ``absent_after``
    of them in a row; that moment is reported once (a league records it as a forfeit)."""
    reported: list[tuple[int, int]] = []

    async def absent(table_id: int, seat: int) -> None:
        reported.append((table_id, seat))

    stack.scheduler.on_absent = absent
    table_id = await pebbles(stack, 1, pace="custom", duration="1m", absent_after=2)
    await alice_holds_bob_is_silent(stack, table_id)
    assert (await stack.tables.table_for(table_id)).status == "over"
    assert reported == [(table_id, 1)]
