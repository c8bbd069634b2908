"""``create_bot(settings)``: the one place that makes the discord.py client (``bot.client``;
``bot.sharding`` with ``TABULA_SHARD_COUNT``), pointed at Discord or a stand-in; ``run_bot``
runs it as a process until a stop signal, every start-up failure told in one line."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys

import aiohttp
import discord
import yarl

from bot.client import EXTENSIONS, TabulaBot
from bot.config import Settings
from bot.sharding import ShardedTabulaBot
from bot.shutdown import finish_in_flight, in_flight
from bot.store import StoreError, redacted
from bot.store.factory import check_database

# Made here, known by these names to the rest of the program and its tests.
__all__ = ["EXTENSIONS", "ShardedTabulaBot", "TabulaBot", "create_bot", "finish_in_flight",
           "in_flight", "point_at", "run_bot", "serve"]

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL before the loop gets a turn


def point_at(settings: Settings) -> None:
    """Use a REST or gateway proxy (or a local test server) instead of Discord's hosts."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def create_bot(
    settings: Settings, render_workers: int = 2, guild_ready_timeout: float = 2.0
) -> TabulaBot:
    """The bot, pointed at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` when they are set.

    ``render_workers=0`` renders in a thread instead of worker processes (tests)."""
    point_at(settings)
    # The bot has no voice: no start-up warnings about voice libraries it does not need.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    # The store's thread and engine work in threads share the GIL with the event loop; a
    # thread may otherwise hold it for 5 ms at a stretch, which adds up to visible stalls.
    sys.setswitchinterval(SWITCH_INTERVAL)
    kind = ShardedTabulaBot if settings.sharding.sharded else TabulaBot
    return kind(settings, render_workers, guild_ready_timeout)


def run_bot(settings: Settings) -> int:
    """Run until SIGTERM or SIGINT (then close cleanly and return 0), or until a startup
    failure, told in one line."""
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token; check DISCORD_TOKEN.")
        return 2
    except (aiohttp.ClientError, TimeoutError) as exc:
        where = settings.api_base or "discord.com"
        log.error("Could not reach Discord (%s): %s", where, exc)
        return 1
    except discord.HTTPException as exc:
        log.error("Discord answered with an error at start: %s", exc)
        return 1
    except discord.DiscordException as exc:  # the gateway refused the session, for one
        log.error("Discord ended the connection: %s", exc)
        return 1
    except (sqlite3.Error, StoreError) as exc:
        log.error("Could not open the database %s: %s", redacted(settings.db_path), exc)
        return 1
    except OSError as exc:  # TABULA_WEB names an address that cannot be served
        log.error("Could not serve the web pages on %s: %s", settings.web.listen, exc)
        return 1
    return 0


async def serve(settings: Settings) -> None:
    """The bot until a stop signal: ``docker stop`` sends SIGTERM, Ctrl-C SIGINT."""
    # A database file the store would refuse is refused before Discord hears of the bot.
    await check_database(settings.db_path)
    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    try:
        async with bot:
            running = asyncio.create_task(bot.start(settings.token))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if running.done():
                running.result()  # a failure to start is raised to run_bot
                return
            log.info("stop signal received; closing")
            await bot.close()
            # start() returns once the gateway is closed; stopped during login, the closed
            # HTTP session ends it with an error that no longer matters.
            await asyncio.wait({running}, timeout=bot.grace)
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
