"""The real Tabula bot (built by ``create_bot``) running against the stand-in, and helpers to
play through slash commands and buttons the way members do."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.app import TabulaBot, create_bot
from bot.config import Settings, WebSettings
from bot.pace.clock import FakeClock
from bot.values import Member as Player
from rules.core import Rng
from tests.standin import Channel, Guild, InteractionRecord, Member, Message, StandIn

WAIT = 10.0


@dataclass
class Table:
    standin: StandIn
    bot: TabulaBot
    guild: Guild
    channel: Channel
    members: dict[str, Member] = field(default_factory=dict)

    def bot_messages(self) -> list[Message]:
        return [m for m in self.standin.channel_messages(self.channel)
                if m.author.id == self.standin.bot_user.id and not m.ephemeral]

    def boards(self) -> list[Message]:
        return [m for m in self.bot_messages()
                if any(a.filename == "board.png" for a in m.attachments)]

    async def next_board(self, after: int) -> Message:
        """The first board posted after ``after`` boards existed."""
        await self.standin.wait_until(
            lambda: len(self.boards()) > after, WAIT, "a new board in the channel"
        )
        return self.boards()[after]

    async def reply(self, record: InteractionRecord, count: int = 1) -> Any:
        replies = await record.wait_replies(count, WAIT)
        return replies[count - 1]


def custom_id(message: Message, prefix: str) -> str:
    found = [c for c in message.custom_ids() if c.startswith(prefix)]
    assert found, f"no component {prefix!r} on the message: {message.custom_ids()}"
    return found[0]


def mentioned_ids(message: Message) -> list[int]:
    return [int(x) for x in re.findall(r"<@(\d+)>", message.text)]


def settings_for(standin: StandIn, db: Path, web: WebSettings | None = None) -> Settings:
    return Settings(token=standin.token, db_path=str(db), api_base=standin.api_base,
                    gateway_url=standin.gateway_url, log_level="INFO",
                    web=web or WebSettings())


def pin_seeds(bot: TabulaBot) -> None:
    """Tables opened in a test get known seeds instead of secret random ones, so every run of
    a test plays the same games."""
    opened = bot.tables.open
    count = 0

    async def seeded_open(*args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        kwargs.setdefault("seed", f"e2e-seed-{count}")
        return await opened(*args, **kwargs)

    bot.tables.open = seeded_open  # type: ignore[method-assign]


@asynccontextmanager
async def running_bot(standin: StandIn, db: Path, render_workers: int = 0,
                      web: WebSettings | None = None) -> AsyncIterator[TabulaBot]:
    """Start the real bot on the stand-in (with ``web``, its pages too), wait until its
    commands are synced, close it after."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    bot = create_bot(settings_for(standin, db, web), render_workers=render_workers,
                     guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(standin.token))
    try:
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move"))
        await asyncio.wait_for(bot.wait_until_ready(), WAIT)
        pin_seeds(bot)
        yield bot
    finally:
        await bot.close()
        try:
            await asyncio.wait_for(task, WAIT)
        except Exception:
            pass
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@asynccontextmanager
async def table(standin: StandIn, db: Path, names: tuple[str, ...] = ("alice", "bob", "carol"),
                closed_dms: tuple[str, ...] = (), web: WebSettings | None = None
                ) -> AsyncIterator[Table]:
    guild = standin.add_guild("Board Games")
    channel = standin.add_channel(guild, "games")
    members = {
        n: standin.add_member(guild, n, dms_open=n not in closed_dms) for n in names
    }
    members["admin"] = standin.add_member(guild, "admin", manage_guild=True)
    async with running_bot(standin, db, web=web) as bot:
        yield Table(standin, bot, guild, channel, members)


async def play_to_the_end(t: Table, table_id: int, rng: Rng, clock: FakeClock,
                          silent: int | None = None) -> None:
    """Random legal moves for every seat until the game ends; the ``silent`` member never
    moves: their minute runs out (the league's pace) until their seat is absent."""
    bot = t.bot
    seats = await bot.tables.seats(table_id)
    members = {s.member_id: Player(s.member_id, s.name) for s in seats
               if s.member_id and s.member_id != silent}
    for _ in range(3_000):
        record = await bot.tables.table_for(table_id)
        if record.status != "playing":
            return
        moved = False
        for member in members.values():
            moves = await bot.tables.legal_moves(table_id, member)
            if moves:
                notice = await bot.tables.act(table_id, member, rng.choice(moves))
                if notice.over:
                    await bot.outbox.publish(notice)
                moved = True
                break
        if not moved:
            clock.advance(60)
            await bot.tick()
    raise AssertionError("the game did not end")
