"""Engine calls run on the event loop while they are quick, and in a thread once they are not.

Handing a call to a thread costs 0.1-0.3 ms and a move makes several; most engine calls take
less (a Palatinus ``apply`` is ~60 µs). Others can take milliseconds (Palermo's legal moves),
which would stall every interaction waiting on the loop. So each kind of call keeps a running
average of its duration and goes to a thread while that average is above a millisecond.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

SLOW_SECONDS = 0.001
WEIGHT = 0.2  # of the newest duration in the running average

_average: dict[str, float] = {}


async def run(kind: str, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args)``, inline or in a thread as ``kind``'s calls have been taking."""
    call = partial(_timed, kind, partial(fn, *args, **kwargs))
    if _average.get(kind, 0.0) > SLOW_SECONDS:
        return await asyncio.to_thread(call)
    return call()


def _timed(kind: str, call: Callable[[], R]) -> R:
    # Only the call itself is timed: the wait for a thread grows with load, and counting it
    # would keep a quick call in threads for good once the loop is busy.
    started = time.perf_counter()
    result = call()
    took = time.perf_counter() - started
    _average[kind] = (1 - WEIGHT) * _average.get(kind, took) + WEIGHT * took
    return result
