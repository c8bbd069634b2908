"""The collector settings the bot takes once it is ready (``bot.gc_tuning``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import gc_tuning


@pytest.fixture
def restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settling_freezes_what_lives_and_collects_the_young_less_often(restored: None) -> None:
    kept = [{"a view": n} for n in range(100)]
    _, middle, old = gc.get_threshold()
    gc_tuning.settle()
    assert gc.get_threshold() == (gc_tuning.YOUNG_THRESHOLD, middle, old)
    assert gc.get_freeze_count() >= len(kept)
    assert gc.isenabled()  # cycles are still collected, only less often
