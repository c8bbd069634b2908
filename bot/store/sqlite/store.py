"""The SQLite store, through aiosqlite.

WAL journal, ``synchronous=FULL``, foreign keys on, a busy timeout, and every write inside
``BEGIN IMMEDIATE`` (a deferred transaction that reads first fails at once with "database is
locked" in WAL mode), group-committed (``bot.store.sqlite.commits``). Two aiosqlite
connections, each on a thread of its own: the writer, and a read-only reader (in WAL mode a
reader never waits for a writer, so lookups do not queue behind a group commit's fsync).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.records import Step
from bot.store.sql.script import Script, Statement, Want, single
from bot.store.sql.store import Store
from bot.store.sql.tables import write_steps
from bot.store.sqlite import setup
from bot.store.sqlite.commits import GroupCommitter, Queued
from bot.store.sqlite.driver import dialect, execute, run

__all__ = ["SqliteStore"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class SqliteStore(Store):
    def __init__(self, path: str, writer: aiosqlite.Connection, db: sqlite3.Connection,
                 reader: tuple[aiosqlite.Connection, sqlite3.Connection] | None) -> None:
        self._connections = SqliteDatabase(writer, db, reader)
        super().__init__(self._connections)
        self.path = path
        self.shared = False  # one process owns the file: in-memory copies stay current

    @classmethod
    async def open(cls, path: str | Path, *, empty_ok: bool = False) -> SqliteStore:
        """Connect, set the pragmas, check integrity, and apply pending migrations. A
        database is created only where there is no file: a file already there must hold a
        Tabula schema (``NotTabula`` otherwise; with ``empty_ok`` a 0-byte file is taken as
        new, as ``python -m bot migrate`` does)."""
        name = str(path)
        # Looked at before connecting: connecting creates the file.
        existing = name != ":memory:" and await asyncio.to_thread(os.path.exists, name)
        prepare = functools.partial(setup.prepare_writer, existing=existing, empty_ok=empty_ok)
        writer, db = await setup.open_connection(name, prepare)
        if name == ":memory:":
            return cls(name, writer, db, None)
        try:
            reader = await setup.open_connection(name, setup.prepare_reader)
        except BaseException:
            await writer.close()
            raise
        return cls(name, writer, db, reader)

    async def close(self) -> None:
        await self._connections.close(self.path)

    async def check_integrity(self) -> None:
        await self._connections.outside(setup.check_integrity)

    async def schema_version(self) -> int:
        return await self._connections.outside(setup.user_version)

    @property
    def commits(self) -> int:
        return self._connections.commits.commits

    async def backup(self, target: str | Path) -> None:
        """An online, consistent copy (SQLite's backup API) while the bot keeps running."""
        def copy(db: sqlite3.Connection) -> None:
            with closing(sqlite3.connect(str(target))) as dest:
                db.backup(dest)

        await self._connections.outside(copy)


class SqliteDatabase:
    """The store's ``Database`` (``bot.store.sql.database``): scripts run on the writer's
    thread inside a group commit, or on the reader's thread."""

    def __init__(self, writer: aiosqlite.Connection, db: sqlite3.Connection,
                 reader: tuple[aiosqlite.Connection, sqlite3.Connection] | None) -> None:
        self._writer = writer
        self.commits = GroupCommitter(writer, db)
        # None for an in-memory database: it has only the one connection.
        self._reader: aiosqlite.Connection | None = None
        self._reader_db: sqlite3.Connection | None = None
        if reader is not None:
            self._reader, self._reader_db = reader

    async def outside(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the writer's thread, between two group commits."""
        return await self.commits.outside(fn)

    async def close(self, path: str) -> None:
        await self.commits.flush()
        if self._reader is not None:
            await self._reader.close()
            # A clean stop leaves the main file complete on its own, so that a copy of it
            # alone holds every move. SQLite does so itself only when the last connection to
            # the file closes, and the web pages or a backup may hold another one.
            try:
                if await self.outside(setup.checkpoint):
                    log.warning("%s: a reader kept part of the WAL from the main file", path)
            except sqlite3.Error as exc:
                log.warning("%s: could not checkpoint the WAL: %s", path, exc)
        await self._writer.close()

    async def query(self, statement: Statement) -> Any:
        if self._reader is None:
            return await self.outside(functools.partial(execute, statement=statement))
        if statement.want is not Want.ROWS:
            return await self.read(single(statement))
        found = await self._reader.execute_fetchall(dialect(statement.sql), statement.params)
        return list(found)

    async def read(self, script: Script[T]) -> T:
        """On the reader's thread: committed data, never waiting for a write under way."""
        fn = functools.partial(run, script=script)
        if self._reader is None:
            return await self.outside(fn)
        return await setup.on_thread(self._reader, fn, self._reader_db)

    async def execute(self, statement: Statement) -> Any:
        return await self.write(single(statement))

    async def write(self, script: Script[T]) -> T:
        """One all-or-nothing write, group-committed (in a savepoint of its own) with whatever
        else waits: a lobby or a deadline costs no fsync of its own."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.commits.submit(Queued(script, done))
        return await done

    async def change(self, table_id: int, expected_version: int, steps: Sequence[Step],
                     then: Script[T] | None) -> tuple[int, T | None]:
        """Queued for the next group commit; ``then`` runs after the steps in a savepoint of
        its own (None as its result when it failed)."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        item = Queued(write_steps(table_id, expected_version, steps), done, then,
                      moves=bool(steps))
        self.commits.submit(item)
        version = await done
        return version, (item.after[0] if item.after else None)
