"""A whole game of Palatinus played through the real bot: slash commands, autocomplete, the
preview with Confirm, buttons, boards in the channel, mentions, and DMs with PNGs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rendering import has_renderer
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import Table, custom_id, mentioned_ids, table
from tests.e2e.standin import Message, StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

PNG = b"\x89PNG\r\n\x1a\n"
MAX_MOVES = 1500


async def open_and_start(t: Table, game: str = "palatinus") -> Message:
    """alice opens, bob joins by button, alice adds a computer by command and starts by button;
    returns the first board."""
    s = t.standin
    r = await s.slash(t.members["alice"], t.channel, "game new",
                      {"game": game, "players": 3, "seating": "join"})
    lobby = (await t.reply(r)).message
    assert lobby is not None and "lobby" in lobby.content
    r = await s.click(t.members["bob"], lobby, custom_id(lobby, "tabula:lobby:join"))
    await r.wait_callback()
    r = await s.slash(t.members["alice"], t.channel, "game add-bot", {"level": "random"})
    assert "Computer 1" in (await t.reply(r)).content
    lobby = s.channel_messages(t.channel)[0]
    r = await s.click(t.members["alice"], lobby, custom_id(lobby, "tabula:lobby:start"))
    await r.wait_callback()
    return await t.next_board(0)


async def play_move(t: Table, board: Message, rng: Rng, step: int) -> Message:
    """Whoever the board mentions picks a move from autocomplete and plays it, by the preview
    and its Confirm button on even steps and with confirm:true on odd ones."""
    s = t.standin
    by_id = {m.id: m for m in t.members.values()}
    ids = mentioned_ids(board)
    assert ids, f"a mention of who acts next expected: {board.content!r}"
    member = by_id[ids[rng.randbelow(len(ids))]]
    choices = []
    # Like a player who types what they want: Palermo pawns head home or to a business when
    # they can (uniformly random walks make very long games), anything else as offered.
    for typed in ("home", "business", ""):
        choices = await s.autocomplete(member, t.channel, "move", {"action": typed},
                                       focused="action")
        assert len(choices) <= 25
        if choices:
            break
    assert choices
    move = choices[rng.randbelow(len(choices))].value
    before = len(t.boards())
    if step % 2:
        r = await s.slash(member, t.channel, "move", {"action": move, "confirm": True})
        done = await t.reply(r)
        assert done.ephemeral and "Done" in done.content
    else:
        r = await s.slash(member, t.channel, "move", {"action": move})
        preview = await t.reply(r)
        assert preview.ephemeral and "Preview" in preview.content
        assert preview.attachments and preview.attachments[0].data.startswith(PNG)
        assert preview.message is not None
        r = await s.click(member, preview.message,
                          custom_id(preview.message, "tabula:confirm:ok"))
        await r.wait_callback()
    return await t.next_board(before)


@pytest.mark.parametrize("game", sorted(g for g in GAMES if has_renderer(g)))
async def test_a_full_game_through_discord(game: str, standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t, game)
        rng = Rng("e2e")
        for step in range(MAX_MOVES):
            if "Game over" in board.content:
                break
            board = await play_move(t, board, rng, step)
        assert "Game over" in board.content
        assert "secret seed was" in board.content
        boards = t.boards()
        assert len(boards) > 3
        for message in boards:
            image = next(a for a in message.attachments if a.filename == "board.png")
            assert image.data.startswith(PNG) and image.description
            assert len(message.content) <= 2000
        # The finished board mentions nobody and offers no buttons.
        assert mentioned_ids(boards[-1]) == [] and boards[-1].custom_ids() == []
        # No engine placeholder ever reaches a player.
        for message in t.bot_messages():
            assert "{p" not in message.content, message.content
            assert all("{p" not in (a.description or "") for a in message.attachments)
        for name in ("alice", "bob"):
            dms = standin.dms(t.members[name])
            assert dms, f"{name} got no DM"
            assert all("{p" not in m.content for m in dms)
            assert all(any(a.data.startswith(PNG) for a in m.attachments) for m in dms)
        assert standin.violations == []
        assert standin.unhandled == []


async def test_history_and_export_after_some_moves(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t)
        rng = Rng("hist")
        for step in range(3):
            board = await play_move(t, board, rng, step)
        r = await standin.slash(t.members["bob"], t.channel, "history")
        history = await t.reply(r)
        assert history.ephemeral and history.content.startswith("1. ")
        r = await standin.slash(t.members["bob"], t.channel, "export")
        export = await t.reply(r)
        assert export.attachments and b'"seed": null' in export.attachments[0].data
        r = await standin.slash(t.members["bob"], t.channel, "rules", {"game": "palatinus"})
        said = (await t.reply(r)).content
        assert "Setup: the standard rules." in said and '": ' not in said
        assert standin.violations == []
