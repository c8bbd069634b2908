"""The terminal table plays every game to the end, typed move by move at its prompt."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

from bot.local import LOCAL_CHANNEL, legal_text, play_at_terminal
from bot.store import SqliteStore
from rendering import has_renderer
from rules import GAMES
from rules.core import Rng

MAX_PROMPTS = 4000


async def run_local(*args: Any, **kwargs: Any) -> int:
    """The terminal table as the command line runs it, its loop on a thread of its own."""
    return await asyncio.to_thread(play_at_terminal, *args, **kwargs)


class Typist:
    """Answers the prompt like a player: asks for `legal`, then types a move listed (when
    `legal` groups many moves by kind, asks for one kind first)."""

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
        if listed and "by kind; legal WORD lists" in listed[0]:
            kinds = [line.split()[0] for line in listed[1:]]
            self.asked = True
            self.mark = len(self.out.getvalue())
            return f"legal {'move' if 'move' in kinds else self.rng.choice(kinds)}"
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


def test_legal_groups_many_moves_by_kind_and_lists_one_kind_on_asking() -> None:
    moves = [f"police c{n}" for n in range(1, 41)] + ["keep"] + [
        f"move e{n} cost 3 exact" for n in range(1, 30)]
    grouped = legal_text(moves).splitlines()
    assert grouped[0].startswith("70 legal moves, by kind; legal WORD lists")
    assert [line.split()[0] for line in grouped[1:]] == ["police", "keep", "move"]
    assert all(len(line) <= 100 for line in grouped)
    assert legal_text(moves, " keep").splitlines() == ["keep"]
    assert len(legal_text(moves, "police").splitlines()) == 40
    assert legal_text(moves[:3]).splitlines() == moves[:3]
    assert "not your turn" in legal_text([])


async def test_an_unfinished_game_is_picked_up_from_its_folder(tmp_path: Path) -> None:
    game_id = "palatinus"
    first = io.StringIO()
    code = await run_local(game_id, 2, "again", False, tmp_path, read=lambda _: "quit",
                           out=first)
    assert code == 0
    assert f"python -m bot local {game_id} --out {tmp_path} picks it up" in first.getvalue()
    again = io.StringIO()
    code = await run_local(game_id, 2, "again", False, tmp_path, read=lambda _: "quit",
                           out=again)
    said = again.getvalue()
    assert code == 0 and "Traceback" not in said
    assert "Picking up the unfinished game kept here." in said and "To act:" in said
    # Another game in that folder is refused in words, with the way to pick it up.
    other = io.StringIO()
    code = await run_local("palermo", 3, None, False, tmp_path, read=lambda _: "quit",
                           out=other)
    assert code == 2
    assert f"holds an unfinished game of Palatinus: python -m bot local {game_id}" in (
        other.getvalue())


async def test_the_terminal_shows_no_markdown_and_writes_the_replay_file(tmp_path: Path
                                                                        ) -> None:
    out = io.StringIO()
    code = await run_local("palatinus", 2, "plain", True, tmp_path, out=out)
    text = out.getvalue()
    assert code == 0 and "Game over." in text
    assert "**" not in text and "`" not in text and "/export" not in text
    replay = tmp_path / "replay.json"
    assert f"python -m rules replay {replay}" in text
    assert '"seed": "plain"' in replay.read_text()


class Script:
    """Types the given lines; ``FIRST`` stands for the first move `legal` lists (asking for
    the first kind when `legal` groups many moves by kind)."""

    FIRST = "<first legal move>"

    def __init__(self, out: io.StringIO, *lines: str) -> None:
        self.out = out
        self.lines = list(lines)
        self.mark = 0

    def __call__(self, prompt: str) -> str:
        if not self.lines:
            return "quit"
        listed = self.out.getvalue()[self.mark:].strip().splitlines()
        self.mark = len(self.out.getvalue())
        line = self.lines.pop(0)
        if line != self.FIRST:
            return line
        if listed and "by kind; legal WORD lists" in listed[0]:
            self.lines.insert(0, self.FIRST)
            return f"legal {listed[1].split()[0]}"
        return listed[0]


async def test_undo_takes_back_your_move_with_the_computers_replies(tmp_path: Path) -> None:
    out = io.StringIO()
    script = Script(out, "undo", "legal", Script.FIRST, "legal", "undo", "legal")
    # You build first in Minerva; Computer 1 builds in reply.
    code = await run_local("minerva", 2, "undo", False, tmp_path, read=script, out=out,
                           level="easy")
    text = out.getvalue()
    assert code == 0, text[-2000:]
    # Before any move there is nothing to take back, and the answer says so.
    assert "Not allowed: There is no move to take back." in text
    assert "took back a move and the reply that followed." in text
    undone = text.split("took back a move")[0].rsplit("\n", 1)[0]
    assert "Not allowed" not in undone.split("There is no move to take back.")[1]
    # The legal moves are those before your move again.
    listed = [part.split("\n  sell")[0] for part in text.split("legal moves, by kind")[1:]]
    assert len(listed) == 3 and listed[0] == listed[2] != listed[1]


async def test_undo_says_why_a_move_cannot_be_taken_back(tmp_path: Path) -> None:
    out = io.StringIO()
    # In Palatinus every opening move lays out disc tiles drawn at random.
    script = Script(out, "legal", Script.FIRST, "undo")
    code = await run_local("palatinus", 2, "undo", False, tmp_path, read=script, out=out,
                           level="easy")
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Not allowed: " in text
    refusal = text[text.rindex("Not allowed: "):].splitlines()[0]
    assert "cannot be" in refusal and "drew" in refusal
    assert "only take back your own last move" not in refusal


async def test_a_resumed_game_numbers_its_images_after_those_already_there(tmp_path: Path
                                                                          ) -> None:
    first = io.StringIO()
    await run_local("palatinus", 2, "images", False, tmp_path, read=lambda _: "quit",
                    out=first, level="easy")
    kept = {p.name: p.read_bytes() for p in tmp_path.glob("*.png")}
    assert kept
    again = io.StringIO()
    await run_local("palatinus", 2, "images", False, tmp_path, read=lambda _: "quit",
                    out=again, level="easy")
    written = [Path(line.removeprefix("[image] ")).name
               for line in again.getvalue().splitlines() if line.startswith("[image] ")]
    assert written and not set(written) & set(kept)
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.png") if p.name in kept} == kept
    assert min(int(n[:4]) for n in written) > max(int(n[:4]) for n in kept)


async def test_auto_plays_at_a_real_level_unless_told_otherwise(tmp_path: Path) -> None:
    for folder, level, said in ((tmp_path / "default", None, "easy"),
                                (tmp_path / "random", "random", "random")):
        out = io.StringIO()
        code = await run_local("hadrians-wall", 2, "level", True, folder, out=out, level=level)
        assert code == 0 and "Game over" in out.getvalue()
        assert f"Computer players take every seat, at level {said}" in out.getvalue()
        store = await SqliteStore.open(folder / "table.db")
        try:
            table = await store.latest_table(LOCAL_CHANNEL)
            assert table is not None
            assert {s.level for s in await store.seats(table.id)} == {said}
        finally:
            await store.close()
