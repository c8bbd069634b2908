"""The bot on several gateway shards (``TABULA_SHARD_COUNT``/``TABULA_SHARD_IDS``): several such
processes share one PostgreSQL database; the work done once at start is limited to the
servers of this process's shards (``Sharding.owns``)."""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from bot.client import TabulaBot
from bot.config import Sharding


class ShardedTabulaBot(TabulaBot, commands.AutoShardedBot):
    """The same bot on several gateway shards (``TABULA_SHARD_COUNT``/``TABULA_SHARD_IDS``)."""

    @staticmethod
    def shard_options(sharding: Sharding) -> dict[str, Any]:
        # shard_count None: discord.py asks Discord how many shards the bot needs.
        options: dict[str, Any] = {"shard_count": sharding.count}
        if sharding.ids is not None:
            options["shard_ids"] = list(sharding.ids)
        return options

    def gateway_problem(self) -> str | None:
        if self.draining or self.is_closed():
            return "shutting down"
        if not self.is_ready():
            return "not ready yet"
        down = [str(n) for n, shard in self.shards.items() if shard.is_closed()]
        return f"shards {', '.join(down)} disconnected" if down else None

    async def close_gateway(self) -> None:
        for shard in self.shards.values():
            if not shard.is_closed():
                await shard.disconnect()

    def gateway_connected(self) -> bool:
        return self.is_ready() and bool(self.shards) and not any(
            shard.is_closed() for shard in self.shards.values())
