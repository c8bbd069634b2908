"""A league table with the league's one-minute pace: a member who never moves runs out of
time until their seat is absent, which the league records as their forfeit (last place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.pace.clock import FakeClock
from bot.values import Member
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import table
from tests.e2e.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

NAMES = ("ann", "ben", "cat")


async def test_a_silent_league_member_forfeits_by_timeout(standin: StandIn,
                                                          tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        s = t.standin
        clock = FakeClock()
        t.bot.scheduler.clock = clock
        r = await s.slash(t.members["admin"], t.channel, "league-admin create",
                          {"name": "Blitz", "game": "palatinus", "largest": 3})
        assert "is open" in (await t.reply(r)).content
        r = await s.slash(t.members["admin"], t.channel, "league-admin pace",
                          {"name": "Blitz", "pace": "custom", "duration": "1m",
                           "level": "random"})
        await t.reply(r)
        for name in NAMES:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Blitz"})
            assert "signed up" in (await t.reply(r)).content
        r = await s.slash(t.members["admin"], t.channel, "league-admin round", {"name": "Blitz"})
        assert "Round 1" in (await t.reply(r)).content
        [thread] = t.guild.threads
        record = await t.bot.tables.store.live_table(thread.id)
        assert record is not None
        seats = await t.bot.tables.seats(record.id)
        silent = seats[0].member_id
        players = [Member(x.member_id, x.name) for x in seats[1:] if x.member_id]
        rng = Rng("timeout")
        for _ in range(3_000):
            if (await t.bot.tables.table_for(record.id)).status != "playing":
                break
            moved = False
            for member in players:
                moves = await t.bot.tables.legal_moves(record.id, member)
                if moves:
                    notice = await t.bot.tables.act(record.id, member, rng.choice(moves))
                    if notice.over:
                        await t.bot.delivery.post_move(notice)
                    moved = True
                    break
            if not moved:
                clock.advance(60)  # only the silent member is awaited: their minute runs out
                await t.bot.tick()
        assert (await t.bot.tables.table_for(record.id)).status == "over"
        forfeits = await t.bot.tables.store.forfeits(record.id)
        assert [(f.member_id, f.reason) for f in forfeits] == [(silent, "time")]
        await t.bot.leagues.recorder.record(record.id)
        league = await t.bot.leagues.named(t.guild.id, "Blitz")
        [result] = await t.bot.tables.store.league_results(league.id)
        last = max(result.places, key=lambda p: p.place)
        assert last.member_id == silent and last.forfeited
        assert standin.violations == []
