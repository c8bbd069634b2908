"""Stay under Discord's 50 requests per second for the whole bot.

discord.py follows each route's bucket from response headers, but the global limit is only
learnt from a 429. A burst (a computer chain ending a game, many DMs at once) would hit it, so
sends wait here first: at most ``limit`` in any ``window`` (a sliding window, so a burst never
adds to a full second). The limit leaves room for the follow-ups answering interactions, which
are not paced here. Boards in channels go before DMs, and DMs leave room for the boards: a
DM never takes one of the last ``reserve`` places of a window, nor one that the boards of the
last window would need again (plus ``headroom``). The board is what everyone waits for; a
DM can come a moment later.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable


class Pacer:
    def __init__(self, limit: int = 40, window: float = 1.0, reserve: int = 15,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 headroom: int = 5) -> None:
        self.limit, self.window, self.reserve, self.headroom = limit, window, reserve, headroom
        self._clock, self._sleep = clock, sleep
        self._sent: deque[tuple[float, bool]] = deque()  # (when, urgent)
        self._boards = 0  # urgent sends in the window
        self._urgent = 0  # channel posts waiting for their turn

    async def wait(self, *, urgent: bool = True) -> None:
        if urgent:
            self._urgent += 1
        try:
            while True:
                now = self._clock()
                while self._sent and now - self._sent[0][0] >= self.window:
                    self._boards -= self._sent.popleft()[1]
                if urgent:
                    free = len(self._sent) < self.limit
                else:  # DMs take only what the boards, at their latest pace, leave
                    dms = len(self._sent) - self._boards
                    free = (not self._urgent and len(self._sent) < self.limit - self.reserve
                            and dms < self.limit - max(self.reserve,
                                                       self._boards + self.headroom))
                if free:
                    self._sent.append((now, urgent))
                    self._boards += urgent
                    return
                pause = self._sent[0][0] + self.window - now if self._sent else 0.0
                await self._sleep(max(pause, 0.005))
        finally:
            if urgent:
                self._urgent -= 1
