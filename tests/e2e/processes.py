"""``python -m bot`` processes against the stand-in, for tests that kill them (kill -9) and
start them again, and helpers to play through them as members do.

Each run of a bot is a process group of its own: a kill takes the bot with its worker pools,
as a crashed container does, and ``reap`` (the ``new_bot`` fixture's teardown) leaves nothing
of any run behind, also when the test failed or timed out."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from tests.process_groups import kill_group, reap_async
from tests.standin import Channel, Member, Message, StandIn

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0


class BotProcess:
    def __init__(self, standin: StandIn, db: str, folder: Path, *,
                 shard: tuple[int, int] | None = None, dev_guild: int | None = None) -> None:
        self.standin, self.db, self.folder = standin, db, folder
        self.shard, self.dev_guild = shard, dev_guild
        self.proc: asyncio.subprocess.Process | None = None
        self.runs = 0
        self.started: list[asyncio.subprocess.Process] = []  # every run, for reap()

    def env(self) -> dict[str, str]:
        env = {
            **{k: v for k, v in os.environ.items()
               if not k.startswith(("DISCORD", "TABULA"))},
            **self.standin.env,
            "TABULA_DB": self.db,
            "PYTHONPATH": str(ROOT),
        }
        if self.dev_guild is not None:
            env["TABULA_DEV_GUILD"] = str(self.dev_guild)
        if self.shard is not None:
            env["TABULA_SHARD_COUNT"] = str(self.shard[1])
            env["TABULA_SHARD_IDS"] = str(self.shard[0])
        return env

    async def start(self) -> None:
        self.runs += 1
        log = open(self.folder / f"bot-{self.shard}-{self.runs}.log", "wb")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.folder, env=self.env(),
            stdout=log, stderr=asyncio.subprocess.STDOUT, start_new_session=True,
        )
        self.started.append(self.proc)
        log.close()

    async def kill(self) -> None:
        """kill -9 of the bot and its workers, and wait until they are gone."""
        if self.proc is not None and self.proc.returncode is None:
            await reap_async(self.proc)

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 15)
        await reap_async(self.proc)  # still running, or a worker left behind

    async def reap(self) -> None:
        """Every run's group killed and gone, whatever the test did or did not stop."""
        for proc in self.started:
            kill_group(proc.pid)
        for proc in self.started:
            await reap_async(proc)


def boards(standin: StandIn, channel: Channel) -> list[Message]:
    return [m for m in standin.channel_messages(channel)
            if any(a.filename == "board.png" for a in m.attachments)]


def lines_told(standin: StandIn, channel: Channel) -> list[str]:
    """Every line the channel was told, less the heading and the "Next:" line each board
    repeats."""
    return [line for m in standin.channel_messages(channel) if not m.ephemeral
            for line in m.text.splitlines() if not line.startswith(("Next:", "### "))]


async def open_solo(standin: StandIn, member: Member, channel: Channel, game: str) -> Message:
    """A one-player game opened and started by ``member``; its first board."""
    r = await standin.slash(member, channel, "game new",
                            {"game": game, "players": 1, "seating": "join"})
    lobby = (await r.wait_reply(WAIT)).message
    assert lobby is not None
    start = next(c for c in lobby.custom_ids() if c.startswith("tabula:lobby:start"))
    await (await standin.click(member, lobby, start)).wait_callback(WAIT)
    await standin.wait_until(lambda: boards(standin, channel), WAIT, "the first board")
    return boards(standin, channel)[0]


async def a_move(standin: StandIn, member: Member, channel: Channel) -> str:
    """One of the member's legal moves, as autocomplete offers it."""
    choices = await standin.autocomplete(member, channel, "move", {"action": ""},
                                         focused="action")
    assert choices, "no legal move offered"
    return str(choices[0].value)
