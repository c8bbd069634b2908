"""Stay under Discord's 50 requests per second for the whole bot.

discord.py follows each route's bucket from response headers, but the global limit is only
learnt from a 429. A burst (a computer chain ending a game, many DMs at once) would hit it, so
sends wait here first: at most ``limit`` in any ``window`` (a sliding window, so a burst never
adds to a full second). The limit leaves room for the follow-ups answering interactions, which
are not paced here. Boards in channels go before DMs, and DMs never take the last ``reserve``
places of a window: the board is what everyone waits for, a DM can come a moment later.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable


class Pacer:
    def __init__(self, limit: int = 40, window: float = 1.0, reserve: int = 15,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.limit, self.window, self.reserve = limit, window, reserve
        self._clock, self._sleep = clock, sleep
        self._sent: deque[float] = deque()
        self._urgent = 0  # channel posts waiting for their turn

    async def wait(self, *, urgent: bool = True) -> None:
        if urgent:
            self._urgent += 1
        try:
            while True:
                now = self._clock()
                while self._sent and now - self._sent[0] >= self.window:
                    self._sent.popleft()
                room = self.limit if urgent else self.limit - self.reserve
                if len(self._sent) < room and (urgent or not self._urgent):
                    self._sent.append(now)
                    return
                pause = self._sent[0] + self.window - now if self._sent else 0.0
                await self._sleep(max(pause, 0.005))
        finally:
            if urgent:
                self._urgent -= 1
