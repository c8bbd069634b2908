"""How the bot's process uses Python's cyclic garbage collector, once it is ready.

A move allocates thousands of short-lived containers (views, legal moves, notices), and nearly
all of them are freed by reference counting as soon as the move is told. CPython collects
whenever 700 more containers were made than freed: every few moves, so the views of the
positions being told were moved to older generations and walked again by their collections,
about a tenth of a move's CPU in ``bench/bench_tables.py``. Collecting every 20,000 leaves
little but what really lives to walk (such a collection takes a few milliseconds, far inside
the loop's 50 ms budget), and what is alive once the bot is ready (modules, the caches of
guilds and members) is frozen: never walked again by a full collection, the longest pause the
loop saw (see ``bench/bench_discord.py``).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 20_000  # CPython's default is 700


def settle() -> None:
    """Collect once, freeze what survives, and collect the young generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
