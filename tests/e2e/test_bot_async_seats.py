"""Asynchronous play through the real bot on the stand-in: the vote buttons on a seat out of
time, the old player refused after a substitution (moves and their old DM buttons), previews
turned off in /settings, the next waiting table after a move, and /rules showing the pace."""

from __future__ import annotations

from pathlib import Path

from bot.pace.clock import FakeClock
from bot.values import Member
from tests.e2e.harness import WAIT, Table, custom_id, mentioned_ids, table
from tests.standin import Message, StandIn

HOUR = 3600


def clocked(t: Table) -> FakeClock:
    clock = FakeClock()
    t.bot.scheduler.clock = clock
    return clock


async def open_three(t: Table, **options: object) -> Message:
    """alice opens Palatinus with bob and carol (join order) and starts; the first board."""
    s = t.standin
    r = await s.slash(t.members["alice"], t.channel, "game new",
                      {"game": "palatinus", "players": 3, "seating": "join", "level": "random",
                       **options})
    lobby = (await t.reply(r)).message
    for who in ("bob", "carol"):
        r = await s.click(t.members[who], lobby, custom_id(lobby, "tabula:lobby:join"))
        await r.wait_callback()
    r = await s.click(t.members["alice"], lobby, custom_id(lobby, "tabula:lobby:start"))
    await r.wait_callback()
    return await t.next_board(0)


def name_of(t: Table, member_id: int) -> str:
    return next(n for n, m in t.members.items() if m.id == member_id)


async def legal(t: Table, who: str) -> str:
    table = await t.bot.tables.table_in(t.channel.id)
    moves = await t.bot.tables.legal_moves(table.id, Member(t.members[who].id, who))
    assert moves, f"{who} has no move"
    return moves[0]


async def test_the_vote_buttons_decide_a_seat_out_of_time(standin: StandIn, tmp_path: Path
                                                          ) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clock = clocked(t)
        board = await open_three(t, pace="fast", out_of_time="vote")
        silent = name_of(t, mentioned_ids(board)[0])
        voters = [n for n in ("alice", "bob", "carol") if n != silent]
        r = await s.slash(t.members["bob"], t.channel, "game status")
        status = (await t.reply(r)).text
        assert "`vote`" in status and "level random" in status
        clock.advance(HOUR)
        await t.bot.tick()
        ask = await s.wait_until(
            lambda: next((m for m in t.bot_messages() if "what should the table do" in
                          m.text), None), WAIT, "the vote")
        remove = custom_id(ask, "tabula:vote:remove:")
        # The seat out of time has no vote.
        r = await s.click(t.members[silent], ask, remove)
        assert "Only the other players" in (await t.reply(r)).text
        r = await s.click(t.members[voters[0]], ask, remove)
        assert "Your vote" in (await t.reply(r)).text
        boards = len(t.boards())
        r = await s.click(t.members[voters[1]], ask, remove)
        await t.reply(r)
        await s.wait_until(lambda: any("voted" in m.text and "out" in m.text
                                       for m in t.bot_messages()), WAIT, "the vote's result")
        moved = await t.next_board(boards)
        assert "the computer plays for them" in moved.text
        # Decided: the vote's message says so and has no buttons left to click.
        await s.wait_until(lambda: not ask.components or None, WAIT, "the buttons gone")
        assert "The vote is over: remove the seat" in ask.text


