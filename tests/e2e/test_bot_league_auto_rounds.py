"""Automatic league rounds with check-in, as members and organisers see them (the real bot on
the stand-in, a fake clock): each automatic round posts the check-in for the next, and a round
that cannot open says why in the league's channel, to the organisers."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.pace.clock import FakeClock
from tests.e2e.harness import table
from tests.e2e.test_bot_league import SEASON
from tests.standin import StandIn


async def test_an_automatic_round_asks_for_check_in_and_says_why_it_cannot_open(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "auto.db", names=SEASON[:4]) as t:
        s = t.standin
        clock = FakeClock()
        t.bot.scheduler.clock = clock
        admin = t.members["admin"]
        r = await s.slash(admin, t.channel, "league-admin create",
                          {"name": "Autumn", "game": "palatinus", "largest": 2})
        await t.reply(r)
        r = await s.slash(admin, t.channel, "league-admin signups",
                          {"name": "Autumn", "checkin": True})
        await t.reply(r)
        for name in SEASON[:4]:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Autumn"})
            await t.reply(r)
        r = await s.slash(admin, t.channel, "league-admin check-in", {"name": "Autumn"})
        await t.reply(r)
        board = next(m for m in t.bot_messages() if "Check in" in m.text)
        for name in SEASON[:4]:
            r = await s.click(t.members[name], board, next(
                c["custom_id"] for row in board.components for c in row["components"]))
            await t.reply(r)
        r = await s.slash(admin, t.channel, "league-admin round",
                          {"name": "Autumn", "deadline": "1d", "auto": True})
        assert "Round 1" in (await t.reply(r)).text
        # The check-in for round 2 is posted with its button: members need not ask for it.
        # Its window closes when round 2 opens (round 1's deadline); it counts who is in.
        asked = await s.wait_until(
            lambda: next((m for m in s.channel_messages(t.channel)
                          if "round 2 of" in m.text and m.components), None),
            10.0, "round 2's check-in")
        assert any(c.get("label") == "Check in"
                   for row in asked.components for c in row["components"])
        due = int((clock.now() + timedelta(days=1)).timestamp())
        assert f"Check in by <t:{due}:f>" in asked.text, asked.text
        assert "Checked in: 0 of 4 signed up." in asked.text
        # Only one member checks in: round 2 cannot open, and the channel says why.
        r = await s.click(t.members[SEASON[0]], asked, next(
            c["custom_id"] for row in asked.components for c in row["components"]))
        await t.reply(r)
        clock.advance(timedelta(days=1, minutes=1))
        await t.bot.tick()
        said = await s.wait_until(
            lambda: next((m for m in s.channel_messages(t.channel)
                          if "could not open" in m.text), None),
            10.0, "why round 2 did not open")
        assert "Not enough members checked in" in said.text, said.text
        assert "league-admin round" in said.text


async def test_a_forced_round_settles_the_open_one_in_its_threads(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "force.db", names=SEASON[:4]) as t:
        s, store = t.standin, t.bot.tables.store
        admin = t.members["admin"]
        r = await s.slash(admin, t.channel, "league-admin create",
                          {"name": "Autumn", "game": "palatinus", "largest": 2})
        await t.reply(r)
        for name in SEASON[:4]:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Autumn"})
            await t.reply(r)
        r = await s.slash(admin, t.channel, "league-admin round", {"name": "Autumn"})
        assert "Round 1" in (await t.reply(r)).text
        first = list(t.guild.threads)
        r = await s.slash(admin, t.channel, "league-admin round",
                          {"name": "Autumn", "force": True})
        assert "Round 2" in (await t.reply(r)).text
        # Each table of round 1 is told it ended, and none plays on beside round 2.
        for thread in first:
            await s.wait_until(lambda th=thread: any(
                "closed round 1" in m.text for m in s.channel_messages(th)) or None,
                10.0, "the forced close's notice")
        league = await t.bot.leagues.named(t.guild.id, "Autumn")
        live: dict[int, int] = {}
        for round_ in await store.rounds(league.id):
            for tb in await store.round_tables(round_.id):
                if tb.live:
                    for seat in await store.seats(tb.id):
                        if seat.member_id is not None:
                            live[seat.member_id] = live.get(seat.member_id, 0) + 1
        assert live and max(live.values()) == 1, live
        assert standin.violations == []
