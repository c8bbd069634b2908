"""Stay under Discord's 50 requests per second for the whole bot.

discord.py follows each route's bucket from response headers, but the global limit is only
learnt from a 429. A burst (a computer chain ending a game, many DMs at once) would hit it, so
sends wait for a token here first: at most ``rate`` per second, in bursts of ``burst``. Boards
in channels go before DMs: a DM can arrive a moment later, the board is what everyone waits for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


class Pacer:
    def __init__(self, rate: float = 45.0, burst: int = 30,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.rate, self.burst = rate, burst
        self._clock, self._sleep = clock, sleep
        self._tokens = float(burst)
        self._stamp = clock()
        self._lock = asyncio.Lock()
        self._urgent = 0  # channel posts waiting for a token

    async def wait(self, *, urgent: bool = True) -> None:
        if urgent:
            self._urgent += 1
        try:
            while True:
                async with self._lock:
                    now = self._clock()
                    self._tokens = min(self.burst,
                                       self._tokens + (now - self._stamp) * self.rate)
                    self._stamp = now
                    if self._tokens >= 1 and (urgent or not self._urgent):
                        self._tokens -= 1
                        return
                    pause = max(1 - self._tokens, 0.2) / self.rate
                await self._sleep(pause)
        finally:
            if urgent:
                self._urgent -= 1
