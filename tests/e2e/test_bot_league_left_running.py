"""A league an organiser leaves running, through the stand-in: every organisers' command
refuses a member who may not run leagues for that reason first; standings pages, a lowered
cap, a league of one table size and a fixed-offset time zone are each said plainly."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rules import GAMES
from tests.e2e.harness import Table, table
from tests.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

NAMES = ("ann", "ben", "cat", "gus")
NOT_ORGANISER = "Only a server manager or the server's league-admin role"


async def test_every_organisers_command_refuses_a_non_organiser_first(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        s = t.standin
        gus = t.members["gus"]
        # A server's managers may let everyone see /league-admin (Integrations settings);
        # the rights are still the bot's to check.
        for scope in s.world.commands.scopes.values():
            for command in scope:
                if command["name"] == "league-admin":
                    command["default_member_permissions"] = None
        asked: list[tuple[str, dict[str, Any]]] = [
            ("create", {"name": "Mine", "game": "palatinus", "smallest": 6, "largest": 2}),
            ("close", {"name": "Nope"}), ("pace", {"name": "Nope", "pace": "custom"}),
            ("season start", {"name": "Nope"}), ("season end", {"name": "Nope"}),
            ("signups", {"name": "Nope", "cap": 3}), ("check-in", {"name": "Nope"}),
            ("round", {"name": "Nope", "deadline": "1y"}),
            ("void", {"name": "Nope", "result": 1, "reason": "x"}),
            ("correct", {"name": "Nope", "result": 1, "member": t.members["ann"], "place": 1,
                         "reason": "x"}),
        ]
        for sub, options in asked:
            r = await s.slash(gus, t.channel, f"league-admin {sub}", options)
            answer = await t.reply(r)
            assert NOT_ORGANISER in answer.text, (sub, answer.text)
            assert answer.ephemeral
        r = await s.slash(gus, t.channel, "league-admin admin-role")
        assert "Only a server manager can choose" in (await t.reply(r)).text


async def spring(t: Table, *members: str) -> None:
    """The admin creates Spring (tables of exactly two); ``members`` sign up."""
    s = t.standin
    r = await s.slash(t.members["admin"], t.channel, "league-admin create",
                      {"name": "Spring", "game": "palatinus", "smallest": 2, "largest": 2})
    await t.reply(r)
    for name in members:
        r = await s.slash(t.members[name], t.channel, "league join", {"name": "Spring"})
        await t.reply(r)


async def test_a_table_of_one_size_says_so(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        await spring(t, "ann")
        r = await t.standin.slash(t.members["admin"], t.channel, "league-admin round",
                                  {"name": "Spring"})
        assert "needs 2 seats)" in (await t.reply(r)).text


async def test_a_cap_below_the_signed_up_warns(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        await spring(t, "ann", "ben", "cat")
        r = await t.standin.slash(t.members["admin"], t.channel, "league-admin signups",
                                  {"name": "Spring", "cap": 2})
        assert "3 members are signed up already" in (await t.reply(r)).text


async def test_a_page_past_the_last_and_a_league_without_seasons(standin: StandIn,
                                                                 tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        s = t.standin
        await spring(t, "ann", "ben")
        r = await s.slash(t.members["ann"], t.channel, "league standings",
                          {"name": "Spring", "page": 3})
        answer = await t.reply(r)
        assert "only 1 page" in answer.text and answer.ephemeral
        r = await s.slash(t.members["ann"], t.channel, "league standings", {"name": "Spring"})
        title = (await t.reply(r)).text.splitlines()[0]
        assert "**Spring**" in title and "all-time" not in title


async def test_a_fixed_offset_zone_is_taken_with_a_city_suggested(standin: StandIn,
                                                                  tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        r = await t.standin.slash(t.members["ann"], t.channel, "settings",
                                  {"timezone": "EST"})
        said = (await t.reply(r)).text
        assert "Time zone: EST" in said and "America/New_York" in said


async def test_game_status_at_a_round_table_shows_the_rounds_deadline(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "league.db", names=NAMES) as t:
        s = t.standin
        await spring(t, "ann", "ben")
        r = await s.slash(t.members["admin"], t.channel, "league-admin round",
                          {"name": "Spring", "deadline": "3d"})
        summary = (await t.reply(r)).text
        [thread] = t.guild.threads
        r = await s.slash(t.members["ann"], thread, "game status")
        status = (await t.reply(r)).text
        shown = re.search(r"<t:(\d+):f>", summary)
        assert shown is not None and "Round 1 ends" in status, status
        assert f"<t:{shown.group(1)}:f>" in status
