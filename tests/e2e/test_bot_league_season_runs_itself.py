"""A season an organiser leaves running, through Discord (the real bot on the stand-in, a fake
clock): three rounds that open by themselves with check-in, a member replaced with no fault, a
substitute found by a vote and its "Take this seat" button, a round closed by force, and a
round deadline reminded by DM (or by a mention when DMs are refused) and then settled. At the
end every table is settled, every deadline was announced before it passed, and the stored
ratings equal a recomputation from the results with openskill directly."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.leagues.results import all_time
from bot.pace.clock import FakeClock
from bot.store import LeagueResult, RoundRecord, Status, TableRecord
from bot.store.records import RATING_MU, RATING_SIGMA
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import WAIT, Table, custom_id, play_to_the_end, table
from tests.standin import Message, StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")
LEAGUE = "Harvest"


def stamps(text: str) -> list[int]:
    """The Discord timestamps (<t:N:…>) a text announces."""
    return [int(n) for n in re.findall(r"<t:(\d+):", text)]


def recomputed(results: list[LeagueResult]) -> dict[int, tuple[float, float]]:
    """Every member's all-time (mu, sigma) from the results alone, rated with openskill's
    Plackett-Luce model directly: ranks are the places, voided results count for nothing."""
    model = PlackettLuce(mu=RATING_MU, sigma=RATING_SIGMA)
    book: dict[int, tuple[float, float]] = {}
    for result in results:
        placed = [p for p in result.places if p.member_id is not None]
        if result.voided is not None or len(placed) < 2:
            continue
        teams = [[model.rating(*book.get(p.member_id or 0, (RATING_MU, RATING_SIGMA)))]
                 for p in placed]
        rated = model.rate(teams, ranks=[float(p.place) for p in placed])
        for place, (after,) in zip(placed, rated, strict=True):
            book[place.member_id or 0] = (float(after.mu), float(after.sigma))
    return book


class Season:
    """The league's channel and rounds as the organiser sees them."""

    def __init__(self, t: Table, clock: FakeClock) -> None:
        self.t, self.s, self.clock = t, t.standin, clock
        self.store = t.bot.tables.store

    async def league_id(self) -> int:
        return (await self.t.bot.leagues.named(self.t.guild.id, LEAGUE)).id

    async def rounds(self) -> list[RoundRecord]:
        return await self.store.rounds(await self.league_id())

    async def tables(self, number: int) -> list[TableRecord]:
        round_ = next(r for r in await self.rounds() if r.number == number)
        return await self.store.round_tables(round_.id)

    async def post(self, what: str, test: str) -> Message:
        """The newest message of the league's channel containing ``test``."""
        return await self.s.wait_until(
            lambda: next((m for m in reversed(self.s.channel_messages(self.t.channel))
                          if test in m.text), None), WAIT, what)

    async def check_in(self, post: Message, names: tuple[str, ...]) -> None:
        for name in names:
            r = await self.s.click(self.t.members[name], post, custom_id(post, "tabula:checkin:"))
            assert "checked in" in (await self.t.reply(r, 2)).text

    def thread(self, record: TableRecord) -> object:
        return next(c for c in self.t.guild.threads if c.id == record.channel_id)

    async def seated(self, record: TableRecord) -> list[int]:
        return [s.member_id for s in await self.store.seats(record.id) if s.member_id]

    def name(self, member_id: int) -> str:
        return next(n for n, m in self.t.members.items() if m.user.id == member_id)

    async def waiting(self, record: TableRecord) -> set[int]:
        status = await self.t.bot.tables.status(record.id)
        return set(status.next_members) & set(await self.seated(record))

    async def until(self, when: datetime) -> None:
        """The clock moved to ``when`` and the bot's next tick run."""
        self.clock.advance(max(0.0, (when - self.clock.now()).total_seconds()))
        await self.t.bot.tick()


