"""A league through Discord: a manager creates it, a game counts for it, standings follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import custom_id, table
from tests.e2e.standin import StandIn
from tests.e2e.test_bot_game import play_move

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")


async def test_a_league_game_shows_in_the_standings(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "league.db", names=("alice", "bob")) as t:
        s = t.standin
        r = await s.slash(t.members["alice"], t.channel, "league create",
                          {"name": "Autumn", "game": "palatinus"})
        assert "server manager" in (await t.reply(r)).content
        r = await s.slash(t.members["admin"], t.channel, "league create",
                          {"name": "Autumn", "game": "palatinus"})
        assert "is open" in (await t.reply(r)).content
        choices = await s.autocomplete(t.members["alice"], t.channel, "game new",
                                       {"game": "palatinus", "league": "aut"}, focused="league")
        assert [c.value for c in choices] == ["Autumn"]
        r = await s.slash(t.members["alice"], t.channel, "game new",
                          {"game": "palatinus", "league": "Autumn", "seating": "join"})
        lobby = (await t.reply(r)).message
        assert lobby is not None and "for the league Autumn" in lobby.content
        await (await s.click(t.members["bob"], lobby,
                             custom_id(lobby, "tabula:lobby:join"))).wait_callback()
        lobby = next(m for m in s.channel_messages(t.channel) if "lobby" in m.content)
        await (await s.click(t.members["alice"], lobby,
                             custom_id(lobby, "tabula:lobby:start"))).wait_callback()
        board = await t.next_board(0)
        rng = Rng("league")
        for step in range(400):
            if "Game over" in board.content:
                break
            board = await play_move(t, board, rng, step)
        assert "Game over" in board.content
        r = await s.slash(t.members["bob"], t.channel, "league standings", {"name": "Autumn"})
        standings = (await t.reply(r)).content
        assert "Autumn" in standings and "Alice" in standings and "Bob" in standings
        assert "(1 game," in standings
        assert standin.violations == []
