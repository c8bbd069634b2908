"""``python -m bot`` as its own process, pointed at the stand-in by the environment, comes
online and answers a command."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e.standin import StandIn

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
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await standin.wait_ready(30)
        await standin.wait_synced(30, names=("game", "move", "help"))
        # Synced to the dev guild, as TABULA_DEV_GUILD asks.
        assert "help" in standin.command_names(guild)
        r = await standin.slash(alice, channel, "help")
        answer = await r.wait_reply(10)
        assert answer.ephemeral and "/game new" in answer.content
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            proc.kill()
            await proc.wait()
    assert standin.violations == []
