"""Two bot processes on one PostgreSQL database (two stores, two pools, two schedulers on one
clock): every deadline and every reminder fires exactly once, whichever process claims it."""

from __future__ import annotations

import asyncio
from collections import Counter

import asyncpg

from bot.pace.clock import FakeClock, epoch
from bot.pace.model import DAY, HOUR, make_timing
from bot.pace.notices import MoveNotice, Reminder
from bot.pace.scheduler import paced
from bot.store import open_store
from tests.conftest import ALICE, BOB

TABLES = 8
ROUNDS = 3


async def test_two_schedulers_fire_each_deadline_once(postgres_url: str, with_pebbles: None
                                                      ) -> None:
    clock = FakeClock()
    stores = [await open_store(postgres_url), await open_store(postgres_url)]
    try:
        schedulers = [paced(s, clock)[1] for s in stores]
        first = schedulers[0]
        for channel in range(TABLES):
            opened = await first.tables.open("pebbles", 500 + channel, ALICE,
                                             options={"first": 0}, seat_order="join")
            await first.set_timing(opened.table_id, make_timing("daily"), ALICE)
            await first.tables.join(opened.table_id, BOB)
            await first.tables.start(opened.table_id, ALICE)
        moves: list[MoveNotice] = []
        reminders: list[Reminder] = []
        for _ in range(ROUNDS):
            clock.advance(DAY - HOUR // 2)  # reminders fall due
            for fired in await asyncio.gather(*(s.tick() for s in schedulers)):
                reminders += [d for d in fired if isinstance(d, Reminder)]
            clock.advance(HOUR)  # deadlines fall due
            for fired in await asyncio.gather(*(s.tick() for s in schedulers)):
                moves += [d for d in fired if isinstance(d, MoveNotice)]
    finally:
        for s in stores:
            await s.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        fired_turns = {r["id"] for r in await conn.fetch(
            "SELECT id FROM turns WHERE fired_at IS NOT NULL")}
        keys = Counter(r["idem_key"] for r in await conn.fetch(
            "SELECT idem_key FROM actions WHERE idem_key LIKE 'deadline:%'"))
        sent = await conn.fetchval("SELECT count(*) FROM reminders WHERE fired_at IS NOT NULL")
    finally:
        await conn.close()
    # Every round, each table's seat to move ran out of time once: one move per deadline,
    # made by exactly one of the two processes.
    assert len(fired_turns) == TABLES * ROUNDS
    assert set(keys) == {f"deadline:{t}" for t in fired_turns}
    assert set(keys.values()) == {1}
    assert len(moves) == TABLES * ROUNDS
    # One reminder row sent per deadline; each process tells the members it claimed for.
    assert sent == TABLES * ROUNDS
    assert 1 <= len(reminders) <= 2 * ROUNDS


async def test_of_two_processes_claiming_one_row_exactly_one_wins(postgres_url: str,
                                                                  with_pebbles: None) -> None:
    clock = FakeClock()
    stores = [await open_store(postgres_url), await open_store(postgres_url)]
    try:
        scheduler = paced(stores[0], clock)[1]
        for channel in range(TABLES):
            opened = await scheduler.tables.open("pebbles", 600 + channel, ALICE,
                                                 options={"first": 0}, seat_order="join")
            await scheduler.set_timing(opened.table_id, make_timing("daily"), ALICE)
            await scheduler.tables.join(opened.table_id, BOB)
            await scheduler.tables.start(opened.table_id, ALICE)
        now = epoch(clock) + 2 * DAY
        turns = await stores[0].due_turns(now)
        reminders = await stores[0].due_reminders(now)
        assert len(turns) == len(reminders) == TABLES
        # Both processes claim every row at once, twice over.
        turn_wins = await asyncio.gather(*(s.claim_turn(t.id, now)
                                           for t in turns for s in stores * 2))
        reminder_wins = await asyncio.gather(*(s.claim_reminder(r.id, now)
                                               for r in reminders for s in stores * 2))
    finally:
        for s in stores:
            await s.close()
    assert [sum(turn_wins[i * 4:i * 4 + 4]) for i in range(TABLES)] == [1] * TABLES
    assert [sum(reminder_wins[i * 4:i * 4 + 4]) for i in range(TABLES)] == [1] * TABLES
