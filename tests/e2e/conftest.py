"""Fixtures for end-to-end tests against the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from tests.e2e.processes import BotProcess
from tests.standin.fixtures import spec_checked, standin, standin_env

__all__ = ["new_bot", "spec_checked", "standin", "standin_env"]


@pytest.fixture
async def new_bot() -> AsyncIterator[Callable[..., BotProcess]]:
    """Makes ``BotProcess``es; at teardown every process group they started is killed and
    gone, also after a failed or timed-out test (request it after ``postgres_url``, so the
    bots are gone before their schema is dropped)."""
    made: list[BotProcess] = []

    def make(*args: Any, **kwargs: Any) -> BotProcess:
        made.append(BotProcess(*args, **kwargs))
        return made[-1]

    try:
        yield make
    finally:
        for bot in made:
            await bot.reap()
