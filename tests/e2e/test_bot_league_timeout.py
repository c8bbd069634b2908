"""A league table with the league's one-minute pace: a member who never moves runs out of
time until their seat is absent, which the league records as their forfeit (last place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.pace.clock import FakeClock
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import play_to_the_end, table
from tests.standin import StandIn

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
        assert "is open" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], t.channel, "league-admin pace",
                          {"name": "Blitz", "pace": "custom", "duration": "1m",
                           "level": "random"})
        await t.reply(r)
        for name in NAMES:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Blitz"})
            assert "signed up" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], t.channel, "league-admin round", {"name": "Blitz"})
        assert "Round 1" in (await t.reply(r)).text
        [thread] = t.guild.threads
        record = await t.bot.tables.store.live_table(thread.id)
        assert record is not None
        seats = await t.bot.tables.seats(record.id)
        silent = seats[0].member_id
        # Only the silent member is awaited once the others are done: their minute runs out.
        await play_to_the_end(t, record.id, Rng("timeout"), clock, silent=silent)
        assert (await t.bot.tables.table_for(record.id)).status == "over"
        forfeits = await t.bot.tables.store.forfeits(record.id)
        assert [(f.member_id, f.reason) for f in forfeits] == [(silent, "time")]
        await t.bot.leagues.recorder.record(record.id)
        league = await t.bot.leagues.named(t.guild.id, "Blitz")
        [result] = await t.bot.tables.store.league_results(league.id)
        last = max(result.places, key=lambda p: p.place)
        assert last.member_id == silent and last.forfeited
        assert standin.violations == []
