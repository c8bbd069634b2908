"""A table use-case stack on a temp-file store with a fake clock and its scheduler."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.pace.clock import FakeClock
from bot.pace.scheduler import Scheduler
from bot.store import SqliteStore
from bot.tables import Tables


@dataclass
class Stack:
    path: Path
    clock: FakeClock
    store: SqliteStore
    tables: Tables
    scheduler: Scheduler

    async def restart(self) -> None:
        """A new process on the same database: new store, tables and scheduler objects."""
        await self.store.close()
        self.store = await SqliteStore.open(self.path)
        self.tables = Tables(self.store)
        self.scheduler = Scheduler(self.tables, self.clock)
        await self.scheduler.sync()


@pytest.fixture
async def stack(tmp_path: Path, with_pebbles: None) -> AsyncIterator[Stack]:
    path = tmp_path / "tabula.db"
    store = await SqliteStore.open(path)
    tables = Tables(store)
    clock = FakeClock()
    made = Stack(path, clock, store, tables, Scheduler(tables, clock))
    yield made
    await made.store.close()
