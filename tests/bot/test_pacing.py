"""The send pacer: never more than its rate, and channel posts before DMs (on a fake clock)."""

from __future__ import annotations

import asyncio

from bot.ui.pacing import Pacer


async def test_sends_stay_under_the_rate_and_boards_go_first() -> None:
    now = [0.0]

    async def sleep(seconds: float) -> None:
        await asyncio.sleep(0)  # time moves only with the ticks below

    pacer = Pacer(rate=10.0, burst=5, clock=lambda: now[0], sleep=sleep)
    sent: list[tuple[float, str]] = []

    async def send(kind: str) -> None:
        await pacer.wait(urgent=kind == "board")
        sent.append((now[0], kind))

    senders = asyncio.gather(*(send("dm") for _ in range(10)),
                             *(send("board") for _ in range(10)))
    for _ in range(10_000):  # bounded: 100 s of fake time in 10 ms ticks
        if senders.done():
            break
        await asyncio.sleep(0)
        now[0] += 0.01
    await senders
    times = [t for t, _ in sent]
    # Never more than the burst plus the rate: between the i-th and the j-th send there were
    # at least (j - i - burst) / rate seconds.
    for i in range(len(times)):
        for j in range(i + 1, len(times)):
            assert times[j] - times[i] >= (j - i - 5) / 10 - 0.02
    # The burst goes to the first to ask (DMs here); then every waiting board before a DM.
    assert [k for _, k in sent] == ["dm"] * 5 + ["board"] * 10 + ["dm"] * 5
