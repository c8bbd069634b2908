"""Table management through the real bot: threads, who may abandon, undo, a slow render."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.render_pool import RenderPool
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import WAIT, custom_id, mentioned_ids, table
from tests.e2e.test_bot_game import open_and_start, play_move
from tests.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")


async def test_a_table_opens_in_a_new_thread(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        r = await standin.slash(t.members["alice"], t.channel, "game new",
                                {"game": "palatinus", "thread": True})
        answer = await t.reply(r)
        assert answer.ephemeral and "Table opened in" in answer.text
        lobby = next(m for m in standin.messages if m.channel.is_thread and "lobby" in m.text)
        thread = lobby.channel
        # The thread has its own table; the parent channel is still free for another.
        r = await standin.click(t.members["bob"], lobby, custom_id(lobby, "tabula:lobby:join"))
        await r.wait_callback()
        r = await standin.slash(t.members["carol"], t.channel, "game new", {"game": "palatinus"})
        assert "lobby" in (await t.reply(r)).text
        r = await standin.slash(t.members["bob"], thread, "game status")
        status = (await t.reply(r)).text.lower()
        assert "alice" in status and "bob" in status


async def test_only_the_creator_or_a_manager_may_abandon(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        await open_and_start(t)
        r = await standin.slash(t.members["bob"], t.channel, "game abandon")
        refused = await t.reply(r)
        assert refused.ephemeral and "creator or a server manager" in refused.text
        r = await standin.slash(t.members["bob"], t.channel, "game remove", {"seat": 1})
        assert "has already started" in (await t.reply(r)).text
        r = await standin.slash(t.members["admin"], t.channel, "game abandon")
        done = await t.reply(r)
        assert not done.ephemeral and "abandoned" in done.text
        r = await standin.slash(t.members["bob"], t.channel, "game new", {"game": "palatinus"})
        assert "lobby" in (await t.reply(r)).text


async def test_undo_through_discord(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db", names=("alice", "bob")) as t:
        s = t.standin
        r = await s.slash(t.members["alice"], t.channel, "game new",
                          {"game": "palatinus", "seating": "join"})
        lobby = (await t.reply(r)).message
        assert lobby is not None
        await (await s.click(t.members["bob"], lobby,
                             custom_id(lobby, "tabula:lobby:join"))).wait_callback()
        lobby = s.channel_messages(t.channel)[0]
        await (await s.click(t.members["alice"], lobby,
                             custom_id(lobby, "tabula:lobby:start"))).wait_callback()
        board = await t.next_board(0)
        rng = Rng("undo")
        by_id = {m.id: m for m in t.members.values()}
        # Play until a move can be taken back (laying a drawn tile cannot; a placement can).
        for _ in range(60):
            mover = by_id[mentioned_ids(board)[0]]
            other = next(m for m in by_id.values()
                         if m.id != mover.id and m.name.lower() in ("alice", "bob"))
            board = await play_move(t, board, rng, 1)
            r = await s.slash(other, t.channel, "undo")
            assert "your own last move" in (await t.reply(r)).text
            before = len(t.boards())
            r = await s.slash(mover, t.channel, "undo")
            answer = await t.reply(r)
            if "cannot be undone" in answer.text:
                continue
            assert "Done" in answer.text, answer.text
            undone = await t.next_board(before)
            assert "took back" in undone.text
            assert mentioned_ids(undone) == [mover.id]
            break
        else:
            pytest.fail("no move could be taken back")


async def test_a_slow_render_still_answers_within_three_seconds(
    standin: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = RenderPool.card

    async def slow(self: RenderPool, game_id: str, view: Any, **kw: Any) -> Any:
        await asyncio.sleep(3.5)  # longer than Discord waits for a first answer
        return await real(self, game_id, view, **kw)

    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t)
        monkeypatch.setattr(RenderPool, "card", slow)
        mover = next(m for m in t.members.values() if m.id == mentioned_ids(board)[0])
        choices = await standin.autocomplete(mover, t.channel, "move", {"action": ""},
                                             focused="action")
        r = await standin.slash(mover, t.channel, "move", {"action": choices[0].value})
        preview = await r.wait_reply(WAIT)
        assert "Preview" in preview.text
        assert standin.violations == []
