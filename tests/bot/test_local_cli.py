"""``python -m bot local``: player counts, help, and leaving with Ctrl-C or Ctrl-D."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.local import local_main
from bot.text import plain
from rules import GAMES
from tests.bot.test_local import run_local

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_auto_at_the_maximum_player_count_plays_to_the_end(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = GAMES[game_id].max_players
    code = local_main([game_id, "--players", str(players), "--auto", "--seed", "max",
                       "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    assert "Game over" in out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_player_count_out_of_range_is_refused_with_the_range(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = GAMES[game_id]
    for players in (0, game.max_players + 1, -1):
        with pytest.raises(SystemExit) as exited:
            local_main([game_id, "--players", str(players), "--auto", "--out", str(tmp_path)])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert "--players" in err
        assert f"{game.min_players} to {game.max_players} computer players" in err
        assert "yours included" not in err
        # Refused before anything was set up: no database was made.
        assert not (tmp_path / "table.db").exists()


def lines(*typed: str) -> Iterator[str]:
    yield from typed


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_help_shows_the_games_notation_and_the_commands(game_id: str, tmp_path: Path
                                                              ) -> None:
    out = io.StringIO()
    typed = lines("help", "quit")
    code = await run_local(game_id, None, "help", False, tmp_path,
                           read=lambda prompt: next(typed), out=out)
    assert code == 0
    text = out.getvalue()
    help_part = text[text.rindex(plain(GAMES[game_id].rules_summary())):]
    assert "legal" in help_part and "quit" in help_part


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


async def _start_at_prompt(tmp_path: Path) -> tuple[asyncio.subprocess.Process, bytes]:
    """The terminal table in its own process, waiting at its first prompt."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "local", "palatinus", "--players", "2", "--seed", "sig",
        "--out", str(tmp_path / "out"), cwd=tmp_path, env=_env(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    seen = b""

    async def until_prompt() -> None:
        nonlocal seen
        assert proc.stdout is not None
        while not seen.endswith(b"> "):
            chunk = await proc.stdout.read(4096)
            if not chunk:
                raise AssertionError(f"no prompt: {seen.decode()[-2000:]}")
            seen += chunk

    await asyncio.wait_for(until_prompt(), WAIT)
    return proc, seen


async def _finish(proc: asyncio.subprocess.Process) -> tuple[int, str, str]:
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 15)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("the terminal table did not quit") from None
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_ctrl_c_at_the_prompt_quits_at_once_without_a_traceback(tmp_path: Path) -> None:
    proc, _ = await _start_at_prompt(tmp_path)
    proc.send_signal(signal.SIGINT)
    code, out, err = await _finish(proc)
    assert "Traceback" not in err and "Traceback" not in out
    assert err.strip() == ""
    assert code == 130
    assert "Left the table" in out


async def test_end_of_input_quits_cleanly(tmp_path: Path) -> None:
    proc, _ = await _start_at_prompt(tmp_path)
    assert proc.stdin is not None
    proc.stdin.close()
    code, out, err = await _finish(proc)
    assert code == 0
    assert err.strip() == ""
    assert "Left the table" in out


async def test_the_same_out_folder_twice_picks_the_game_up_without_a_traceback(
        tmp_path: Path) -> None:
    for _ in range(2):
        proc, seen = await _start_at_prompt(tmp_path)
        assert proc.stdin is not None
        proc.stdin.close()
        code, out, err = await _finish(proc)
        assert code == 0 and err.strip() == "" and "Traceback" not in out
        assert f"--out {tmp_path / 'out'} picks it up where you left it" in out
    assert "Picking up the unfinished game kept here." in seen.decode()
