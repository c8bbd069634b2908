"""A whole game of each game through the real bot, every text a member read scanned for
words that do not belong in Discord (terminal commands, raw options, "(s)", a number and its
noun in disagreement, "Next:" hints in recaps...)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rendering import has_renderer
from rules import GAMES
from rules.core import Rng
from tests.e2e.harness import Table, mentioned_ids, table
from tests.e2e.standin import StandIn
from tests.e2e.test_bot_game import MAX_MOVES, open_and_start, play_move
from tests.e2e.words import findings, texts

HISTORY_LINE = re.compile(r"^(\d+\. |- )")
NAMED_TWICE = re.compile(r"^\d+\. (.+?): \1\b")


async def wrong_move_off_turn(t: Table, on_turn: list[int]) -> str | None:
    """A member who is not on turn types a move that is not one; what they are told."""
    waiting = [m for m in t.members.values() if m.name != "admin" and m.id not in on_turn]
    if not waiting:
        return None
    r = await t.standin.slash(waiting[0], t.channel, "move", {"action": "zz 99"})
    return str((await t.reply(r)).content)


async def ask(t: Table, who: str, command: str, options: dict[str, object] | None = None) -> str:
    r = await t.standin.slash(t.members[who], t.channel, command, options or {})
    return str((await t.reply(r)).content)


@pytest.mark.parametrize("game", sorted(g for g in GAMES if has_renderer(g)))
async def test_every_text_of_a_whole_game_reads_well(game: str, standin: StandIn,
                                                      tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t, game)
        rng = Rng("words")
        off_turn: list[str] = []
        asked_moves = False
        for step in range(MAX_MOVES):
            if "Game over" in board.content:
                break
            on_turn = mentioned_ids(board)
            if step in (1, 6) and (said := await wrong_move_off_turn(t, on_turn)):
                off_turn.append(said)
            if not asked_moves and on_turn:
                who = next(m for m in t.members.values() if m.id == on_turn[0])
                r = await standin.slash(who, t.channel, "move", {})
                await t.reply(r)
                asked_moves = True
            if step == 4:
                await ask(t, "bob", "history")
                await ask(t, "alice", "rules", {"game": game})
            board = await play_move(t, board, rng, step)
        assert "Game over" in board.content
        history = await ask(t, "bob", "history")
        await ask(t, "bob", "export")
        await ask(t, "alice", "rules", {"game": game})
        seen = list(texts(standin.messages))
        if os.environ.get("TABULA_DUMP_TEXTS"):
            Path(os.environ["TABULA_DUMP_TEXTS"], f"{game}.txt").write_text(
                "\n=====\n".join(seen))
        bad = {f"{problem} in {text[:300]!r}" for text in seen for problem in findings(text)}
        assert not bad, "\n".join(sorted(bad)[:40])
        # Told it is not their turn, and whose it is.
        assert off_turn
        for said in off_turn:
            assert "not your turn" in said, said
        # History: one sentence per move, naming its player once.
        for line in history.splitlines()[1 if history.startswith("Last") else 0:]:
            assert HISTORY_LINE.match(line) or line.startswith("    "), line
            # A long account (the final scoring) goes on over lines after a colon.
            assert line.rstrip().endswith((".", "!", ")", ":")), line
            assert not NAMED_TWICE.match(line), line
        assert standin.violations == []
