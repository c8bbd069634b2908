"""The live cache under concurrency, on both stores: reads, moves and evictions at once never
raise anything but a player's refusal, and a cached table never goes back in time."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.store import Store, TableRecord
from bot.tables import Tables, live
from bot.values import OutOfDate, TableError
from tests.conftest import ALICE, BOB

TABLES = 6
ROUNDS = 40


async def open_tables(tables: Tables, count: int, channel: int = 9000) -> list[int]:
    ids = []
    for n in range(count):
        opened = await tables.open("pebbles", channel + n, ALICE, seat_order="join",
                                   options={"turns": 1_000_000, "first": 0})
        await tables.join(opened.table_id, BOB)
        await tables.start(opened.table_id, ALICE)
        ids.append(opened.table_id)
    return ids


async def test_concurrent_reads_moves_and_evictions_raise_only_refusals(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cache of two tables for six: every read may evict another table while its version
    # check (PostgreSQL) or its read is under way.
    monkeypatch.setattr(live, "CACHED_TABLES", 2)
    ids = await open_tables(tables, TABLES)
    rng = random.Random(7)
    moved: list[int] = []
    failures: list[BaseException] = []

    async def reader(table_id: int) -> None:
        for _ in range(ROUNDS):
            await tables.live.load(table_id)
            await tables.live.record(rng.choice(ids))
            await tables.status(rng.choice(ids))

    async def mover(table_id: int) -> None:
        for n in range(ROUNDS // 2):
            mover_member = ALICE if n % 2 == 0 else BOB
            try:
                await tables.act(table_id, mover_member, "hold")
                moved.append(table_id)
            except (OutOfDate, TableError):
                pass  # a clean refusal (not this member's turn after a lost race)

    async def guarded(coro: Any) -> None:
        try:
            await coro
        except BaseException as exc:  # anything else is the bug
            failures.append(exc)

    work = [guarded(reader(t)) for t in ids for _ in range(3)]
    work += [guarded(mover(t)) for t in ids]
    rng.shuffle(work)
    await asyncio.gather(*work)
    assert failures == []
    assert moved  # the moves did happen
    for table_id in ids:
        stored = await tables.store.get_table(table_id)
        assert stored is not None
        # Each move committed once, and whatever is cached is the latest.
        assert stored.version == 2 + moved.count(table_id)
        assert (await tables.live.load(table_id)).table.version == stored.version


class HeldReads:
    """A store whose ``get_table`` waits for a signal once: a read that started before a
    commit and ends after it."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.hold_next = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def get_table(self, table_id: int) -> TableRecord | None:
        if not self.hold_next:
            return await self._store.get_table(table_id)
        self.hold_next = False
        found = await self._store.get_table(table_id)
        self.started.set()
        await self.release.wait()
        return found


@pytest.mark.parametrize("evicted", [False, True])
async def test_a_read_from_before_a_move_never_replaces_the_move(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, evicted: bool
) -> None:
    (table_id,) = await open_tables(tables, 1)
    held = HeldReads(tables.store)
    tables.live.store = held  # type: ignore[assignment]
    tables.live.forget(table_id)
    held.hold_next = True
    reading = asyncio.create_task(tables.live.load(table_id))  # reads version 2, then waits
    await held.started.wait()
    await tables.act(table_id, ALICE, "hold")  # version 3, cached by the move
    if evicted:
        # Other tables push it out of the cache before the old read lands.
        monkeypatch.setattr(live, "CACHED_TABLES", 1)
        await open_tables(tables, 1, channel=9100)
    held.release.set()
    assert (await reading).table.version in (2, 3)
    # What is cached (if anything) is the move's version: Bob's move is not refused as out
    # of date, and Alice is told it is not her turn.
    assert (await tables.live.load(table_id)).table.version == 3
    with pytest.raises(TableError, match="not your turn"):
        await tables.act(table_id, ALICE, "hold")
    await tables.act(table_id, BOB, "hold")
