"""Time and seats you can trust, through the real bot on the stand-in with a fake clock: a
holiday taken during a turn protects it and shows in /game status; a member marked absent
comes back with /hand or /game back; a tied vote ends at once and the computer plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import WAIT, custom_id, mentioned_ids, table
from tests.e2e.test_bot_async_seats import clocked, name_of, open_three
from tests.standin import StandIn
from tests.standin.errors import UsageError

HOUR = 3600
DAY = 24 * HOUR


async def test_a_holiday_during_a_turn_holds_and_shows(standin: StandIn, tmp_path: Path
                                                       ) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clock = clocked(t)
        board = await open_three(t, pace="fast")
        first = name_of(t, mentioned_ids(board)[0])
        r = await s.slash(t.members[first], t.channel, "settings", {"quiet_start": "22:00"})
        assert "both `quiet_start` and `quiet_end`" in (await t.reply(r)).text
        r = await s.slash(t.members[first], t.channel, "settings", {"holiday_days": 3})
        said = (await t.reply(r)).text
        assert "Holiday:" in said and "Each table covers up to 7 days" in said
        r = await s.slash(t.members["alice"], t.channel, "game status")
        assert "away until <t:" in (await t.reply(r)).text
        messages = len(t.bot_messages())
        clock.advance(2 * DAY)
        await t.bot.tick()
        assert not any("Time ran out" in m.text for m in t.bot_messages()[messages:])
        # Back early: the turn has the time it had left when the holiday began.
        r = await s.slash(t.members[first], t.channel, "settings", {"holiday_days": 0})
        assert "Holiday:" not in (await t.reply(r)).text  # over: no longer listed
        clock.advance(HOUR)
        await t.bot.tick()
        await s.wait_until(lambda: any("Time ran out" in m.text
                                       for m in t.bot_messages()[messages:]) or None,
                           WAIT, "the deadline after the holiday")


async def test_an_absent_member_comes_back(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clock = clocked(t)
        await open_three(t, pace="fast")
        table_id = (await t.bot.tables.table_in(t.channel.id)).id
        for _ in range(40):  # nobody plays: every seat turns absent after three deadlines
            clocks = await t.bot.scheduler.store.seat_clocks(table_id)
            if len(clocks) == 3 and all(c.absent for c in clocks.values()):
                break
            clock.advance(HOUR)
            await t.bot.tick()
        r = await s.slash(t.members["bob"], t.channel, "game status")
        assert "absent" in (await t.reply(r)).text
        r = await s.slash(t.members["alice"], t.channel, "hand")
        await t.reply(r)
        await s.wait_until(lambda: any("Alice is back" in m.text
                                       for m in t.bot_messages()) or None, WAIT, "alice back")
        r = await s.slash(t.members["bob"], t.channel, "game back")
        assert "Welcome back" in (await t.reply(r)).text
        r = await s.slash(t.members["bob"], t.channel, "game back")
        assert "no absent seat" in (await t.reply(r)).text
        clocks = await t.bot.scheduler.store.seat_clocks(table_id)
        assert [c.absent for _, c in sorted(clocks.items())] == [False, False, True]
        # The record remembers: /profile shows it, and a table may ask for better.
        r = await s.slash(t.members["bob"], t.channel, "profile", {"member": t.members["carol"]})
        shown = (await t.reply(r)).text
        assert "1 abandoned" in shown and "3 deadlines missed" in shown
        there = s.add_channel(t.guild, "careful-games")
        r = await s.slash(t.members["alice"], there, "game new",
                          {"game": "palatinus", "pace": "daily", "min_reliability": 95})
        assert "reliability of 95% to join" in (await t.reply(r)).text
        r = await s.slash(t.members["carol"], there, "game join")
        assert "asks for a reliability of 95%" in (await t.reply(r)).text
        # A button is an action at the table too.
        board = t.boards()[-1]
        r = await s.click(t.members["carol"], board, custom_id(board, "tabula:board:moves:"))
        await t.reply(r)
        await s.wait_until(lambda: any("Carol is back" in m.text
                                       for m in t.bot_messages()) or None, WAIT, "carol back")


async def test_a_tied_vote_ends_at_once(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clock = clocked(t)
        board = await open_three(t, pace="fast", out_of_time="vote")
        silent = name_of(t, mentioned_ids(board)[0])
        voters = [n for n in ("alice", "bob", "carol") if n != silent]
        clock.advance(HOUR)
        await t.bot.tick()
        ask = await s.wait_until(
            lambda: next((m for m in t.bot_messages() if "what should the table do" in
                          m.text), None), WAIT, "the vote")
        assert "on a tie or without votes the computer plays" in ask.text
        r = await s.click(t.members[voters[0]], ask, custom_id(ask, "tabula:vote:remove:"))
        await t.reply(r)
        r = await s.slash(t.members[voters[1]], t.channel, "game status")
        status = (await t.reply(r)).text
        assert "the table votes until" in status and f"1 of 2 voted ({voters[0].title()})" in status
        boards = len(t.boards())
        r = await s.click(t.members[voters[1]], ask, custom_id(ask, "tabula:vote:wait:"))
        await t.reply(r)
        await s.wait_until(lambda: any("a tie" in m.text for m in t.bot_messages()) or None,
                           WAIT, "the tie's result")
        moved = await t.next_board(boards)
        assert "the computer plays for them" in moved.text


async def test_after_a_refused_dm_reminders_are_mentions_only(standin: StandIn,
                                                              tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db", closed_dms=("alice",)) as t:
        s = t.standin
        clock = clocked(t)
        await open_three(t, pace="fast")

        def refused() -> int:
            return sum(1 for e in s.error_responses if e.code == 50007)

        def mentions() -> int:
            return sum(1 for m in t.bot_messages()
                       if m.text.startswith(f"<@{t.members['alice'].id}>: Your move"))

        tried = []
        for _ in range(7):  # a reminder and a deadline each hour; nobody plays
            clock.advance(HOUR - 15 * 60)
            await t.bot.tick()
            clock.advance(15 * 60)
            await t.bot.tick()
            tried.append(refused())
        await s.wait_until(lambda: mentions() >= 2 or None, WAIT, "two reminders by mention")
        # Her private view once at this table; no DM after that, reminders included.
        assert tried[-1] == 1, tried


async def test_a_running_tables_pace_and_rule_change_in_the_channel(standin: StandIn,
                                                                    tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clocked(t)
        await open_three(t, pace="daily")
        r = await s.slash(t.members["bob"], t.channel, "game pace", {"pace": "fast"})
        assert "Only the table's creator" in (await t.reply(r)).text
        r = await s.slash(t.members["alice"], t.channel, "game pace", {"pace": "fast"})
        answer = await t.reply(r)
        assert not answer.ephemeral and "1 h per move" in answer.text
        r = await s.slash(t.members["alice"], t.channel, "game out-of-time", {"policy": "wait"})
        assert "`wait`" in (await t.reply(r)).text
        r = await s.slash(t.members["alice"], t.channel, "game extend", {"by": "2h"})
        assert "2 h more" in (await t.reply(r)).text


async def test_tables_shows_a_server_manager_what_waits(standin: StandIn, tmp_path: Path
                                                        ) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clock = clocked(t)
        board = await open_three(t, pace="fast", out_of_time="wait")
        first = name_of(t, mentioned_ids(board)[0])
        clock.advance(2 * HOUR)
        await t.bot.tick()
        with pytest.raises(UsageError, match="lacks the permissions"):
            await s.slash(t.members["bob"], t.channel, "tables")
        r = await s.slash(t.members["admin"], t.channel, "tables")
        shown = (await t.reply(r)).text
        assert "1 game in progress, 1 stalled" in shown
        assert f"waiting on {first.title()}" in shown and "out of time" in shown


async def test_server_defaults_for_new_tables_and_the_substitute_role(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clocked(t)
        subs = s.add_role(t.guild, "Substitutes")
        r = await s.slash(t.members["admin"], t.channel, "server-settings",
                          {"pace": "daily", "out_of_time": "vote", "quiet_hours": False,
                           "substitute_role": subs, "web_pages": False})
        said = (await t.reply(r)).text
        assert "pace daily, out of time `vote`, quiet hours ignored" in said
        assert "Web pages and links: off." in said
        assert not await t.bot.tables.store.web_pages_on(t.guild.id)
        assert f"<@&{subs.id}>" in said
        r = await s.slash(t.members["alice"], t.channel, "game new", {"game": "palatinus"})
        opened = (await t.reply(r)).text
        assert "1 day per move" in opened and "`vote`" in opened
        assert "Quiet hours do not move deadlines here" in opened
        for who in ("bob", "carol"):
            r = await s.slash(t.members[who], t.channel, "game join")
            await t.reply(r)
        r = await s.slash(t.members["alice"], t.channel, "game start")
        await t.reply(r)
        await t.next_board(0)
        r = await s.slash(t.members["alice"], t.channel, "game seek", {"seat": 2})
        advert = (await t.reply(r)).message
        assert advert is not None and subs.id in advert.mention_roles
