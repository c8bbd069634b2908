"""A process that plays Pebbles moves as fast as it can and prints each acknowledged version.

    python -m tests.bot.store.crash_writer TARGET               its own table, channel 1
    python -m tests.bot.store.crash_writer TARGET CHANNEL       the live table of CHANNEL, shared

TARGET is what ``TABULA_DB`` holds (a SQLite path or a PostgreSQL URL). The crash tests kill it
with SIGKILL mid-stream. On a shared table every move is keyed by the version it starts from,
so two writers never apply one move twice: one of them is told it was a duplicate.
"""

from __future__ import annotations

import asyncio
import sys

import rules
from bot.store import open_store
from bot.tables import Tables
from bot.values import Member, OutOfDate
from tests.pebbles import GAME

ALICE, BOB = Member(1, "Alice"), Member(2, "Bob")


async def own_table(tables: Tables) -> None:
    opened = await tables.open("pebbles", 1, ALICE, options={"turns": 1_000_000, "first": 0},
                               seat_order="join")
    await tables.join(opened.table_id, BOB)
    notice = await tables.start(opened.table_id, ALICE)
    for n in range(1_000_000):
        mover = ALICE if n % 2 == 0 else BOB
        notice = await tables.act(notice.table_id, mover, "hold", idem_key=f"k{n}")
        # Printed only after the commit returned: this is the acknowledgement.
        print(f"ACK {notice.version}", flush=True)


async def shared_table(tables: Tables, channel: int, until: int) -> list[int]:
    """Play whoever is to move until the table's version reaches ``until``; returns the
    versions this writer applied (not those it was told were duplicates)."""
    applied = []
    table_id = (await tables.table_in(channel)).id
    while True:
        seen = await tables.status(table_id)
        if seen.version >= until:
            return applied
        mover = ALICE if ALICE.id in seen.next_members else BOB
        try:
            done = await tables.act(seen.table_id, mover, "hold", idem_key=f"v{seen.version}",
                                    expected_version=seen.version)
        except OutOfDate:
            continue  # the other writer moved first: look again
        if not done.duplicate:
            applied.append(done.version)
            print(f"ACK {done.version}", flush=True)


async def main(target: str, channel: int | None) -> None:
    rules.GAMES[GAME.id] = GAME
    store = await open_store(target)
    tables = Tables(store)
    if channel is None:
        await own_table(tables)
    else:
        await shared_table(tables, channel, 1_000_000)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None))
