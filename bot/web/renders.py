"""The pages' CPU work (replays, board images, standings images) in worker processes, behind a
bounded queue, with what it made kept.

Each result is made once per key (a table's version and step, a seat's view, a season's
standings) however many readers ask at once: they share the one piece of work. At most
``workers`` pieces run and ``waiting`` wait; a request beyond that, or one from a client who
already has ``per_client`` pieces pending, is refused with ``Busy`` (503 with Retry-After):
one reader stepping through new images never makes everyone else wait behind them. The render
time counted is the worker's own; the wait in the queue is counted apart.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from prometheus_client import Counter, Histogram

from bot.metrics import REGISTRY, RENDER_SECONDS, RENDERS
from bot.render_pool import timed

T = TypeVar("T")

WAIT_SECONDS = Histogram(
    "tabula_web_queue_seconds", "Time a page's render or replay waited for a web worker",
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0), registry=REGISTRY)
REFUSED = Counter("tabula_web_busy", "Page requests refused (503) while the web workers were full",
                  registry=REGISTRY)

KEPT = 512  # results kept, most recently used last: a board's PNG is ~100 KiB
RETRY_SECONDS = 2


def release(counts: dict[str, int], client: str) -> None:
    """One fewer of ``client``'s requests in flight; a client with none left is forgotten, so
    the map holds only the clients being served."""
    left = counts[client] - 1
    if left:
        counts[client] = left
    else:
        del counts[client]


class Busy(Exception):
    """The web workers are full: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int = RETRY_SECONDS) -> None:
        super().__init__("the web workers are busy")
        self.retry_after = retry_after


def cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(beside_bot: bool) -> int:
    """Web workers for this machine: one per CPU, less one for the bot's own loop when the
    pages are served in its process; at least one, at most eight."""
    return max(1, min(8, cpus() - (1 if beside_bot else 0)))


def web_pool(workers: int) -> ProcessPoolExecutor:
    # "spawn": a forked child would inherit the event loop's and the store's threads.
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"))


class WorkQueue:
    """Work for ``executor`` (None: threads), bounded as the module says, results kept by key."""

    def __init__(self, executor: Executor | None = None, workers: int = 1, waiting: int = 16,
                 per_client: int = 4, kept: int = KEPT) -> None:
        self.executor = executor
        self.workers = max(1, workers)
        self.waiting = waiting
        self.per_client = per_client
        self.kept = kept
        self._running = asyncio.Semaphore(self.workers)
        self._pending = 0
        self._by_client: dict[str, int] = {}
        self._done: OrderedDict[Hashable, Any] = OrderedDict()
        self._under_way: dict[Hashable, asyncio.Future[Any]] = {}  # work being made, by key

    @property
    def pending(self) -> int:
        return self._pending

    def cached(self, key: Hashable) -> Any | None:
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
        return found

    def keep(self, key: Hashable, value: Any) -> None:
        self._done[key] = value
        self._done.move_to_end(key)
        while len(self._done) > self.kept:
            self._done.popitem(last=False)

    async def get(self, key: Hashable, client: str, work: Callable[..., T], *args: Any,
                  render: bool = True) -> T:
        """What ``work(*args)`` gives, made once for ``key``; ``render``: counted as a render.
        The work is a task of its own: a reader who leaves does not take it from the others
        waiting for it."""
        found = self.cached(key)
        if found is not None:
            result: T = found
            return result
        task = self._under_way.get(key)
        if task is None:
            task = asyncio.ensure_future(self._make(key, client, work, args, render))
            # Read, so that a failure nobody waits for any more is not reported as lost.
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            self._under_way[key] = task
        result = await asyncio.shield(task)
        return result

    async def _make(self, key: Hashable, client: str, work: Callable[..., Any],
                    args: tuple[Any, ...], render: bool) -> Any:
        try:
            result = await self.run(client, work, *args, render=render)
        finally:
            del self._under_way[key]
        self.keep(key, result)
        return result

    async def run(self, client: str, work: Callable[..., T], *args: Any,
                  render: bool = True) -> T:
        """``work(*args)`` in a worker, or ``Busy`` when the queue or this client's share of
        it is full."""
        mine = self._by_client.get(client, 0)
        if self._pending >= self.workers + self.waiting or mine >= self.per_client:
            REFUSED.inc()
            raise Busy(RETRY_SECONDS + self._pending // (2 * self.workers))
        self._pending += 1
        self._by_client[client] = mine + 1
        queued = time.perf_counter()
        try:
            async with self._running:
                WAIT_SECONDS.observe(time.perf_counter() - queued)
                loop = asyncio.get_running_loop()
                result, seconds = await loop.run_in_executor(self.executor, timed, work, *args)
        finally:
            self._pending -= 1
            release(self._by_client, client)
        if render:
            RENDER_SECONDS.observe(seconds)
            RENDERS.inc()
        return result
