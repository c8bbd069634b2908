"""Faults through the real bot: closed DMs, strangers, double clicks, stale buttons, restarts,
unexpected errors."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.tables import Tables
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import WAIT, custom_id, mentioned_ids, running_bot, table
from tests.e2e.test_bot_game import PNG, open_and_start, play_move
from tests.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")


async def test_a_member_with_closed_dms_is_told_to_use_hand(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db", closed_dms=("bob",)) as t:
        await open_and_start(t)
        bob = t.members["bob"]
        note = await standin.wait_for_message(
            lambda m: "/hand" in m.text and f"<@{bob.id}>" in m.text, WAIT
        )
        assert "screen" not in note.text.lower()  # no private detail in the channel
        assert any(e.code == 50007 for e in standin.error_responses)
        assert standin.dms(bob) == []
        assert len(standin.dms(t.members["alice"])) == 1
        r = await standin.slash(bob, t.channel, "hand")
        hand = await t.reply(r)
        assert hand.ephemeral and hand.attachments[0].data.startswith(PNG)
        # A later move does not try the closed DMs again.
        refusals = sum(1 for e in standin.error_responses if e.code == 50007)
        board = await t.next_board(0)
        await play_move(t, board, Rng("x"), 1)
        await asyncio.sleep(0.2)
        assert sum(1 for e in standin.error_responses if e.code == 50007) == refusals
        assert standin.violations == []


async def test_a_member_without_a_seat_cannot_move(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db", names=("alice", "bob", "mallory")) as t:
        await open_and_start(t)
        mallory = t.members["mallory"]
        r = await standin.slash(mallory, t.channel, "move", {"action": "1 r0", "confirm": True})
        answer = await t.reply(r)
        assert answer.ephemeral and "do not have a seat" in answer.text
        choices = await standin.autocomplete(mallory, t.channel, "move", {"action": ""},
                                             focused="action")
        assert choices == []
        assert len(t.boards()) == 1


async def test_two_clicks_on_confirm_play_one_move(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t)
        mover = next(m for m in t.members.values() if m.id == mentioned_ids(board)[0])
        choices = await standin.autocomplete(mover, t.channel, "move", {"action": ""},
                                             focused="action")
        r = await standin.slash(mover, t.channel, "move", {"action": choices[0].value})
        preview = (await t.reply(r)).message
        assert preview is not None
        ok = custom_id(preview, "tabula:confirm:ok")
        first, second = await asyncio.gather(
            standin.click(mover, preview, ok), standin.click(mover, preview, ok)
        )
        await asyncio.gather(first.wait_replies(1, WAIT), second.wait_replies(1, WAIT))
        await t.next_board(1)
        await asyncio.sleep(0.3)
        assert len(t.boards()) == 2
        texts = [r.text for rec in (first, second) for r in rec.replies]
        assert any("already used" in text or "out of date" in text for text in texts)
        table_row = await t.bot.tables.store.live_table(t.channel.id)
        assert table_row is not None
        log = await t.bot.tables.store.actions(table_row.id)
        assert len([a for a in log if a.member_id == mover.id]) == 1
        assert standin.violations == []


async def test_a_button_on_an_old_board_is_out_of_date(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        first = await open_and_start(t)
        await play_move(t, first, Rng("y"), 1)
        mover = t.members["alice"]
        r = await standin.click(mover, first, custom_id(first, "tabula:board:moves"))
        answer = await t.reply(r)
        assert answer.ephemeral and "out of date" in answer.text


async def test_buttons_and_move_work_after_a_restart(standin: StandIn, tmp_path: Path) -> None:
    db = tmp_path / "e2e.db"
    async with table(standin, db) as t:
        board = await open_and_start(t)
        board = await play_move(t, board, Rng("z"), 1)
    # The same database, a new process-worth of bot.
    async with running_bot(standin, db) as bot:
        t.bot = bot
        mover = next(m for m in t.members.values() if m.id == mentioned_ids(board)[0])
        r = await standin.click(mover, board, custom_id(board, "tabula:board:moves"))
        answer = await t.reply(r)
        assert answer.ephemeral and "out of date" not in answer.text
        await play_move(t, board, Rng("after"), 0)
        assert standin.violations == []


async def test_an_unexpected_error_gets_an_incident_id(
    standin: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        await open_and_start(t)

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(Tables, "history", broken)
        r = await standin.slash(t.members["alice"], t.channel, "history")
        answer = await t.reply(r)
        assert answer.ephemeral and "incident" in answer.text
        assert "disk on fire" not in answer.text and "Traceback" not in answer.text
        incident = answer.text.split("`")[1]
        assert any(incident in rec.getMessage() for rec in caplog.records)
