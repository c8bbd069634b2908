"""A table use-case stack with a fake clock and its scheduler, on each store (a temp SQLite
file, a fresh PostgreSQL database): ``store_target`` runs every test on both."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass

import asyncpg
import pytest

from bot.pace.clock import FakeClock
from bot.pace.scheduler import Scheduler, paced
from bot.store import Store, is_postgres, open_store
from bot.tables import Tables


@dataclass
class Stack:
    target: str  # what TABULA_DB would hold
    clock: FakeClock
    store: Store
    tables: Tables
    scheduler: Scheduler

    async def rows(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        """A raw read for checks (``?`` marks, as in SQLite), on either store."""
        if not is_postgres(self.target):
            with sqlite3.connect(self.target) as db:
                return db.execute(sql, params).fetchall()
        numbered = iter(range(1, sql.count("?") + 1))
        conn = await asyncpg.connect(self.target)
        try:
            found = await conn.fetch(re.sub(r"\?", lambda _: f"${next(numbered)}", sql), *params)
        finally:
            await conn.close()
        return [tuple(r.values()) for r in found]

    async def restart(self) -> None:
        """A new process on the same database: new store, tables and scheduler objects."""
        await self.store.close()
        self.store = await open_store(self.target)
        self.tables, self.scheduler = paced(self.store, self.clock)
        await self.scheduler.sync()


@pytest.fixture
async def stack(store_target: str, with_pebbles: None) -> AsyncIterator[Stack]:
    store = await open_store(store_target)
    clock = FakeClock()
    tables, scheduler = paced(store, clock)
    made = Stack(store_target, clock, store, tables, scheduler)
    yield made
    await made.store.close()
