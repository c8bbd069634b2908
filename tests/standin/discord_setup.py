"""Pointing an unmodified discord.py client at the stand-in, and running it for a test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from .driver import StandIn


@contextlib.contextmanager
def pointed_at(standin: StandIn) -> Iterator[None]:
    """Sets discord.py's REST base and default gateway to the stand-in, restoring them after."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = standin.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


async def _unless_stopped(task: asyncio.Task[None], step: Awaitable[Any], timeout: float) -> None:
    """Awaits ``step``, but fails at once with the client's error if the client stops."""
    waiter = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({waiter, task}, timeout=timeout, return_when="FIRST_COMPLETED")
    if waiter in done:
        waiter.result()
        return
    waiter.cancel()
    if task in done:
        task.result()  # raises the client's start-up error, if any
        raise RuntimeError("the client stopped before it was ready")
    raise TimeoutError(f"the client was not ready after {timeout:g} s")


@contextlib.asynccontextmanager
async def running(
    client: discord.Client, standin: StandIn, timeout: float = 15.0
) -> AsyncIterator[discord.Client]:
    """Starts ``client`` against the stand-in, waits until it is ready, and closes it after.

    Build the client with a small ``guild_ready_timeout`` (e.g. 0.05) so ``on_ready`` is quick.
    """
    with pointed_at(standin):
        task = asyncio.create_task(client.start(standin.token), name="standin-client")
        try:
            await _unless_stopped(task, standin.wait_ready(timeout), timeout + 1)
            await _unless_stopped(task, client.wait_until_ready(), timeout)
            yield client
        finally:
            await asyncio.wait_for(client.close(), timeout)
            # A clean close makes start() return; anything it raised surfaces here.
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, timeout)
