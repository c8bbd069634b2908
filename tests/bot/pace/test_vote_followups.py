"""What follows a vote on a seat out of time: a substitute sought with a button and the
computer's fallback, a vote whose carrying out failed or was cut short, and what
``/game status`` shows while a vote is open."""

from __future__ import annotations

import pytest

from bot.pace.model import HOUR, MINUTE
from bot.pace.notices import MoveNotice, TableMessage, VoteEnded, VoteRequest
from bot.pace.status import status_lines
from bot.pace.votes import vote_span
from tests.bot.pace.conftest import Stack
from tests.bot.pace.test_scheduler import pebbles
from tests.conftest import ALICE, BOB, CAROL, MALLORY


async def _vote_substitute(stack: Stack) -> tuple[int, VoteRequest, list[object]]:
    table_id = await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    stack.clock.advance(HOUR)
    [request] = await stack.scheduler.tick()
    assert isinstance(request, VoteRequest)
    await stack.scheduler.vote(request.turn_id, request.round, BOB, "substitute")
    decided = await stack.scheduler.vote(request.turn_id, request.round, CAROL, "substitute")
    return table_id, request, list(decided)


async def test_a_vote_for_a_substitute_offers_the_seat_with_a_button(stack: Stack) -> None:
    _, _, decided = await _vote_substitute(stack)
    [offer] = [d for d in decided if isinstance(d, TableMessage)]
    assert offer.seek is not None and offer.seek.seat == 0 and offer.seek.old == ALICE.id
    assert "/game seek" not in offer.text and "Take this seat" in offer.text
    shown = await status_lines(stack.scheduler, offer.seek.table_id)
    assert "looks for a substitute until" in shown, shown


async def test_a_seat_nobody_takes_is_played_by_the_computer_after_one_vote_period(
        stack: Stack) -> None:
    table_id, _, _ = await _vote_substitute(stack)
    stack.clock.advance(vote_span(HOUR) - MINUTE)
    assert await stack.scheduler.tick() == []
    stack.clock.advance(MINUTE)
    fired = await stack.scheduler.tick()
    said = [d.text for d in fired if isinstance(d, TableMessage)]
    assert any("Nobody took" in s and "computer plays" in s for s in said), said
    assert any(isinstance(d, MoveNotice) for d in fired)
    assert not any(isinstance(d, VoteRequest) for d in fired)
    assert (await stack.store.seat_clocks(table_id))[0].absent
    stack.clock.advance(50 * HOUR)
    # Later deadlines of the table are the other seats': the absent seat is the computer's.
    assert not any(isinstance(d, VoteRequest) and d.seat == 0
                   for d in await stack.scheduler.tick())


async def test_a_seat_taken_in_time_is_the_newcomers(stack: Stack) -> None:
    table_id, _, _ = await _vote_substitute(stack)
    await stack.scheduler.substitute(table_id, 0, MALLORY, ALICE)
    stack.clock.advance(vote_span(HOUR))
    fired = await stack.scheduler.tick()
    assert not any(isinstance(d, MoveNotice | VoteEnded) for d in fired)
    assert not (await stack.store.seat_clocks(table_id)).get(0, None) or \
        not (await stack.store.seat_clocks(table_id))[0].absent
    turn = (await stack.store.open_turns(table_id))[0]
    assert turn.member_id == MALLORY.id


@pytest.mark.parametrize("voters", [0, 1])
async def test_status_shows_the_open_vote_and_its_count(stack: Stack, voters: int) -> None:
    table_id = await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    stack.clock.advance(HOUR)
    [request] = await stack.scheduler.tick()
    assert isinstance(request, VoteRequest)
    if voters:
        await stack.scheduler.vote(request.turn_id, request.round, BOB, "wait")
    text = await status_lines(stack.scheduler, table_id)
    [line] = [ln for ln in text.splitlines() if ln.startswith("1. Alice")]
    assert "votes until" in line and f"{voters} of 2 voted" in line, text


async def _removed_by_vote(stack: Stack) -> tuple[int, VoteRequest]:
    table_id = await pebbles(stack, 1, ALICE, BOB, CAROL, pace="fast", policy="vote")
    stack.clock.advance(HOUR)
    [request] = await stack.scheduler.tick()
    assert isinstance(request, VoteRequest)
    await stack.scheduler.vote(request.turn_id, request.round, BOB, "remove")
    return table_id, request


async def test_a_crash_between_a_vote_closing_and_the_move_is_recovered_at_start(
        stack: Stack) -> None:
    table_id, request = await _removed_by_vote(stack)
    await stack.store.cast_vote(request.turn_id, request.round, CAROL.id, "remove",
                                stack.scheduler.now())
    assert await stack.store.close_vote(request.turn_id, request.round)  # then a crash
    await stack.restart()
    recovered = await stack.scheduler.recover()
    assert any(isinstance(d, MoveNotice) for d in recovered), recovered
    assert (await stack.store.seat_clocks(table_id))[0].absent
    assert not any(isinstance(d, MoveNotice) for d in await stack.scheduler.recover())


async def test_a_vote_whose_carrying_out_failed_is_retried_by_the_tick(
        stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, request = await _removed_by_vote(stack)
    real = stack.scheduler.votes.carry_out

    async def broken(turn: object) -> list[object]:
        raise RuntimeError("the store went away")

    monkeypatch.setattr(stack.scheduler.votes, "carry_out", broken)
    with pytest.raises(RuntimeError):
        await stack.scheduler.vote(request.turn_id, request.round, CAROL, "remove")
    monkeypatch.setattr(stack.scheduler.votes, "carry_out", real)
    fired: list[object] = []
    for _ in range(3):
        stack.clock.advance(MINUTE)
        fired += await stack.scheduler.tick()
    assert sum(isinstance(d, MoveNotice) for d in fired) == 1, fired
    assert (await stack.store.seat_clocks(table_id))[0].absent


async def test_a_crash_after_the_deciding_vote_is_recovered_at_start(stack: Stack) -> None:
    table_id, request = await _removed_by_vote(stack)
    # Carol's vote makes the majority; the process dies before the vote is ended.
    await stack.store.cast_vote(request.turn_id, request.round, CAROL.id, "remove",
                                stack.scheduler.now())
    await stack.restart()
    recovered = await stack.scheduler.recover()
    assert any(isinstance(d, MoveNotice) for d in recovered), recovered
    assert (await stack.store.seat_clocks(table_id))[0].absent
