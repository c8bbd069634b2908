"""Hadrian's Wall for three members through Discord, partly played from DMs: simultaneous
turns, the secret path choice, the DM's buttons, and the channel kept free of secrets."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import GAMES
from rules.core import Rng
from tests.e2e.cards import assert_dm_reads_short, assert_one_card
from tests.e2e.harness import WAIT, Table, custom_id, mentioned_ids, table
from tests.e2e.test_bot_game import PNG
from tests.standin import Member, Message, StandIn

pytestmark = pytest.mark.skipif("hadrians-wall" not in GAMES, reason="needs Hadrian's Wall")

MAX_MOVES = 3000


async def start_three(t: Table) -> Message:
    s = t.standin
    r = await s.slash(t.members["alice"], t.channel, "game new",
                      {"game": "hadrians-wall", "players": 3, "seating": "join"})
    lobby = (await t.reply(r)).message
    assert lobby is not None
    for name in ("bob", "carol"):
        await (await s.click(t.members[name], lobby,
                             custom_id(lobby, "tabula:lobby:join"))).wait_callback()
        lobby = s.channel_messages(t.channel)[0]
    await (await s.click(t.members["alice"], lobby,
                         custom_id(lobby, "tabula:lobby:start"))).wait_callback()
    return await t.next_board(0)


async def move_from_dm(t: Table, member: Member, rng: Rng) -> None:
    """Act from the DM: by the DM's "My moves" button and its menu when it has one,
    else with /move typed in the DM."""
    s = t.standin
    dm = s.dm_channel(member)
    # The board reaches the channel first; the DMs follow it.
    await s.wait_until(lambda: s.dms(member), WAIT, "a DM to the player")
    latest = s.dms(member)[-1]
    moves_id = next((c for c in latest.custom_ids() if c.startswith("tabula:board:moves")), None)
    if moves_id is not None and rng.randbelow(2) == 0:
        r = await s.click(member, latest, moves_id)
        menu = await r.wait_reply(WAIT)
        if menu.message is not None and menu.message.custom_ids():
            pick_id = custom_id(menu.message, "tabula:pick")
            options = menu.message.find_component(pick_id)["options"]  # type: ignore[index]
            value = options[rng.randbelow(len(options))]["value"]
            r = await s.select(member, menu.message, pick_id, [value])
            preview = await r.wait_reply(WAIT)
            if preview.message is not None and preview.message.custom_ids():
                r = await s.click(member, preview.message,
                                  custom_id(preview.message, "tabula:confirm:ok"))
                await r.wait_callback(WAIT)
                return
    choices = await s.autocomplete(member, dm, "move", {"action": ""}, focused="action")
    assert 1 <= len(choices) <= 25
    r = await s.slash(member, dm, "move",
                      {"action": choices[rng.randbelow(len(choices))].value, "confirm": True})
    done = await r.wait_reply(WAIT)
    assert "Done" in done.text, done.text


async def move_in_channel(t: Table, member: Member, rng: Rng) -> None:
    s = t.standin
    choices = await s.autocomplete(member, t.channel, "move", {"action": ""}, focused="action")
    assert 1 <= len(choices) <= 25
    r = await s.slash(member, t.channel, "move",
                      {"action": choices[rng.randbelow(len(choices))].value, "confirm": True})
    done = await r.wait_reply(WAIT)
    assert "Done" in done.text, done.text


async def test_three_players_through_channel_and_dms(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "hw.db") as t:
        board = await start_three(t)
        by_id = {m.id: m for m in t.members.values()}
        rng = Rng("hw-e2e")
        from_dm = 0
        for step in range(MAX_MOVES):
            if "Game over" in board.text:
                break
            ids = mentioned_ids(board)
            assert ids, board.text
            member = by_id[ids[rng.randbelow(len(ids))]]
            before = len(t.boards())
            if step % 2:
                await move_from_dm(t, member, rng)
                from_dm += 1
            else:
                await move_in_channel(t, member, rng)
            board = await t.next_board(before)
        assert "Game over" in board.text
        assert from_dm > 10
        # Simultaneous play: some board asked several members at once.
        assert any(len(mentioned_ids(b)) > 1 for b in t.boards())
        for name in ("alice", "bob", "carol"):
            dms = standin.dms(t.members[name])
            assert any(a.data.startswith(PNG) for m in dms for a in m.attachments)
            # A DM after a move is one card with one image; the sheets' parts are a click
            # away (a detail button each), never stacked in the DM; its own words are few.
            for m in dms:
                if any(a.data.startswith(PNG) for a in m.attachments):
                    assert_one_card(m)
                    assert_dm_reads_short(m)
                    assert len(m.attachments) == 1
                    assert [c for c in m.custom_ids() if c.startswith("tabula:detail:")]
        # The path choice never shows in the channel before the reveal.
        for message in t.bot_messages():
            assert "choose path" not in message.text.lower()
        assert standin.violations == []
        assert standin.unhandled == []
