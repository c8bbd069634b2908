"""Closing the bot waits for the interaction handlers and background work under way, and
abandons (cancels) what is still running when the grace period is over."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from bot.app import finish_in_flight


async def test_work_under_way_finishes_and_what_it_starts_is_waited_for_too() -> None:
    done: list[str] = []
    bot: Any = SimpleNamespace(background=set())

    async def delivery() -> None:
        await asyncio.sleep(0)
        done.append("delivery")

    async def handler() -> None:
        await asyncio.sleep(0)
        bot.background.add(asyncio.create_task(delivery()))
        done.append("handler")

    handling = asyncio.create_task(handler(), name="CommandTree-invoker")
    unrelated = asyncio.create_task(asyncio.Event().wait(), name="not-an-interaction")
    await finish_in_flight(cast(Any, bot), 30)
    assert handling.done() and done == ["handler", "delivery"]
    assert not unrelated.done()
    unrelated.cancel()


async def test_work_still_running_after_the_grace_period_is_cancelled() -> None:
    stuck = asyncio.create_task(asyncio.Event().wait(), name="discord-ui-view-dispatch-1")
    await finish_in_flight(cast(Any, SimpleNamespace(background=set())), 0)
    assert stuck.cancelled()
