"""The terminal table plays every game to the end, typed move by move at its prompt."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.local import run_local
from rendering import has_renderer
from rules import GAMES
from rules.core import Rng

MAX_PROMPTS = 4000


class Typist:
    """Answers the prompt like a player: asks for `legal`, then types a move listed."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.mark = 0
        self.asked = False
        self.prompts = 0
        self.rng = Rng("typist")

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        if self.prompts > MAX_PROMPTS:
            return "quit"
        if not self.asked:
            self.asked = True
            self.mark = len(self.out.getvalue())
            return "legal"
        self.asked = False
        listed = self.out.getvalue()[self.mark:].strip().splitlines()
        # Palermo pawns head home or to a business when they can, as a player would.
        for word in (" home", " business"):
            wanted = [line for line in listed if line.endswith(word)]
            if wanted:
                return wanted[0]
        return self.rng.choice(listed) if listed else "board"


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_the_terminal_table_plays_a_whole_game(game_id: str, tmp_path: Path) -> None:
    out = io.StringIO()
    typist = Typist(out)
    game = GAMES[game_id]
    code = await run_local(game_id, game.min_players + 1 if game.max_players > 2 else 2,
                           "local-test", False, tmp_path, read=typist, out=out)
    text = out.getvalue()
    assert code == 0
    assert "Game over" in text, text[-2000:]
    assert typist.prompts < MAX_PROMPTS
    if has_renderer(game_id):
        images = sorted(tmp_path.glob("*.png"))
        assert len(images) > 2
        assert all(p.read_bytes().startswith(b"\x89PNG") for p in images)


async def test_auto_plays_computer_seats_to_the_outcome(tmp_path: Path) -> None:
    out = io.StringIO()
    game_id = sorted(GAMES)[0]
    code = await run_local(game_id, None, "auto", True, tmp_path, out=out)
    assert code == 0 and "Game over" in out.getvalue()
