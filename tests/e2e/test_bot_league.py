"""A league season through Discord: a manager creates a league, seven members sign up, a round
opens tables in threads, the games are played to the end (moves go through the table use cases
for speed), one member never moves and forfeits by timeout under the league's one-minute pace,
and the standings image and the CSV show the order the stored ratings give."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from bot.leagues.results import all_time
from bot.pace.clock import FakeClock
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import play_to_the_end, table
from tests.e2e.standin import StandIn, UsageError

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus")


async def test_a_league_season_from_sign_up_to_standings(standin: StandIn,
                                                         tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        s = t.standin
        # Discord shows the organisers' commands only to members with Manage Server.
        with pytest.raises(UsageError, match="permissions"):
            await s.slash(t.members["ann"], t.channel, "league-admin create",
                          {"name": "Autumn", "game": "palatinus"})
        r = await s.slash(t.members["admin"], t.channel, "league-admin create",
                          {"name": "Autumn", "game": "palatinus", "largest": 4})
        assert "is open" in (await t.reply(r)).content
        r = await s.slash(t.members["admin"], t.channel, "league-admin season start",
                          {"name": "Autumn", "ends": "2099-12-31"})
        assert "Season 1" in (await t.reply(r)).content
        clock = FakeClock()
        t.bot.scheduler.clock = clock
        r = await s.slash(t.members["admin"], t.channel, "league-admin pace",
                          {"name": "Autumn", "pace": "custom", "duration": "1m",
                           "level": "random"})
        await t.reply(r)
        for name in NAMES:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Autumn"})
            assert "signed up" in (await t.reply(r)).content
        with pytest.raises(UsageError, match="permissions"):
            await s.slash(t.members["gus"], t.channel, "league-admin round", {"name": "Autumn"})
        assert t.guild.threads == []

        r = await s.slash(t.members["admin"], t.channel, "league-admin round", {"name": "Autumn"})
        summary = (await t.reply(r)).content
        assert "Round 1" in summary and summary.count("- table") == 2
        threads = list(t.guild.threads)
        assert len(threads) == 2
        sizes = []
        tables = []
        for thread in threads:
            record = await t.bot.tables.store.live_table(thread.id)
            assert record is not None and record.status == "playing"
            seats = await t.bot.tables.seats(record.id)
            sizes.append(len(seats))
            tables.append((record.id, thread.id, seats))
            greeting = s.channel_messages(thread)[0].content
            assert all(f"<@{seat.member_id}>" in greeting for seat in seats)
        assert sorted(sizes) == [3, 4]

        rng = Rng("season")
        small = next(x for x in tables if len(x[2]) == 3)
        quitter = next(n for n in NAMES if t.members[n].user.id == small[2][0].member_id)
        for table_id, _, _ in tables:
            await play_to_the_end(t, table_id, rng, clock,
                                  t.members[quitter].user.id if table_id == small[0] else None)

        league = await t.bot.leagues.named(t.guild.id, "Autumn")
        results = await t.bot.tables.store.league_results(league.id)
        assert len(results) == 2
        walked_out = next(r for r in results if r.table_id == small[0])
        assert not walked_out.abandoned
        ranked = sorted(walked_out.places, key=lambda p: p.place)
        assert ranked[-1].forfeited and not any(p.forfeited for p in ranked[:-1])
        assert ranked[-1].member_id == t.members[quitter].user.id
        forfeits = await t.bot.tables.store.forfeits(small[0])
        assert [f.reason for f in forfeits] == ["time"]

        # The expected order, straight from the stored season ratings.
        season = (await t.bot.tables.store.seasons(league.id))[0]
        ratings = await t.bot.tables.store.ratings(f"season:{season.id}")
        by_id = {t.members[n].user.id: n for n in NAMES}
        expected = [by_id[m] for m, _ in sorted(ratings.items(),
                                                key=lambda x: (-x[1].shown, -x[1].wins))]
        assert len(expected) == 7
        # Whoever stayed at the quitter's table shares first place there: both rank above.
        stayed = [by_id[p.member_id] for p in walked_out.places
                  if p.member_id is not None and not p.forfeited]
        assert all(expected.index(n) < expected.index(quitter) for n in stayed)
        assert await t.bot.tables.store.ratings(all_time(t.guild.id, "palatinus"))

        r = await s.slash(t.members["ben"], t.channel, "league standings", {"name": "Autumn"})
        answer = await t.reply(r)
        text_order = [line.split(". ", 1)[1].split(":", 1)[0].lower()
                      for line in answer.content.splitlines()[1:]]
        assert [n for n in text_order] == expected
        image = answer.attachments[0]
        assert image.filename == "standings.png" and image.image_size() is not None
        assert image.description is not None
        positions = [image.description.lower().index(f". {n},") for n in expected]
        assert positions == sorted(positions)
        (tmp_path / "standings.png").write_bytes(image.data)

        r = await s.slash(t.members["cat"], t.channel, "league export", {"name": "Autumn"})
        exported = (await t.reply(r)).attachments[0]
        rows = list(csv.DictReader(io.StringIO(exported.data.decode())))
        assert len(rows) == 7
        forfeits = [row["name"].lower() for row in rows if row["forfeited"] == "1"]
        assert forfeits == [quitter]

        r = await s.slash(t.members["cat"], t.channel, "league results", {"name": "Autumn"})
        listing = (await t.reply(r)).content
        assert listing.count("https://discord.com/channels/") == 2 and "(forfeit)" in listing
        assert standin.violations == []
