"""``/healthz`` (200 while the store answers and, in the bot's process, the gateway is
connected; 503 with a short reason otherwise, the details only in the log) and ``/metrics``
(Prometheus' text format)."""

from __future__ import annotations

import asyncio
import logging
import math

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.metrics import GATEWAY_LATENCY, LIVE_TABLES, REGISTRY
from bot.store import Status
from bot.web.context import Site, site_of

log = logging.getLogger(__name__)

STORE_TIMEOUT = 3.0


async def problem(site: Site) -> str | None:
    """Why the service is unfit to serve, or None."""
    try:
        # A read of the core table (one indexed row, none found): the connection and the
        # tables both answer.
        await asyncio.wait_for(site.store.table_version(0), STORE_TIMEOUT)
    except Exception:  # any failure means the store does not answer
        # The exception may name the database's host or file: the log has it, not the page.
        log.warning("/healthz: the store does not answer", exc_info=True)
        return "the store does not answer"
    if site.gateway_down is not None:
        down = site.gateway_down()
        if down is not None:
            return f"the Discord gateway is not connected ({down})"
    return None


async def healthz(request: web.Request) -> web.Response:
    why = await problem(site_of(request))
    if why is None:
        return web.Response(text="ok\n")
    return web.Response(text=f"unavailable: {why}\n", status=503)


async def metrics(request: web.Request) -> web.Response:
    site = site_of(request)
    try:
        LIVE_TABLES.set(len(await site.store.tables_with_status(Status.PLAYING)))
    except Exception:
        log.warning("live tables not counted: the store does not answer", exc_info=True)
    latency = site.gateway_latency() if site.gateway_latency is not None else None
    GATEWAY_LATENCY.set(math.nan if latency is None or not math.isfinite(latency)
                        else latency)
    return web.Response(body=generate_latest(REGISTRY),
                        headers={"Content-Type": CONTENT_TYPE_LATEST})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
