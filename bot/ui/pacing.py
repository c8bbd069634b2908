"""Stay under Discord's 50 requests per second for the whole bot.

discord.py follows each route's bucket from response headers, but the global limit is only
learnt from a 429. A burst (a computer chain ending a game, many DMs at once) would hit it, so
sends wait for a token here first: at most ``rate`` per second, in bursts of ``burst``.
"""

from __future__ import annotations

import asyncio
import time


class Pacer:
    def __init__(self, rate: float = 40.0, burst: int = 20) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
                self._stamp = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)