async def test_a_season_of_automatic_rounds_with_check_in_runs_itself(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "harvest.db", names=NAMES) as t:
        s, clock = t.standin, FakeClock()
        t.bot.scheduler.clock = clock
        season = Season(t, clock)
        admin = t.members["admin"]
        rng = Rng("harvest")
        r = await s.slash(admin, t.channel, "league-admin create",
                          {"name": LEAGUE, "game": "palatinus", "largest": 2})
        await t.reply(r)
        r = await s.slash(admin, t.channel, "league-admin signups",
                          {"name": LEAGUE, "checkin": True})
        await t.reply(r)
        for name in NAMES:
            r = await s.slash(t.members[name], t.channel, "league join", {"name": LEAGUE})
            assert "signed up" in (await t.reply(r)).text

        # Round 1 opens by itself when its check-in window closes, in 12 hours; each round
        # has two days and opens the next at its deadline.
        r = await s.slash(admin, t.channel, "league-admin check-in",
                          {"name": LEAGUE, "closes_in": "12h", "deadline": "2d", "auto": True})
        window = await t.reply(r)
        closes = clock.now() + timedelta(hours=12)
        assert stamps(window.text)[0] == int(closes.timestamp())
        assert "Checked in: 0 of 6 signed up." in window.text
        post = await season.post("the check-in window", "Playing round 1 of")
        await season.check_in(post, ("ann", "ben", "cat", "dan"))
        assert "Checked in: 4 of 6 signed up." in post.text
        await season.until(closes)
        summary = await season.post("round 1's summary", "Round 1 of **Harvest**")
        assert "did not check in: eve, fay" in summary.text.lower(), summary.text
        ask2 = await season.post("round 2's check-in", "Playing round 2 of")
        (round1,) = await season.rounds()
        assert round1.deadline is not None and round1.auto_next
        deadline1 = datetime.fromisoformat(round1.deadline)
        assert stamps(ask2.text)[0] == int(deadline1.timestamp())

        # Round 1: one table played out; at the other an organiser replaces a member with
        # no fault (eve, who did not check in, is free to play).
        first, second = await season.tables(1)
        thread = season.thread(second)
        greeting = next(m for m in s.channel_messages(thread) if "Good luck" in m.text)
        assert stamps(greeting.text)[0] == int(deadline1.timestamp())  # the round's end
        leaver = (await season.seated(second))[1]
        r = await s.slash(admin, thread, "game substitute",
                          {"seat": 2, "member": t.members["eve"], "no_fault": True})
        assert "with no fault" in (await t.reply(r)).text
        await s.wait_until(lambda: any("No fault" in m.text
                                       for m in s.channel_messages(thread)), WAIT,
                           "the no-fault hand-over in the thread")
        for record in (first, second):
            await play_to_the_end(t, record.id, rng, clock)
        # Five check in for round 2 (eve does not): two tables, one member sits out.
        await season.check_in(ask2, ("ann", "ben", "cat", "dan", "fay"))
        await season.until(deadline1)
        summary = await season.post("round 2's summary", "Round 2 of **Harvest**")
        assert "did not check in: eve\n" in summary.text.lower(), summary.text
        ask3 = await season.post("round 3's check-in", "Playing round 3 of")

        # Round 2: one table under a one-hour pace with a vote when time runs out; the
        # table votes for a substitute and the member sitting out takes the seat.
        voting, stalled = await season.tables(2)
        thread = season.thread(voting)
        sitting = ({t.members[n].user.id for n in ("ann", "ben", "cat", "dan", "fay")}
                   - set(await season.seated(voting)) - set(await season.seated(stalled)))
        (resting,) = sitting
        r = await s.slash(admin, thread, "game pace", {"pace": "fast"})
        await t.reply(r)
        r = await s.slash(admin, thread, "game out-of-time", {"policy": "vote"})
        await t.reply(r)
        (silent,) = await season.waiting(voting)
        (voter,) = set(await season.seated(voting)) - {silent}
        clock.advance(3600)
        await t.bot.tick()
        ask = await s.wait_until(
            lambda: next((m for m in s.channel_messages(thread)
                          if "what should the table do" in m.text), None), WAIT, "the vote")
        assert f"<@{voter}>" in ask.text and stamps(ask.text)  # the vote's end, shown
        r = await s.click(t.members[season.name(voter)], ask,
                          custom_id(ask, "tabula:vote:substitute:"))
        await r.wait_callback()
        offer = await s.wait_until(
            lambda: next((m for m in s.channel_messages(thread)
                          if "looks for a substitute" in m.text and m.components), None),
            WAIT, "the seat offered")
        r = await s.click(t.members[season.name(resting)], offer,
                          custom_id(offer, "tabula:seek:"))
        assert "now belongs to" in (await t.reply(r)).text
        assert resting in await season.seated(voting)
        await play_to_the_end(t, voting.id, rng, clock)
        # Four check in for round 3; the organiser then closes round 2 by force: its
        # stalled table is settled (the seat it waits for forfeits) and round 3 opens with
        # a day, opening the next at its deadline.
        await season.check_in(ask3, ("ann", "ben", "cat", "dan"))
        late = await season.waiting(stalled)
        r = await s.slash(admin, t.channel, "league-admin round",
                          {"name": LEAGUE, "force": True, "deadline": "1d", "auto": True})
        assert "Round 3" in (await t.reply(r)).text
        closed = season.thread(stalled)
        told = await s.wait_until(
            lambda: next((m.text for m in s.channel_messages(closed)
                          if "closed round 2" in m.text), None), WAIT,
            "the forced close in the stalled table's thread")
        assert all(season.name(m).capitalize() in told or season.name(m) in told
                   for m in late) and "forfeit" in told, told
        ask4 = await season.post("round 4's check-in", "Playing round 4 of")

        # Round 3: one table played out, the other stalls. An hour before the deadline the
        # members it waits for hear of it: by DM, or in the thread once Discord refuses a
        # member's DMs.
        await t.bot.tick()  # the running bot's next tick, seconds after the round opened
        played, stuck = await season.tables(3)
        await play_to_the_end(t, played.id, rng, clock)
        waiting = await season.waiting(stuck)
        refusing = sorted(waiting)[0]
        t.members[season.name(refusing)].user.dms_open = False
        round3 = next(r_ for r_ in await season.rounds() if r_.number == 3)
        deadline3 = datetime.fromisoformat(round3.deadline or "")
        await season.until(deadline3 - timedelta(minutes=50))
        stuck_thread = season.thread(stuck)
        mention = await s.wait_until(
            lambda: next((m for m in s.channel_messages(stuck_thread)
                          if f"<@{refusing}>" in m.text and " ends <t:" in m.text),
                         None), WAIT, "the reminder by mention")
        assert stamps(mention.text)[0] == int(deadline3.timestamp())
        for member_id in waiting - {refusing}:
            dm = await s.wait_until(
                lambda m=member_id: next((x for x in s.dms(t.members[season.name(m)])
                                          if " ends <t:" in x.text), None), WAIT,
                "the reminder by DM")
            assert stamps(dm.text)[0] == int(deadline3.timestamp())
        # Nobody checks in for round 4: at round 3's deadline its stalled table is settled,
        # the league's channel hears it, and the organisers hear why round 4 did not open.
        assert stamps(ask4.text)[0] == int(deadline3.timestamp())
        await season.until(deadline3 + timedelta(minutes=1))
        heard = await season.post("round 3's deadline summary", "its unfinished tables ended")
        assert f"<#{stuck.channel_id}>" in heard.text
        why = await season.post("why round 4 did not open", "could not open")
        assert "Not enough members checked in" in why.text

        # Every table settled, every round closed, ratings equal a recomputation.
        rounds = await season.rounds()
        assert [r_.number for r_ in rounds] == [1, 2, 3] and not any(r_.open for r_ in rounds)
        for r_ in rounds:
            for record in await season.store.round_tables(r_.id):
                assert record.status in (Status.OVER, Status.ABANDONED), record
        results = await season.store.league_results(await season.league_id())
        assert len(results) == 6  # two tables a round, each with its result
        by_table = {x.table_id: x for x in results}
        # The member replaced with no fault is in no result of theirs; the substitute
        # neither; the voted-out member forfeits.
        assert leaver not in {p.member_id for p in by_table[second.id].places}
        assert t.members["eve"].user.id not in {p.member_id for p in by_table[second.id].places}
        assert {p.member_id for p in by_table[voting.id].places if p.forfeited} == {silent}
        stored = await season.store.all_ratings()
        scope = all_time(t.guild.id, "palatinus")
        mine = {m: (x.mu, x.sigma) for (sc, m), x in stored.items() if sc == scope}
        again = recomputed(sorted(results, key=lambda x: x.id or 0))
        assert mine.keys() == again.keys()
        for member_id, (mu, sigma) in again.items():
            assert mine[member_id] == pytest.approx((mu, sigma), abs=1e-9), member_id
        assert standin.violations == []
