"""The heartbeat: a file the bot rewrites while its Discord gateway is connected, and the
check a container's ``HEALTHCHECK`` runs (``python -m bot healthcheck``): healthy while the
time in the file is recent. The file holds the beat's time in epoch seconds (not its mtime),
so the clock stays injectable; it is replaced whole, so a check never reads half of one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

from bot.pace.clock import Clock, epoch

BEAT_SECONDS = 10.0  # how often a connected bot rewrites the file
STALE_SECONDS = 60  # older than this, the bot is taken for stuck or cut off


class Heartbeat:
    def __init__(self, path: Path, clock: Clock) -> None:
        self.path = path
        self.clock = clock
        self._stopped = False
        self._writing = threading.Lock()  # a beat in a thread never lands after ``stop``

    def beat(self) -> None:
        """Write the clock's time into the file (a blocking write: run it off the loop)."""
        with self._writing:
            if self._stopped:
                return
            partial = self.path.with_name(self.path.name + ".partial")
            partial.write_text(f"{epoch(self.clock)}\n", encoding="ascii")
            os.replace(partial, self.path)

    def stop(self) -> None:
        """No more beats, and the file removed: a closing bot says so at once rather than
        after ``STALE_SECONDS``."""
        with self._writing:
            self._stopped = True
            self.path.unlink(missing_ok=True)

    async def run(self, connected: Callable[[], bool], stop: asyncio.Event,
                  every: float = BEAT_SECONDS) -> None:
        """Beat every ``every`` seconds while ``connected()``, until ``stop`` is set."""
        while not stop.is_set():
            if connected():
                await asyncio.to_thread(self.beat)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)


def check(path: Path, now: float, stale: float = STALE_SECONDS) -> tuple[bool, str]:
    """Whether the heartbeat at ``path`` is recent at ``now`` (epoch seconds), and why."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not connected (or not running)"
    except (OSError, UnicodeDecodeError) as exc:
        return False, f"could not read the heartbeat at {path}: {exc}"
    if not text.isdigit():
        return False, f"the heartbeat at {path} holds no time"
    age = now - int(text)
    if age > stale:
        return False, f"the last heartbeat is {age:.0f} s old (more than {stale:.0f} s)"
    return True, f"the last heartbeat is {max(age, 0):.0f} s old"
