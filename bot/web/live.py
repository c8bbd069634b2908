"""``/t/<public id>/events``: a table's moves as they happen (server-sent events), so that an
open page shows a new move without a reload.

The store is the one source of truth (several bot processes may move the table): one poller
per watched table reads its version every ``poll`` seconds while anyone watches, and every
stream of that table waits on it. A stream says ``version`` each time the version moves, and a
comment now and then to keep proxies from closing it. Streams are bounded, in all and per
client (503 beyond: the page then works as before, without live moves).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field

from aiohttp import web

from bot.store import Store
from bot.web.context import SITE, gone, site_of
from bot.web.limits import HEADERS, who
from bot.web.renders import Busy, release

log = logging.getLogger(__name__)

KEEP_ALIVE = 15.0  # seconds between comments on a quiet stream
STREAMS = 2_000
PER_CLIENT = 8
RETRY_MS = 3_000  # how soon a browser reconnects a dropped stream


@dataclass
class _Watch:
    version: int | None
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    watchers: int = 0
    task: asyncio.Task[None] | None = None


class Live:
    """The pollers of watched tables and the count of open streams."""

    def __init__(self, poll: float = 1.0) -> None:
        self.poll = poll
        self._watches: dict[int, _Watch] = {}
        self._streams = 0
        self._by_client: dict[str, int] = {}

    @property
    def streams(self) -> int:
        return self._streams

    def opened(self, client: str) -> None:
        mine = self._by_client.get(client, 0)
        if self._streams >= STREAMS or mine >= PER_CLIENT:
            raise Busy(30)
        self._streams += 1
        self._by_client[client] = mine + 1

    def closed(self, client: str) -> None:
        self._streams -= 1
        release(self._by_client, client)

    async def _poll(self, store: Store, table_id: int, watch: _Watch) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                version = await store.table_version(table_id)
            except Exception:
                log.warning("live moves: the store does not answer", exc_info=True)
                continue
            if version != watch.version:
                async with watch.changed:
                    watch.version = version
                    watch.changed.notify_all()

    def watch(self, store: Store, table_id: int, version: int | None) -> _Watch:
        found = self._watches.get(table_id)
        if found is None:
            found = self._watches[table_id] = _Watch(version)
            found.task = asyncio.get_running_loop().create_task(
                self._poll(store, table_id, found))
        found.watchers += 1
        return found

    def unwatch(self, table_id: int) -> None:
        found = self._watches[table_id]
        found.watchers -= 1
        if found.watchers == 0:
            del self._watches[table_id]
            if found.task is not None:
                found.task.cancel()

    async def close(self) -> None:
        tasks = [w.task for w in self._watches.values() if w.task is not None]
        self._watches.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


LIVE = web.AppKey("live", Live)


async def events(request: web.Request) -> web.StreamResponse:
    site = site_of(request)
    _, table_id = await site.find(request, "table")
    table = await site.store.get_table(table_id)
    if table is None:
        raise gone("There is no page at this address.")
    await site.pages_on(table.guild_id)
    live = request.app[LIVE]
    client = who(request)
    live.opened(client)
    try:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})  # nginx would otherwise hold the events back
        # Sent before the middleware could add its headers: added here.
        response.headers.update(HEADERS)
        await response.prepare(request)
        watch = live.watch(site.store, table_id, table.version)
        if table.version > (watch.version or 0):  # read here before the poller saw it
            async with watch.changed:
                watch.version = table.version
                watch.changed.notify_all()
        try:
            seen = table.version
            await response.write(_event(seen, retry=True))
            while True:
                now = await _next(watch, seen)
                if now is None:  # the table is gone
                    break
                if now != seen:
                    seen = now
                    await response.write(_event(now))
                else:
                    await response.write(b": still here\n\n")
        finally:
            live.unwatch(table_id)
        return response
    finally:
        live.closed(client)


async def _next(watch: _Watch, seen: int | None) -> int | None:
    """The table's version once it differs from ``seen``, or ``seen`` after a quiet while."""
    async with watch.changed:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watch.changed.wait_for(lambda: watch.version != seen),
                                   KEEP_ALIVE)
        return watch.version


def _event(version: int | None, retry: bool = False) -> bytes:
    head = f"retry: {RETRY_MS}\n" if retry else ""
    return f"{head}event: version\ndata: {json.dumps({'version': version})}\n\n".encode()


async def _closed(app: web.Application) -> None:
    await app[LIVE].close()


def add_routes(app: web.Application) -> None:
    app[LIVE] = Live(app[SITE].live_poll)
    app.on_shutdown.append(_closed)
    app.router.add_get("/t/{public_id}/events", events)
