"""The send pacer: never more than its limit in a window, and channel posts before DMs (on a
fake clock)."""

from __future__ import annotations

import asyncio

from bot.ui.rate_limit import Pacer


def fake_pacer(**settings: int) -> tuple[Pacer, list[float]]:
    """A pacer on a fake clock (``now[0]``); its sleeps only yield, time moves when a test
    moves it."""
    now = [0.0]

    async def sleep(seconds: float) -> None:
        await asyncio.sleep(0)

    return Pacer(window=1.0, clock=lambda: now[0], sleep=sleep, **settings), now


async def test_sends_stay_under_the_rate_and_boards_go_first() -> None:
    pacer, now = fake_pacer(limit=5, reserve=0, headroom=0)
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
    # Never more than 5 sends in any second.
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 1.0 - 1e-9
    # The first 5 go at once (to the first to ask: DMs here); then every waiting board before
    # any DM.
    assert [k for _, k in sent] == ["dm"] * 5 + ["board"] * 10 + ["dm"] * 5


async def test_dms_leave_room_for_boards() -> None:
    pacer, now = fake_pacer(limit=5, reserve=2, headroom=0)
    for _ in range(3):
        await pacer.wait(urgent=False)
    late_dm = asyncio.ensure_future(pacer.wait(urgent=False))
    await asyncio.sleep(0)
    assert not late_dm.done()  # the last two places of the window stay free for boards
    await pacer.wait()
    await pacer.wait()  # two boards go at once
    now[0] += 1.0
    for _ in range(10):
        await asyncio.sleep(0)
    assert late_dm.done()


async def test_dms_leave_the_boards_of_the_last_window_their_places_again() -> None:
    """Boards flowing at 6 a second under a limit of 10: DMs get what the boards leave (the
    boards of the last window plus a headroom of 2), so no board waits behind a DM."""
    pacer, now = fake_pacer(limit=10, reserve=1, headroom=2)
    for _ in range(6):
        await pacer.wait()
    dms = [asyncio.ensure_future(pacer.wait(urgent=False)) for _ in range(5)]
    for _ in range(10):
        await asyncio.sleep(0)
    assert sum(d.done() for d in dms) == 2  # 10 - (6 boards + 2 headroom)
    boards = [asyncio.ensure_future(pacer.wait()) for _ in range(2)]
    for _ in range(10):
        await asyncio.sleep(0)
    assert all(b.done() for b in boards)  # the boards' places were kept
    now[0] += 1.0  # the window empties: the waiting DMs go
    for _ in range(10):
        await asyncio.sleep(0)
    assert all(d.done() for d in dms)
