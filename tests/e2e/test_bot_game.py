"""A whole game of each game played through the real bot: slash commands, autocomplete, the
preview with Confirm, buttons, boards in the channel, mentions, and DMs with PNGs; every text
a member read in it is scanned for words that do not belong (tests/e2e/words.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rendering import has_renderer
from rules import GAMES
from rules.core import Rng
from tests.e2e.cards import assert_dm_reads_short, assert_one_card
from tests.e2e.harness import Table, custom_id, mentioned_ids, table
from tests.e2e.words import findings, texts
from tests.standin import Message, StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

PNG = b"\x89PNG\r\n\x1a\n"
HISTORY_LINE = re.compile(r"^(\d+\. |- )")
NAMED_TWICE = re.compile(r"^\d+\. (.+?): \1\b")
MAX_MOVES = 1500


async def open_and_start(t: Table, game: str = "palatinus") -> Message:
    """alice opens, bob joins by button, alice adds a computer by command and starts by button;
    returns the first board."""
    s = t.standin
    r = await s.slash(t.members["alice"], t.channel, "game new",
                      {"game": game, "players": 3, "seating": "join"})
    lobby = (await t.reply(r)).message
    assert lobby is not None and "lobby" in lobby.text
    r = await s.click(t.members["bob"], lobby, custom_id(lobby, "tabula:lobby:join"))
    await r.wait_callback()
    r = await s.slash(t.members["alice"], t.channel, "game add-bot", {"level": "random"})
    assert "Computer 1" in (await t.reply(r)).text
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
    assert ids, f"a mention of who acts next expected: {board.text!r}"
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
        assert done.ephemeral and "Done" in done.text
    else:
        r = await s.slash(member, t.channel, "move", {"action": move})
        preview = await t.reply(r)
        assert preview.ephemeral and "Preview" in preview.text
        assert preview.attachments and preview.attachments[0].data.startswith(PNG)
        assert preview.message is not None
        r = await s.click(member, preview.message,
                          custom_id(preview.message, "tabula:confirm:ok"))
        await r.wait_callback()
    return await t.next_board(before)


async def ask(t: Table, who: str, command: str, options: dict[str, object] | None = None
              ) -> str:
    r = await t.standin.slash(t.members[who], t.channel, command, options or {})
    return str((await t.reply(r)).text)


async def asides(t: Table, game: str, board: Message, step: int) -> str | None:
    """What members do between moves besides moving: a member not on turn types a move that
    is not one (what they are told is returned), the one on turn lists their moves, and
    someone reads the history and the rules."""
    on_turn = mentioned_ids(board)
    if step == 0 and on_turn:
        who = next(m for m in t.members.values() if m.id == on_turn[0])
        listed = (await t.reply(await t.standin.slash(who, t.channel, "move", {}))).text
        # Many moves: the hint to search them is the game's own.
        assert "Pick your move" in listed or GAMES[game].moves_hint() in listed, listed
    if step == 4:
        await ask(t, "bob", "history")
        await ask(t, "alice", "rules", {"game": game})
    waiting = [t.members[n] for n in ("alice", "bob") if t.members[n].id not in on_turn]
    if step not in (1, 6) or not waiting:
        return None
    r = await t.standin.slash(waiting[0], t.channel, "move", {"action": "zz 99"})
    return str((await t.reply(r)).text)


def assert_reads_well(game: str, standin: StandIn, history: str, off_turn: list[str]) -> None:
    """Every text a member read, anywhere, is free of the words ``findings`` looks for; the
    history is one sentence a move; a move off turn is told whose turn it is."""
    seen = list(texts(standin.messages))
    bad = sorted({f"{problem} in {text[:300]!r}" for text in seen for problem in findings(text)})
    assert not bad, f"{game}:\n" + "\n".join(bad[:40])
    assert off_turn and all("It is not your turn: " in said for said in off_turn), off_turn
    for line in history.splitlines()[1 if history.startswith("Last") else 0:]:
        assert HISTORY_LINE.match(line) or line.startswith("    "), line
        # A long account (the final scoring) goes on over lines after a colon.
        assert line.rstrip().endswith((".", "!", ")", ":")), line
        assert not NAMED_TWICE.match(line), line


@pytest.mark.parametrize("game", sorted(g for g in GAMES if has_renderer(g)))
async def test_a_full_game_through_discord(game: str, standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t, game)
        rng = Rng("e2e")
        off_turn: list[str] = []
        for step in range(MAX_MOVES):
            if "Game over" in board.text:
                break
            if (said := await asides(t, game, board, step)) is not None:
                off_turn.append(said)
            board = await play_move(t, board, rng, step)
        assert "Game over" in board.text
        history = await ask(t, "bob", "history")
        assert "replays the game" in await ask(t, "bob", "export")
        assert "Setup: the standard rules." in await ask(t, "alice", "rules", {"game": game})
        assert_reads_well(game, standin, history, off_turn)
        assert "secret seed was" in board.text
        boards = t.boards()
        assert len(boards) > 3
        for message in boards:
            image = next(a for a in message.attachments if a.filename == "board.png")
            assert image.data.startswith(PNG) and image.description
        # Every post is one card with one image (a post of moves told before their board has
        # none), every DM one card with one image and few words of its own.
        for message in t.bot_messages():
            images = [a for a in message.attachments if a.data.startswith(PNG)]
            assert message.card or not images, "a post with an image, no card"
            if message.card:
                assert_one_card(message, 1 if message in boards else 0)
        assert all(m.card for m in boards)
        # The finished board mentions nobody and offers no board buttons (its details and
        # its text view stay).
        assert mentioned_ids(boards[-1]) == []
        assert not [c for c in boards[-1].custom_ids() if c.startswith("tabula:board:")]
        assert "Text view" in boards[-1].labels()
        # No engine placeholder ever reaches a player.
        for message in t.bot_messages():
            assert "{p" not in message.text, message.text
            assert all("{p" not in (a.description or "") for a in message.attachments)
        for name in ("alice", "bob"):
            dms = standin.dms(t.members[name])
            assert dms, f"{name} got no DM"
            assert all("{p" not in m.text for m in dms)
            assert all(any(a.data.startswith(PNG) for a in m.attachments) for m in dms)
            for dm in dms:
                assert dm.card or not any(a.data.startswith(PNG) for a in dm.attachments), (
                    "a DM with an image that is no card")
                if dm.card:
                    assert_one_card(dm)
                    assert_dm_reads_short(dm)
            assert any(dm.card for dm in dms)
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
        assert history.ephemeral and history.text.startswith("1. ")
        r = await standin.slash(t.members["bob"], t.channel, "export")
        export = await t.reply(r)
        assert export.attachments and b'"seed": null' in export.attachments[0].data
        r = await standin.slash(t.members["bob"], t.channel, "rules", {"game": "palatinus"})
        said = (await t.reply(r)).text
        assert "Setup: the standard rules." in said and '": ' not in said
        assert standin.violations == []
