"""Closing without dropping work: interaction handlers and background work under way finish
(within a grace period) before the connection and the store close."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import Any, Protocol

from bot.services import Services
from bot.web.server import WebServer

log = logging.getLogger(__name__)


class Busy(Protocol):
    background: set[asyncio.Task[None]]


# discord.py names the tasks that run interaction callbacks and event handlers.
IN_FLIGHT_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")


def in_flight(bot: Busy) -> set[asyncio.Task[Any]]:
    current = asyncio.current_task()
    named = {
        task for task in asyncio.all_tasks()
        if task is not current and task.get_name().startswith(IN_FLIGHT_PREFIXES)
    }
    return {task for task in named | bot.background if not task.done()}


async def finish_in_flight(bot: Busy, grace: float) -> None:
    """Wait for interaction handlers and background work, then cancel what is left."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    busy = in_flight(bot)
    # Work under way may start more (a handler spawning a delivery): look again until quiet.
    while busy and loop.time() < deadline:
        await asyncio.wait(busy, timeout=deadline - loop.time())
        busy = in_flight(bot)
    if busy:
        log.warning("abandoning %d unfinished tasks after %.0f s", len(busy), grace)
        for task in busy:
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)


async def close_after(web: WebServer | None, web_pool: Executor | None,
                      services: Services | None) -> None:
    """What the bot opened, closed once the gateway is: the web pages, the pools, the store."""
    if web is not None:
        await web.stop()
    if web_pool is not None:
        web_pool.shutdown(wait=False, cancel_futures=True)
    if services is not None:
        services.close_pools()
        await services.store.close()
        log.info("closed the store and the render pool")
