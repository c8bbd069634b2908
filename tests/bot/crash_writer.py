"""A process that plays Pebbles moves as fast as it can and prints each acknowledged version.

Run as ``python -m tests.bot.crash_writer DB``; the crash test kills it with SIGKILL mid-stream.
"""

from __future__ import annotations

import asyncio
import sys

import rules
from bot.store import SqliteStore
from bot.tables import Tables
from bot.values import Member
from tests.pebbles import GAME

ALICE, BOB = Member(1, "Alice"), Member(2, "Bob")


async def main(path: str) -> None:
    rules.GAMES[GAME.id] = GAME
    store = await SqliteStore.open(path)
    tables = Tables(store)
    opened = await tables.open("pebbles", 1, ALICE, options={"turns": 1_000_000, "first": 0},
                               seat_order="join")
    await tables.join(opened.table_id, BOB)
    notice = await tables.start(opened.table_id, ALICE)
    for n in range(1_000_000):
        mover = ALICE if n % 2 == 0 else BOB
        notice = await tables.act(notice.table_id, mover, "hold", idem_key=f"k{n}")
        # Printed only after the commit returned: this is the acknowledgement.
        print(f"ACK {notice.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
