"""A process that commits one move, says so, and waits to be killed before announcing it.

Run as ``python -m tests.bot.tables.crash_unannounced DB``.
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
    opened = await tables.open("pebbles", 1, ALICE, options={"first": 0}, seat_order="join")
    await tables.join(opened.table_id, BOB)
    started = await tables.start(opened.table_id, ALICE)
    await tables.mark_announced(opened.table_id, started.version)
    notice = await tables.act(opened.table_id, ALICE, "hold")
    print(f"COMMITTED {notice.version}", flush=True)
    await asyncio.sleep(60)  # killed here, before the move is posted


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
