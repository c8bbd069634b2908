"""Starting and stopping ``python -m bot``: SIGTERM (``docker stop``) and SIGINT close the bot,
its render pool and its database and exit 0; no network, a refused token or a database folder
that does not exist give one line, not a traceback. In-flight work finishes before closing."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import mentioned_ids, table
from tests.e2e.test_bot_game import open_and_start
from tests.process_groups import kill_group, reap_async
from tests.standin import StandIn

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0


def bot_env(db: Path, extra: dict[str, str]) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("DISCORD", "TABULA", "LOG_LEVEL"))}
    return {**base, "TABULA_DB": str(db), "PYTHONPATH": str(ROOT), **extra}


async def start_bot(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True,
    )


async def finish(proc: asyncio.subprocess.Process, timeout: float = WAIT) -> tuple[int, str]:
    """The exit code and everything the process printed (stdout, then stderr)."""
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        kill_group(proc.pid)
        out, err = await proc.communicate()
        raise AssertionError(f"still running after {timeout} s:\n{err.decode()[-3000:]}"
                             ) from None
    finally:
        await reap_async(proc)  # its workers too, whatever happened
    assert proc.returncode is not None
    return proc.returncode, out.decode() + err.decode()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_closes_the_bot_and_its_database(
    sig: signal.Signals, standin: StandIn, tmp_path: Path
) -> None:
    guild = standin.add_guild("Board Games")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice")
    db = tmp_path / "proc.db"
    proc = await start_bot(bot_env(db, {**standin.env, "TABULA_DEV_GUILD": str(guild.id)}),
                           tmp_path)
    try:
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move", "help"))
        r = await standin.slash(alice, channel, "game new", {"game": "palatinus"})
        await r.wait_replies(1, WAIT)
        proc.send_signal(sig)
        code, printed = await finish(proc)
    finally:
        await reap_async(proc)
    assert code == 0, printed[-3000:]
    assert "Traceback" not in printed, printed[-3000:]
    assert "closed the store" in printed
    # The last connection closed cleanly: SQLite checkpointed the WAL and removed it.
    assert not Path(f"{db}-wal").exists()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT count(*) FROM game_tables").fetchone()[0] == 1
    conn.close()
    assert standin.violations == []


def error_lines(printed: str) -> list[str]:
    return [line for line in printed.splitlines() if line.strip()]


async def test_no_network_says_discord_could_not_be_reached(tmp_path: Path) -> None:
    env = bot_env(tmp_path / "t.db", {
        "DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://nonexistent.invalid/api/v10",
        "DISCORD_GATEWAY_URL": "ws://nonexistent.invalid/",
    })
    code, printed = await finish(await start_bot(env, tmp_path), 60)
    assert code != 0
    assert "Traceback" not in printed
    lines = error_lines(printed)
    assert len(lines) <= 2, printed
    assert "could not reach discord" in lines[-1].lower()


async def test_a_refused_token_is_one_line(standin: StandIn, tmp_path: Path) -> None:
    env = bot_env(tmp_path / "t.db", {**standin.env, "DISCORD_TOKEN": "not-the-token"})
    code, printed = await finish(await start_bot(env, tmp_path))
    assert code != 0
    assert "Traceback" not in printed
    lines = error_lines(printed)
    assert len(lines) <= 2, printed
    assert "DISCORD_TOKEN" in lines[-1]


async def test_a_database_folder_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "missing" / "tabula.db"
    env = bot_env(db, {"DISCORD_TOKEN": "x",
                       "DISCORD_API_BASE": "http://nonexistent.invalid/api/v10"})
    code, printed = await finish(await start_bot(env, tmp_path))
    assert code != 0
    assert error_lines(printed) == [
        f"TABULA_DB: the folder {db.parent} does not exist (for {db})."
    ]


async def test_closing_lets_a_move_in_flight_finish(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t)
        mover = next(m for m in t.members.values() if m.id in mentioned_ids(board))
        choices = await standin.autocomplete(mover, t.channel, "move", {"action": ""},
                                             focused="action")
        before = len(t.boards())
        r = await standin.slash(mover, t.channel, "move",
                                {"action": choices[0].value, "confirm": True})
        await r.wait_callback(WAIT)
        # The move is deferred and under way: closing now must let it finish.
        await asyncio.wait_for(t.bot.close(), WAIT)
        assert len(t.boards()) > before
        done = await r.wait_replies(1, 1)
        assert "Done" in done[0].text
    assert standin.violations == []



async def test_a_database_that_cannot_be_opened_is_one_line(standin: StandIn, tmp_path: Path
                                                           ) -> None:
    db = tmp_path / "bad.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    code, printed = await finish(await start_bot(bot_env(db, standin.env), tmp_path))
    assert code != 0
    assert "Traceback" not in printed
    lines = error_lines(printed)
    assert len(lines) <= 2, printed
    assert f"Could not open the database {db}" in lines[-1]
