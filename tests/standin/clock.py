"""The stand-in's clock (which tests may move forward) and the change notifier waits use."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
POLL_SECONDS = 0.05


class StandInTimeout(TimeoutError):
    """A driver wait ran out of time; the message says what was awaited."""


class Clock:
    """Monotonic seconds plus an offset that :meth:`advance` grows.

    Deadlines (3 s first reply, 15 min token) and rate windows read this clock, so a test can
    step past a deadline without sleeping.
    """

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds


class Notifier:
    """Wakes every waiter whenever the stand-in's state changes."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return the first truthy value of ``predicate()``, re-checked after each change.

        The loop is bounded by ``timeout``; running out raises :class:`StandInTimeout`.
        """
        try:
            async with asyncio.timeout(timeout):
                while True:
                    value = predicate()
                    if value:
                        return value
                    # Also re-check now and then, for predicates on state outside the stand-in.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._event.wait(), POLL_SECONDS)
        except TimeoutError:
            raise StandInTimeout(f"timed out after {timeout:g} s waiting for {what}") from None
