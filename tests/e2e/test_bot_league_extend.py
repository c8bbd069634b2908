"""A league table's time, through the stand-in: the league's organisers (its admin role) may
extend a stalled table's deadlines; its pace and out-of-time rule stay the league's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.pace.clock import FakeClock
from rules import GAMES
from tests.e2e.harness import table
from tests.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

NAMES = ("ann", "ben", "cat")


async def test_a_league_organiser_extends_a_league_table(standin: StandIn, tmp_path: Path
                                                         ) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        s = t.standin
        t.bot.scheduler.clock = FakeClock()
        organisers = s.add_role(t.guild, "Organisers")
        olga = s.add_member(t.guild, "olga", roles=[organisers])
        r = await s.slash(t.members["admin"], t.channel, "league-admin admin-role",
                          {"role": organisers})
        await t.reply(r)
        r = await s.slash(t.members["admin"], t.channel, "league-admin create",
                          {"name": "Daily", "game": "palatinus", "largest": 3})
        await t.reply(r)
        r = await s.slash(t.members["admin"], t.channel, "league-admin pace",
                          {"name": "Daily", "pace": "daily"})
        await t.reply(r)
        for name in NAMES:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Daily"})
            await t.reply(r)
        r = await s.slash(t.members["admin"], t.channel, "league-admin round", {"name": "Daily"})
        await t.reply(r)
        [thread] = t.guild.threads
        record = await t.bot.tables.store.live_table(thread.id)
        assert record is not None
        player = next(n for n in NAMES if t.members[n].id != record.creator_id)
        r = await s.slash(t.members[player], thread, "game extend", {"by": "1d"})
        assert "Only the table's creator" in (await t.reply(r)).text
        r = await s.slash(olga, thread, "game extend", {"by": "1d"})
        assert "1 day more" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], thread, "game pace", {"pace": "fast"})
        assert "league sets its pace" in (await t.reply(r)).text
