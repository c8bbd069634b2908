"""Votes on a seat out of time as members see them (the real bot on the stand-in, a fake
clock): a substitute sought by a vote is offered with a button anyone may press,
``/game status`` shows an open vote with its count, and after Discord refused a member's DMs
none is tried again until they act."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import WAIT, table
from tests.e2e.test_bot_async_holidays import _vote_asked
from tests.e2e.test_bot_async_seats import clocked, name_of, open_three
from tests.standin import StandIn

HOUR = 3600
NAMES = ("alice", "bob", "carol", "dave")


async def test_a_vote_for_a_substitute_offers_the_seat_with_a_button(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db", NAMES) as t:
        s = t.standin
        voters, ask = await _vote_asked(t)
        for who in voters:
            r = await s.click(t.members[who], ask, next(
                c["custom_id"] for row in ask.components for c in row["components"]
                if c["custom_id"].startswith("tabula:vote:substitute:")))
            await r.wait_callback()
        offer = await s.wait_until(
            lambda: next((m for m in t.bot_messages() if "looks for a substitute" in m.text
                          and m.components), None), WAIT, "the seat offered")
        [button] = [c for row in offer.components for c in row["components"]]
        assert button["label"] == "Take this seat"
        # A member who plays here already may not take it; one who does not, may.
        r = await s.click(t.members[voters[0]], offer, button["custom_id"])
        assert (await t.reply(r)).ephemeral
        r = await s.click(t.members["dave"], offer, button["custom_id"])
        taken = await t.reply(r)
        assert "now belongs to dave" in taken.text.lower(), taken.text
        table_ = await t.bot.tables.table_in(t.channel.id)
        seats = await t.bot.tables.seats(table_.id)
        assert t.members["dave"].id in {x.member_id for x in seats}


async def test_status_shows_a_split_vote_and_its_count(standin: StandIn, tmp_path: Path
                                                       ) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        s = t.standin
        voters, ask = await _vote_asked(t)
        silent = next(n for n in ("alice", "bob", "carol") if n not in voters)
        r = await s.click(t.members[voters[0]], ask, next(
            c["custom_id"] for row in ask.components for c in row["components"]
            if c["custom_id"].startswith("tabula:vote:remove:")))
        await r.wait_callback()
        r = await s.slash(t.members[voters[1]], t.channel, "game status")
        text = (await t.reply(r)).text
        line = next((ln for ln in text.splitlines() if silent.capitalize() in ln
                     and "vot" in ln), "")
        assert "1 of 2 voted" in line, text
        assert name_of(t, t.members[voters[0]].id) == voters[0]


async def test_after_a_refused_dm_no_dm_is_tried_until_the_member_acts(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db", closed_dms=("alice",)) as t:
        s = t.standin
        clock = clocked(t)
        await open_three(t, pace="fast")

        def refused() -> int:
            return sum(1 for e in s.error_responses if e.code == 50007)

        def mentions() -> int:
            return sum(1 for m in t.bot_messages()
                       if m.text.startswith(f"<@{t.members['alice'].id}>: Your move"))

        await s.wait_until(lambda: refused() >= 1 or None, WAIT, "her private view refused")
        for _ in range(7):  # a reminder and a deadline each hour; nobody plays
            clock.advance(HOUR - 15 * 60)
            await t.bot.tick()
            clock.advance(15 * 60)
            await t.bot.tick()
        await s.wait_until(lambda: mentions() >= 2 or None, WAIT, "reminders by mention")
        assert refused() == 1  # her private view only: Discord advises against retrying
        # She acts: the next reminder tries one DM again.
        r = await s.slash(t.members["alice"], t.channel, "game status")
        await t.reply(r)
        before = mentions()
        for _ in range(7):
            clock.advance(HOUR - 15 * 60)
            await t.bot.tick()
            clock.advance(15 * 60)
            await t.bot.tick()
        await s.wait_until(lambda: mentions() > before or None, WAIT, "a mention again")
        assert refused() == 2
