"""A league season through Discord: a manager creates a league, seven members sign up, a round
opens tables in threads, the games are played to the end (moves go through the table use cases
for speed), one member never moves and forfeits by timeout under the league's one-minute pace,
and the standings image and the CSV show the order the stored ratings give. Then a season of
two rounds: a round deadline settles a stalled table, an organiser hands a seat to a
substitute, a result is voided, and the points table breaks a tie."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest

from bot.leagues.results import all_time, replay
from bot.pace.clock import FakeClock
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import custom_id, play_to_the_end, table
from tests.standin import StandIn, UsageError

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
        assert "is open" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], t.channel, "league-admin season start",
                          {"name": "Autumn", "ends": "2099-12-31"})
        assert "Season 1" in (await t.reply(r)).text
        clock = FakeClock()
        t.bot.scheduler.clock = clock
        r = await s.slash(t.members["admin"], t.channel, "league-admin pace",
                          {"name": "Autumn", "pace": "custom", "duration": "1m",
                           "level": "random"})
        await t.reply(r)
        for name in NAMES:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Autumn"})
            assert "signed up" in (await t.reply(r)).text
        with pytest.raises(UsageError, match="permissions"):
            await s.slash(t.members["gus"], t.channel, "league-admin round", {"name": "Autumn"})
        assert t.guild.threads == []

        r = await s.slash(t.members["admin"], t.channel, "league-admin round", {"name": "Autumn"})
        summary = (await t.reply(r)).text
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
            greeting = s.channel_messages(thread)[0].text
            assert all(f"<@{seat.member_id}>" in greeting for seat in seats)
        assert sorted(sizes) == [3, 4]
        # Anyone sees the round's progress: each table, whom it waits for, none finished yet.
        r = await s.slash(t.members["ann"], t.channel, "league round", {"name": "Autumn"})
        progress = (await t.reply(r)).text
        assert "round 1 of 1: open" in progress and "0 of 2 tables finished" in progress
        assert progress.count("playing, waits for") == 2, progress
        assert all(f"<#{thread.id}>" in progress for thread in threads)

        rng = Rng("season")
        small = next(x for x in tables if len(x[2]) == 3)
        quitter = next(n for n in NAMES if t.members[n].user.id == small[2][0].member_id)
        for table_id, _, _ in tables:
            await play_to_the_end(t, table_id, rng, clock,
                                  t.members[quitter].user.id if table_id == small[0] else None)

        r = await s.slash(t.members["ben"], t.channel, "league round",
                          {"name": "Autumn", "number": 1})
        progress = (await t.reply(r)).text
        assert "round 1 of 1: closed" in progress and "2 of 2 tables finished" in progress
        assert "waits for" not in progress
        r = await s.slash(t.members["ben"], t.channel, "league round",
                          {"name": "Autumn", "number": 5})
        assert "has rounds 1 to 1; there is no round 5" in (await t.reply(r)).text

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
                      for line in answer.text.splitlines()[1:]]
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
        # Each seat's score on the board, and each member's season rating before and after.
        assert all(row["score"] and row["rating_before"] and row["rating_after"] for row in rows)
        assert {float(row["rating_after"]) for row in rows} == {
            round(r.shown, 3) for r in ratings.values()}

        r = await s.slash(t.members["cat"], t.channel, "league results", {"name": "Autumn"})
        listing = (await t.reply(r)).text
        assert listing.count("https://discord.com/channels/") == 2 and "(forfeit)" in listing
        assert standin.violations == []


SEASON = ("ann", "ben", "cat", "dan", "eve")


def points_rows(text: str) -> list[tuple[str, float, float, float, float]]:
    """(name, points, Buchholz, Sonneborn-Berger, rating) per line of the points view."""
    rows = []
    for line in text.splitlines()[1:]:
        found = re.match(r"\d+\. (\w+): ([\d.]+) pts .* Buchholz ([\d.]+) · SB ([\d.]+)"
                         r" · rating (-?[\d.]+)", line)
        assert found, line
        name, *numbers = found.groups()
        rows.append((name, *(float(x) for x in numbers)))  # type: ignore[arg-type]
    return rows


async def test_a_season_of_two_rounds_with_a_deadline_a_substitute_a_void_and_a_tie_break(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "season.db", names=SEASON) as t:
        s, store = t.standin, t.bot.tables.store
        clock = FakeClock()
        t.bot.scheduler.clock = clock
        by_id = {t.members[n].user.id: n for n in SEASON}
        r = await s.slash(t.members["admin"], t.channel, "league-admin create",
                          {"name": "Winter", "game": "palatinus", "largest": 2})
        assert "is open" in (await t.reply(r)).text
        for name in SEASON:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Winter"})
            assert "signed up" in (await t.reply(r)).text
        # A member cannot open a rated table of the league outside rounds.
        r = await s.slash(t.members["ann"], t.channel, "game new",
                          {"game": "palatinus", "league": "Winter"})
        assert "outside rounds" in (await t.reply(r)).text

        # Round 1 has a day; a second round waits until it is complete.
        r = await s.slash(t.members["admin"], t.channel, "league-admin round",
                          {"name": "Winter", "deadline": "1d"})
        summary = (await t.reply(r)).text
        assert "Round 1" in summary and "Deadline: <t:" in summary
        assert "Sitting out this round:" in summary
        r = await s.slash(t.members["admin"], t.channel, "league-admin round",
                          {"name": "Winter"})
        assert "still open" in (await t.reply(r)).text
        await t.bot.tick()  # the running bot's next tick, seconds after the round opened
        league = await t.bot.leagues.named(t.guild.id, "Winter")
        (round1,) = await store.rounds(league.id)
        first, second = await store.round_tables(round1.id)
        seated = {s_.member_id for tb in (first, second) for s_ in await store.seats(tb.id)}
        (resting,) = [n for n in SEASON if t.members[n].user.id not in seated]

        # At the second table the organiser hands a seat to the member sitting out; the
        # seat's own player may not.
        thread = next(c for c in t.guild.threads if c.id == second.channel_id)
        seats = await store.seats(second.id)
        leaving = by_id[seats[1].member_id or 0]
        r = await s.slash(t.members[leaving], thread, "game substitute",
                          {"seat": 2, "member": t.members[resting]})
        assert "only an organiser" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], thread, "game substitute",
                          {"seat": 2, "member": t.members[resting]})
        assert f"now belongs to {resting}" in (await t.reply(r)).text.lower()

        rng = Rng("winter")
        await play_to_the_end(t, first.id, rng, clock)
        # The second table stalls until the deadline: the seat it waits for forfeits.
        waiting = {s_.member_id for s_ in await store.seats(second.id)
                   if s_.member_id in (await t.bot.tables.status(second.id)).next_members}
        # An hour before the deadline the members the stalled table waits for are reminded
        # by DM, with a link to the thread (a day before is the round's start: its greeting
        # said so); nobody is mentioned in the thread, their DMs being open.
        due = datetime.fromisoformat(round1.deadline or "")
        clock.advance(max(0.0, (due - timedelta(minutes=50) - clock.now()).total_seconds()))
        await t.bot.tick()
        for member_id in waiting:
            member = next(p for p in t.members.values() if p.user.id == member_id)
            reminder = await s.wait_until(
                lambda member=member: next((m for m in s.dms(member)
                                            if " ends <t:" in m.text), None),
                10.0, "the round's reminder by DM")
            assert "waits for you" in reminder.text and f"<#{thread.id}>" in reminder.text
        assert not any("waits for you" in m.text for m in s.channel_messages(thread))
        clock.advance(timedelta(days=1, minutes=1))
        await t.bot.tick()
        await s.wait_until(lambda: any("deadline has passed" in m.text
                                       for m in s.channel_messages(thread)), 10.0,
                           "the deadline's notice in the thread")
        assert not (await store.rounds(league.id))[0].open
        # The thread and the league's channel hear who forfeits and who shares first place.
        told = next(m.text for m in s.channel_messages(thread)
                    if "deadline has passed" in m.text)
        names = {s_.member_id: s_.name for s_ in await store.seats(second.id)}
        late = [names[m] for m in waiting if m is not None]
        assert late and all(name in told for name in late) and "forfeit" in told, told
        assert "first place" in told
        heard = await s.wait_until(
            lambda: next((m.text for m in s.channel_messages(t.channel)
                          if "its unfinished tables ended" in m.text), None), 10.0,
            "the deadline's summary in the league's channel")
        assert f"<#{thread.id}>" in heard and all(name in heard for name in late), heard
        stalled = next(r_ for r_ in await store.league_results(league.id)
                       if r_.table_id == second.id)
        forfeited = {p.member_id: p for p in stalled.places if p.forfeited}
        # The member replaced forfeits (their result is kept), and so does the stalled seat.
        assert t.members[leaving].user.id in forfeited
        assert t.members[resting].user.id not in {p.member_id for p in stalled.places}
        assert waiting - {t.members[resting].user.id} <= set(forfeited)

        # Round 2, played to the end; at its deadline round 3 opens by itself.
        r = await s.slash(t.members["admin"], t.channel, "league-admin round",
                          {"name": "Winter", "deadline": "2d", "auto": True})
        summary = (await t.reply(r)).text
        assert "Round 2" in summary and "The next round then opens by itself." in summary
        round2 = (await store.rounds(league.id))[1]
        for tb in await store.round_tables(round2.id):
            await play_to_the_end(t, tb.id, rng, clock)

        # The organiser voids the last result, with a reason; ratings follow.
        voided = (await store.league_results(league.id))[-1]
        assert voided.round_id == round2.id
        with pytest.raises(UsageError, match="permissions"):
            await s.slash(t.members["ben"], t.channel, "league-admin void",
                          {"name": "Winter", "result": voided.id, "reason": "wrong seats"})
        r = await s.slash(t.members["admin"], t.channel, "league-admin void",
                          {"name": "Winter", "result": voided.id, "reason": "wrong seats"})
        assert "is void: wrong seats" in (await t.reply(r)).text
        results = await store.league_results()
        assert await store.all_ratings() == replay(results, await store.season_carries())
        r = await s.slash(t.members["cat"], t.channel, "league results", {"name": "Winter"})
        assert "(voided)" in (await t.reply(r)).text

        # The tournament table: equal points are ordered by Buchholz, Sonneborn-Berger, then
        # rating, as shown.
        r = await s.slash(t.members["dan"], t.channel, "league standings",
                          {"name": "Winter", "view": "points"})
        rows = points_rows((await t.reply(r)).text)
        assert sorted(n.lower() for n, *_ in rows) == sorted(SEASON)
        keys = [(-p, -b, -sb, -rating) for _, p, b, sb, rating in rows]
        assert keys == sorted(keys)
        # Equal points, told apart by Buchholz (the voided game counts for nothing).
        assert any(a[1] == b[1] and a[2] > b[2] for a, b in pairwise(rows))

        # Members see themselves: rank, points, latest results; anyone's history.
        r = await s.slash(t.members[leaving], t.channel, "league me", {"name": "Winter"})
        mine = (await t.reply(r)).text
        assert "Rank " in mine and "No round is open" in mine and "(forfeit)" in mine
        r = await s.slash(t.members["eve"], t.channel, "league history",
                          {"name": "Winter", "member": t.members[leaving]})
        history = (await t.reply(r)).text
        assert history.count("\n- #") == len([x for x in await store.league_results(league.id)
                                              if t.members[leaving].user.id in
                                              {p.member_id for p in x.places}])

        threads = len(t.guild.threads)
        clock.advance(timedelta(days=2, minutes=1))
        await t.bot.tick()
        await s.wait_until(lambda: any(m.text.startswith("Round 3 of **Winter**")
                                       for m in t.bot_messages()), 10.0, "round 3's summary")
        assert len(t.guild.threads) == threads + 2
        assert [r_.number for r_ in await store.rounds(league.id)] == [1, 2, 3]
        assert standin.violations == []


async def test_sign_ups_with_a_cap_and_a_check_in_button(standin: StandIn,
                                                        tmp_path: Path) -> None:
    async with table(standin, tmp_path / "checkin.db", names=SEASON) as t:
        s = t.standin
        r = await s.slash(t.members["admin"], t.channel, "league-admin create",
                          {"name": "Spring", "game": "palatinus", "largest": 2})
        await t.reply(r)
        r = await s.slash(t.members["admin"], t.channel, "league-admin signups",
                          {"name": "Spring", "cap": 4, "checkin": True})
        assert "capped at 4 members" in (await t.reply(r)).text
        for name in SEASON[:4]:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": "Spring"})
            assert "signed up" in (await t.reply(r)).text
        r = await s.slash(t.members["eve"], t.channel, "league join", {"name": "Spring"})
        assert "is full (4 members)" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], t.channel, "league-admin check-in",
                          {"name": "Spring"})
        await t.reply(r)
        board = next(m for m in t.bot_messages() if "Check in" in m.text)
        button = custom_id(board, "tabula:checkin:")
        for count, name in enumerate(("ann", "cat"), 1):
            r = await s.click(t.members[name], board, button)
            # The post counts who checked in; the member hears it alone.
            assert f"Checked in: {count} of 4 signed up." in (await t.reply(r)).text
            assert "checked in for the next round" in (await t.reply(r, 2)).text
        assert "Checked in: 2 of 4" in board.text  # the post itself, edited
        r = await s.click(t.members["ann"], board, button)
        assert "checked in for **Spring** already" in (await t.reply(r)).text
        r = await s.click(t.members["eve"], board, button)
        assert "Sign up for" in (await t.reply(r)).text
        r = await s.slash(t.members["admin"], t.channel, "league-admin round",
                          {"name": "Spring"})
        assert "Round 1" in (await t.reply(r)).text
        (thread,) = t.guild.threads
        record = await t.bot.tables.store.live_table(thread.id)
        assert record is not None
        seated = {seat.member_id for seat in await t.bot.tables.seats(record.id)}
        assert seated == {t.members["ann"].user.id, t.members["cat"].user.id}
        r = await s.slash(t.members["admin"], t.channel, "league-admin signups",
                          {"name": "Spring", "open": False})
        assert "sign-ups are closed" in (await t.reply(r)).text
        assert standin.violations == []
