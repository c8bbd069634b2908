"""Rendering off the event loop, in worker processes.

A render of ~70 ms on the loop stalls every pending interaction; in a thread it still holds the
GIL for most of that. Worker processes keep the loop free (see bench/). Only the view dict goes
to the worker and only PNG bytes come back.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

import rendering
from bot.metrics import RENDER_SECONDS, RENDERS

T = TypeVar("T")
Rendered = list[tuple[bytes, str]]
"""PNG bytes with their alt text: the image readable at preview size first, then the rest."""


def timed(work: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``work(*args)`` and the seconds it took, measured where it ran."""
    start = time.perf_counter()
    result = work(*args)
    return result, time.perf_counter() - start


def _render(game_id: str, view: Mapping[str, Any], update: bool = False,
            previous: Mapping[str, Any] | None = None) -> Rendered:
    return rendering.render_described(game_id, view, update=update, previous=previous)


class RenderPool:
    def __init__(self, workers: int = 2, processes: bool = True) -> None:
        self._executor: Executor
        if processes and workers > 0:
            # "spawn": a forked child would inherit the event loop's and the store's threads.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        else:
            self._executor = ThreadPoolExecutor(max_workers=max(1, workers))

    async def render(self, game_id: str, view: Mapping[str, Any], update: bool = False,
                     previous: Mapping[str, Any] | None = None) -> Rendered:
        """The images of a view (none for a game with no renderer); ``update``: after a move,
        by DM, where a game may send only what changed since ``previous``."""
        if not rendering.has_renderer(game_id):
            return []
        loop = asyncio.get_running_loop()
        # The time counted is the render's own, measured in the worker: a wait for a free
        # worker is not rendering.
        rendered, seconds = await loop.run_in_executor(
            self._executor, timed, _render, game_id, dict(view), update,
            dict(previous) if previous is not None else None)
        RENDER_SECONDS.observe(seconds)
        RENDERS.inc()
        return rendered

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