async def test_after_a_substitution_the_old_player_is_refused(standin: StandIn, tmp_path: Path
                                                              ) -> None:
    async with table(standin, tmp_path / "e2e.db", names=("alice", "bob", "carol", "dave")
                     ) as t:
        s = t.standin
        clocked(t)
        board = await open_three(t, pace="daily")
        old = name_of(t, mentioned_ids(board)[0])
        seat = ("alice", "bob", "carol").index(old) + 1
        dm_button = await s.wait_until(
            lambda: next((m for m in s.dms(t.members[old])
                          if any(c.startswith("tabula:board:moves:") for c in m.custom_ids())),
                         None), WAIT, "the old player's DM with buttons")
        move = await legal(t, old)
        r = await s.slash(t.members["admin"], t.channel, "game substitute",
                          {"seat": seat, "member": t.members["dave"]})
        assert "now belongs to dave" in (await t.reply(r)).text.lower()
        await s.wait_until(lambda: any("You now play seat" in m.text
                                       for m in s.dms(t.members["dave"])), WAIT, "dave's DM")
        # The old player's typed move and their private view are refused.
        r = await s.slash(t.members[old], t.channel, "move", {"action": move, "confirm": True})
        assert "do not have a seat" in (await t.reply(r)).text
        # Their DM board no longer offers moves (taken off in place); its hand is refused.
        await s.wait_until(
            lambda: not any(c.startswith("tabula:board:moves:") for m in s.dms(t.members[old])
                            if m.id == dm_button.id for c in m.custom_ids()),
            WAIT, "the old player's DM board without its moves button")
        r = await s.click(t.members[old], dm_button, custom_id(dm_button, "tabula:board:hand:"))
        assert "do not have a seat" in (await t.reply(r)).text
        r = await s.slash(t.members[old], t.channel, "hand")
        assert "do not have a seat" in (await t.reply(r)).text
        # The newcomer plays the seat.
        boards = len(t.boards())
        r = await s.slash(t.members["dave"], t.channel, "move", {"action": move, "confirm": True})
        assert "Done" in (await t.reply(r)).text
        await t.next_board(boards)
        r = await s.slash(t.members["dave"], t.channel, "history")
        assert "takes over from" in (await t.reply(r)).text


async def test_previews_off_and_the_next_waiting_table(standin: StandIn, tmp_path: Path
                                                       ) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clocked(t)
        board = await open_three(t, pace="daily")
        first = name_of(t, mentioned_ids(board)[0])
        r = await s.slash(t.members[first], t.channel, "rules", {"game": "palatinus"})
        assert "This table: Pace: 1 day per move" in (await t.reply(r)).text
        # Another table elsewhere waits on the same member.
        there = s.add_channel(t.guild, "more-games")
        r = await s.slash(t.members[first], there, "game new", {"game": "minerva",
                                                                "players": 1})
        await t.reply(r)
        r = await s.slash(t.members[first], there, "game start")
        await t.reply(r)
        await s.wait_until(lambda: len(s.channel_messages(there)) >= 2, WAIT, "a board there")
        r = await s.slash(t.members[first], t.channel, "settings", {"preview": False})
        assert "Preview before Confirm: off" in (await t.reply(r)).text
        boards = len(t.boards())
        r = await s.slash(t.members[first], t.channel, "move",
                          {"action": await legal(t, first)})
        done = (await t.reply(r)).text
        assert done.startswith("Done") and "Your next game waiting: Minerva" in done
        await t.next_board(boards)


async def test_the_dm_dashboard_is_one_message_edited_in_place(standin: StandIn,
                                                              tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        clocked(t)
        board = await open_three(t, pace="daily")
        first = name_of(t, mentioned_ids(board)[0])
        r = await s.slash(t.members[first], t.channel, "settings", {"dashboard": True})
        assert "DM dashboard of your waiting tables: on" in (await t.reply(r)).text
        await t.bot.tick()

        def dashboards() -> list[Message]:
            return [m for m in s.dms(t.members[first]) if m.text.startswith("Your tables")]

        await s.wait_until(lambda: dashboards() or None, WAIT, "the dashboard")
        assert "Palatinus" in dashboards()[0].text
        boards = len(t.boards())
        r = await s.slash(t.members[first], t.channel, "move",
                          {"action": await legal(t, first), "confirm": True})
        await t.reply(r)
        await t.next_board(boards)
        await t.bot.tick()
        await s.wait_until(lambda: "No table waits on you" in dashboards()[0].text or None,
                           WAIT, "the dashboard edited")
        assert len(dashboards()) == 1
