"""Opening a SQLite database for the store: pragmas, the integrity check, the numbered
migrations (each in one transaction with its version bump), the reading connection, and the
aiosqlite connection each of them runs on."""

from __future__ import annotations

import logging
import sqlite3
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import aiosqlite

from bot.store.errors import IntegrityFailure
from bot.store.migrations import numbered

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5_000

# aiosqlite's threads are not daemons: one connection left open would keep the process from
# ever exiting. A watcher stops those still open once the main thread is done (each finishes
# the jobs queued before, a group commit under way included).
_still_open: weakref.WeakSet[aiosqlite.Connection] = weakref.WeakSet()
_watching = threading.Lock()


def migrations() -> list[tuple[int, str]]:
    return numbered("sqlite")


async def open_connection(path: str, prepare: Callable[[sqlite3.Connection], None]
                          ) -> tuple[aiosqlite.Connection, sqlite3.Connection]:
    """An aiosqlite connection to ``path``, made ready by ``prepare`` on its thread, and the
    sqlite3 connection it wraps, for the functions queued to that thread (``on_thread``)."""
    opened: list[sqlite3.Connection] = []

    def connector() -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None)  # used on this thread only
        db.row_factory = sqlite3.Row
        opened.append(db)
        return db

    conn = await aiosqlite.Connection(connector, iter_chunk_size=64)
    stop_at_exit(conn)
    try:
        await on_thread(conn, prepare, opened[0])
    except BaseException:
        await conn.close()
        raise
    return conn, opened[0]


def stop_at_exit(conn: aiosqlite.Connection) -> None:
    _still_open.add(conn)
    if _watching.acquire(blocking=False):  # the first connection starts the one watcher
        threading.Thread(target=_stop_when_main_ends, name="tabula-db-exit",
                         daemon=True).start()


def _stop_when_main_ends() -> None:
    threading.main_thread().join()  # returns as the interpreter begins to shut down
    for conn in list(_still_open):
        conn.stop()


async def on_thread(conn: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` as one job on ``conn``'s thread, in turn with the jobs queued before it:
    several statements for one hand-off. The store's one use of aiosqlite's private API (its
    ``_execute``, which every public method wraps): why, in ``bot.store.sqlite.commits``."""
    result: T = await conn._execute(fn, *args)  # type: ignore[no-untyped-call]
    return result


def prepare_writer(db: sqlite3.Connection) -> None:
    """The pragmas of the writing connection, the integrity check, pending migrations."""
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    check_integrity(db)
    migrate(db)


def prepare_reader(db: sqlite3.Connection) -> None:
    """A read-only connection beside the writer."""
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA query_only = ON")


def check_integrity(db: sqlite3.Connection) -> None:
    answers = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
    if answers != ["ok"]:
        raise IntegrityFailure("; ".join(str(a) for a in answers[:5]))


def user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection) -> None:
    current = user_version(db)
    for number, sql in migrations():
        if number <= current:
            continue
        # One transaction per migration, the version bump inside it: all or nothing.
        try:
            db.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        log.info("applied migration %04d", number)
