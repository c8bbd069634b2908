"""Holidays and votes as members see them (the real bot on the stand-in, a fake clock):
``/game back`` ends a holiday under way, an ended holiday is no longer listed, and a decided
vote's message says how it ended and offers no buttons any more."""

from __future__ import annotations

from pathlib import Path

from bot.pace.clock import FakeClock
from tests.e2e.harness import WAIT, Table, custom_id, mentioned_ids, table
from tests.e2e.test_bot_async import fake_clock, open_timed
from tests.e2e.test_bot_async_seats import clocked, name_of, open_three
from tests.standin import Message, StandIn

HOUR = 3600


async def test_game_back_ends_a_holiday_and_settings_forget_it(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s, alice = t.standin, t.members["alice"]
        clock = fake_clock(t)
        await open_timed(t, pace="daily")
        r = await s.slash(alice, t.channel, "settings", {"holiday_days": 7})
        assert "Holiday:" in (await t.reply(r)).text
        clock.advance(3600)
        r = await s.slash(alice, t.channel, "game status")
        assert "Alice: " in (await t.reply(r)).text and "away until" in \
            (await t.reply(r)).text
        r = await s.slash(alice, t.channel, "game back")
        said = (await t.reply(r)).text
        assert "holiday is over" in said, said
        r = await s.slash(alice, t.channel, "game status")
        assert "away" not in (await t.reply(r)).text
        r = await s.slash(alice, t.channel, "settings")
        assert "Holiday:" not in (await t.reply(r)).text
        # Ended by /settings itself: no longer listed either.
        r = await s.slash(alice, t.channel, "settings", {"holiday_days": 5})
        assert "Holiday:" in (await t.reply(r)).text
        clock.advance(3600)
        r = await s.slash(alice, t.channel, "settings", {"holiday_days": 0})
        assert "Holiday:" not in (await t.reply(r)).text
        # Nothing to come back from: said so, briefly and privately.
        r = await s.slash(alice, t.channel, "game back")
        refused = await t.reply(r)
        assert refused.ephemeral and "no holiday under way" in refused.text


async def _vote_asked(t: Table) -> tuple[list[str], Message]:
    """A table of three under ``vote``: the first seat's hour runs out and the others are
    asked; returns the voters and the vote's message."""
    s = t.standin
    clock = clocked(t)
    board = await open_three(t, pace="fast", out_of_time="vote")
    silent = name_of(t, mentioned_ids(board)[0])
    clock.advance(HOUR)
    await t.bot.tick()
    ask = await s.wait_until(
        lambda: next((m for m in t.bot_messages() if "what should the table do" in m.text),
                     None), WAIT, "the vote")
    return [n for n in ("alice", "bob", "carol") if n != silent], ask


async def test_a_vote_decided_by_its_voters_shows_it_ended(standin: StandIn, tmp_path: Path
                                                           ) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        voters, ask = await _vote_asked(t)
        for who, choice in zip(voters, ("remove", "wait"), strict=True):
            r = await s.click(t.members[who], ask, custom_id(ask, f"tabula:vote:{choice}:"))
            await t.reply(r)
        ended = await s.wait_until(lambda: ask if not ask.components else None, WAIT,
                                   "the vote's buttons gone")
        assert "the vote ends" not in ended.text
        assert "The vote is over" in ended.text and "a tie" in ended.text


async def test_a_vote_that_ran_out_shows_it_ended(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        _, ask = await _vote_asked(t)
        clocked_ = t.bot.scheduler.clock
        assert isinstance(clocked_, FakeClock)
        clocked_.advance(HOUR)
        await t.bot.tick()
        ended = await s.wait_until(lambda: ask if not ask.components else None, WAIT,
                                   "the vote's buttons gone")
        assert "The vote is over" in ended.text and "nobody voted" in ended.text


async def test_a_click_on_a_vote_decided_out_of_sight_clears_its_buttons(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        voters, ask = await _vote_asked(t)
        t.bot.delivery._votes.clear()  # as after a restart: the vote's message is not known
        clock = t.bot.scheduler.clock
        assert isinstance(clock, FakeClock)
        clock.advance(HOUR)
        await t.bot.tick()
        await s.wait_until(lambda: any("nobody voted" in m.text for m in t.bot_messages())
                           or None, WAIT, "the vote's result")
        r = await s.click(t.members[voters[0]], ask, custom_id(ask, "tabula:vote:wait:"))
        answer = await t.reply(r)
        assert "That vote is over" in answer.text and answer.ephemeral
        await s.wait_until(lambda: not ask.components or None, WAIT, "the buttons gone")
        assert "This vote is over." in ask.text
