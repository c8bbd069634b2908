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
from dataclasses import dataclass
from typing import Any, TypeVar

import rendering
from bot.metrics import RENDER_SECONDS, RENDERS

T = TypeVar("T")


def timed(work: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``work(*args)`` and the seconds it took, measured where it ran."""
    start = time.perf_counter()
    result = work(*args)
    return result, time.perf_counter() - start


@dataclass(frozen=True)
class Drawn:
    """The one image of a post (PNG bytes and alt text; None for a game without images) and
    the details one click away from it: (key, button label) each."""

    png: bytes | None
    alt: str
    parts: tuple[tuple[str, str], ...] = ()


def _card(game_id: str, view: Mapping[str, Any], update: bool,
          previous: Mapping[str, Any] | None) -> Drawn:
    image, alt = rendering.described(game_id, view, update=update, previous=previous)[0]
    return Drawn(rendering.encode_png(image), alt,
                 tuple(rendering.detail_parts(game_id, view)))


def _detail(game_id: str, view: Mapping[str, Any], key: str) -> tuple[bytes, str]:
    return rendering.render_detail_png(game_id, view, key)


class RenderPool:
    def __init__(self, workers: int = 2, processes: bool = True) -> None:
        self._executor: Executor
        if processes and workers > 0:
            # "spawn": a forked child would inherit the event loop's and the store's threads.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        else:
            self._executor = ThreadPoolExecutor(max_workers=max(1, workers))

    async def card(self, game_id: str, view: Mapping[str, Any], update: bool = False,
                   previous: Mapping[str, Any] | None = None) -> Drawn:
        """The one image a post or DM carries, and its details' keys and labels."""
        if not rendering.has_renderer(game_id):
            return Drawn(None, "")
        loop = asyncio.get_running_loop()
        # The time counted is the render's own, measured in the worker: a wait for a free
        # worker is not rendering.
        drawn, seconds = await loop.run_in_executor(
            self._executor, timed, _card, game_id, dict(view), update,
            dict(previous) if previous is not None else None)
        RENDER_SECONDS.observe(seconds)
        RENDERS.inc()
        return drawn

    async def detail(self, game_id: str, view: Mapping[str, Any], key: str
                     ) -> tuple[bytes, str]:
        """One detail image of a view and its alt text; KeyError for a key it lacks."""
        if not rendering.has_renderer(game_id):
            raise KeyError(key)
        loop = asyncio.get_running_loop()
        found, seconds = await loop.run_in_executor(self._executor, timed, _detail, game_id,
                                                     dict(view), key)
        RENDER_SECONDS.observe(seconds)
        RENDERS.inc()
        return found

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
