"""``python -m bot`` as its own process, pointed at the stand-in by the environment, comes
online and answers a command; while connected it keeps a heartbeat that
``python -m bot healthcheck`` finds fresh, and a stopped bot leaves none."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from tests.process_groups import reap_async
from tests.standin import StandIn

ROOT = Path(__file__).resolve().parents[2]


async def test_python_m_bot_comes_online_and_answers(standin: StandIn, tmp_path: Path) -> None:
    guild = standin.add_guild("Board Games")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD")},
        **standin.env,
        "TABULA_DB": str(tmp_path / "proc.db"),
        "TABULA_DEV_GUILD": str(guild.id),
        "TABULA_HEARTBEAT": str(tmp_path / "heartbeat"),
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True,
    )
    try:
        await standin.wait_ready(30)
        await standin.wait_synced(30, names=("game", "move", "help"))
        # Synced to the dev guild, as TABULA_DEV_GUILD asks.
        assert "help" in standin.command_names(guild)
        r = await standin.slash(alice, channel, "help")
        answer = await r.wait_reply(10)
        assert answer.ephemeral and "/game new" in answer.text
        await beaten(tmp_path / "heartbeat")
        assert await healthcheck(env, tmp_path) == 0
    finally:
        proc.send_signal(signal.SIGINT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), 15)
        await reap_async(proc)  # still running, or a worker left behind
    assert standin.violations == []
    assert await healthcheck(env, tmp_path) == 1  # closed: no heartbeat left behind


async def beaten(path: Path) -> None:
    """Until the bot's first beat (it beats once ready, a moment after it answers)."""
    for _ in range(600):  # another process writes it: looked at every 50 ms, for 30 s at most
        if path.exists():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no heartbeat at {path}")


async def healthcheck(env: dict[str, str], cwd: Path) -> int:
    check = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "healthcheck", cwd=cwd, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )
    return await asyncio.wait_for(check.wait(), 30)
