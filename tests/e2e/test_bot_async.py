"""Asynchronous play through the real bot on the stand-in, with a fake clock the test moves:
deadlines in turn mentions, one reminder DM per deadline, the computer playing for a silent
seat in the channel, substitution, /turns across servers, a paused table."""

from __future__ import annotations

import re
from pathlib import Path

from bot.pace.clock import FakeClock
from tests.e2e.harness import WAIT, Table, custom_id, table
from tests.standin import Message, StandIn

TIMESTAMP = re.compile(r"<t:(\d+):R> \(<t:\1:f>\)")
MAX_TICKS = 800


def fake_clock(t: Table) -> FakeClock:
    clock = FakeClock()
    t.bot.scheduler.clock = clock
    return clock


async def open_timed(t: Table, pace: str = "custom", duration: str = "1m",
                     game: str = "palatinus") -> Message:
    """alice opens a timed table, bob joins, alice adds a computer and starts; returns the
    first board."""
    s = t.standin
    r = await s.slash(t.members["alice"], t.channel, "game new",
                      {"game": game, "players": 3, "seating": "join", "pace": pace,
                       "level": "random", **({"duration": duration} if pace == "custom"
                                             else {})})
    lobby = (await t.reply(r)).message
    assert lobby is not None and "per move" in lobby.text
    r = await s.click(t.members["bob"], lobby, custom_id(lobby, "tabula:lobby:join"))
    await r.wait_callback()
    r = await s.slash(t.members["alice"], t.channel, "game add-bot")
    await t.reply(r)
    r = await s.click(t.members["alice"], lobby, custom_id(lobby, "tabula:lobby:start"))
    await r.wait_callback()
    return await t.next_board(0)


async def test_a_one_minute_table_with_silent_members_ends_by_autopilot(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        clock = fake_clock(t)
        board = await open_timed(t)
        # Every turn mention shows its deadline as a Discord timestamp.
        assert TIMESTAMP.search(board.text), board.text
        for _ in range(MAX_TICKS):
            if "Game over" in t.bot_messages()[-1].text:
                break
            clock.advance(30)  # the reminder comes half-way through a minute
            await t.bot.tick()
        messages = [m.text for m in t.bot_messages()]
        assert any("Game over" in m for m in messages)
        assert any("Time ran out for Alice; the computer plays for them" in m for m in messages)
        assert any("Time ran out for Bob" in m for m in messages)
        # One reminder at most per deadline: silent seats turn absent after three in a row,
        # and a one-minute deadline's reminder comes half-way.
        for who in ("alice", "bob"):
            reminders = [m for m in standin.dms(t.members[who])
                         if m.text.startswith("Your move is awaited")]
            assert 1 <= len(reminders) <= 3


async def test_reminders_turns_pause_and_substitute(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db", names=("alice", "bob", "carol", "dave")
                     ) as t:
        s = t.standin
        clock = fake_clock(t)
        other = s.add_guild("Other Games")
        there = s.add_channel(other, "games")
        await open_timed(t, pace="daily")
        r = await s.slash(t.members["alice"], t.channel, "game status")
        status = (await t.reply(r)).text
        assert "24 h per move" in status or "1 day per move" in status
        waiting_on = [m for m in t.members if TIMESTAMP.search(t.boards()[-1].text)
                      and f"<@{t.members[m].id}>" in t.boards()[-1].text]
        assert waiting_on, t.boards()[-1].text
        first = waiting_on[0]
        # One reminder DM per deadline, an hour before it.
        clock.advance(23 * 3600)
        await t.bot.tick()
        await s.wait_until(lambda: any(m.text.startswith("Your move is awaited")
                                       for m in s.dms(t.members[first])), WAIT, "a reminder")
        clock.advance(600)
        await t.bot.tick()
        sent = [m for m in s.dms(t.members[first]) if m.text.startswith("Your move")]
        assert len(sent) == 1
        # /turns lists the tables that wait on the caller, on every server.
        r = await s.slash(t.members[first], t.channel, "turns")
        assert "1 table waits on you" in (await t.reply(r)).text
        elsewhere = s.add_member(other, t.members[first].user)
        r = await s.slash(elsewhere, there, "game new", {"game": "minerva", "players": 1})
        await t.reply(r)
        r = await s.slash(elsewhere, there, "game start")
        await t.reply(r)
        await s.wait_until(lambda: len(s.channel_messages(there)) >= 2, WAIT, "a board there")
        r = await s.slash(t.members[first], t.channel, "turns")
        listed = (await t.reply(r)).text
        assert "2 tables wait on you" in listed
        assert f"/{t.guild.id}/" in listed and f"/{other.id}/" in listed
        # Paused: the deadline passes and nothing fires.
        r = await s.slash(t.members["admin"], t.channel, "game pause", {"reason": "server move"})
        assert "server move" in (await t.reply(r)).text
        boards = len(t.boards())
        clock.advance(5 * 86400)
        await t.bot.tick()
        assert len(t.boards()) == boards
        r = await s.slash(t.members["alice"], t.channel, "game resume")
        assert "restarted" in (await t.reply(r)).text
        # Substitution: carol takes the waiting seat; her private view arrives by DM; the old
        # member no longer sees it.
        seat = 1 if first == "alice" else 2
        r = await s.slash(t.members["admin"], t.channel, "game substitute",
                          {"seat": seat, "member": t.members["carol"]})
        await t.reply(r)
        await s.wait_until(lambda: any("You now play seat" in m.text
                                       for m in s.dms(t.members["carol"])), WAIT,
                           "carol's private view")
        assert any(a.filename == "hand.png" for m in s.dms(t.members["carol"])
                   for a in m.attachments)
        r = await s.slash(t.members[first], t.channel, "hand")
        assert "do not have a seat" in (await t.reply(r)).text
        r = await s.slash(t.members["carol"], t.channel, "turns")
        assert "1 table waits on you" in (await t.reply(r)).text
