"""The Prometheus metrics, on a registry of their own. The bot counts at the few places things
happen (a commit, a render, a deadline, a reminder, a refused DM); ``/metrics`` (bot.web.health)
serves them and reads the gauges (gateway latency, live tables) as it is scraped. Here, below
every layer that counts, so none of them imports the web layer to count."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

MOVES = Counter("tabula_moves_committed", "Moves committed to the store", registry=REGISTRY)
ACT_SECONDS = Histogram(
    "tabula_act_seconds", "Time to take a member's move, from the call to its commit",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0), registry=REGISTRY)
RENDER_SECONDS = Histogram(
    "tabula_render_seconds", "Time to render a view's images",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5), registry=REGISTRY)
RENDERS = Counter("tabula_renders", "Views rendered to images", registry=REGISTRY)
DEADLINES = Counter("tabula_deadlines_fired", "Turn deadlines fired", registry=REGISTRY)
REMINDERS = Counter("tabula_reminders_sent", "Reminders sent", registry=REGISTRY)
DMS_REFUSED = Counter("tabula_dms_refused", "Direct messages a member's settings refused",
                      registry=REGISTRY)
GATEWAY_LATENCY = Gauge("tabula_gateway_latency_seconds",
                        "Discord gateway heartbeat latency (NaN when not connected)",
                        registry=REGISTRY)
SEARCHES_CAPPED = Counter(
    "tabula_searches_capped",
    "Computer searches the CPU-time safety net cut short, so their move depended on the machine",
    ["game", "level"], registry=REGISTRY)
LIVE_TABLES = Gauge("tabula_live_tables", "Tables being played", registry=REGISTRY)

P = ParamSpec("P")
T = TypeVar("T")


def observed(histogram: Histogram) -> Callable[[Callable[P, Awaitable[T]]],
                                              Callable[P, Awaitable[T]]]:
    """An async function whose every call's duration goes into ``histogram``."""

    def wrap(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
        @functools.wraps(fn)
        async def timed(*args: P.args, **kwargs: P.kwargs) -> T:
            start = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - start)

        return timed

    return wrap
