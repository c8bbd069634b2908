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

from bot.store.errors import IntegrityFailure, NotTabula, newer_schema
from bot.store.migrations import numbered

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5_000

# Every Tabula schema has it, from the first migration on.
CORE_TABLE = "game_tables"
RESTORE = ("To restore, stop the bot and put a copy made by `python -m bot backup` in its place "
           "(or the file with its -wal file beside it); to start anew, move this file away.")

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


def prepare_writer(db: sqlite3.Connection, *, existing: bool = False,
                   empty_ok: bool = False) -> None:
    """The pragmas of the writing connection, the integrity check, pending migrations. A file
    that was there before (``existing``) must hold a Tabula schema this program knows, or be
    empty (0 bytes) when ``empty_ok``: it is checked before anything writes to it."""
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if existing:
        check_tabula(db, empty_ok=empty_ok)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    check_integrity(db)
    migrate(db)


def prepare_reader(db: sqlite3.Connection) -> None:
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA query_only = ON")


def check_tabula(db: sqlite3.Connection, *, empty_ok: bool = False) -> None:
    """Refuse a file the bot would otherwise take for a new, empty database (migrating it
    would hide the games that are elsewhere), and a schema newer than this program's."""
    version = user_version(db)
    newest = migrations()[-1][0]
    if version > newest:
        raise newer_schema(version, newest)
    tables = sorted(row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    if version > 0 and CORE_TABLE in tables:
        return
    if tables:
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
        raise NotTabula(f"The file is not a Tabula database (it holds other tables: {shown}). "
                        f"Check TABULA_DB. {RESTORE}")
    if int(db.execute("PRAGMA page_count").fetchone()[0]) == 0:
        if empty_ok:
            return
        raise NotTabula("The file is empty (0 bytes), not a Tabula database: likely a copy that "
                        f"failed, or a file made by hand. {RESTORE}")
    # While games are played they sit in the -wal file; the main file may be a bare header.
    raise NotTabula("The file holds no tables, not a Tabula database: likely a copy made "
                    "without its -wal file while the bot ran (the games were in that file). "
                    f"{RESTORE}")


def checkpoint(db: sqlite3.Connection) -> bool:
    """Copy the whole WAL into the main file and empty it: the main file is then complete
    on its own. True when a reader kept SQLite from copying all of it (busy)."""
    return bool(db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0])


def check_integrity(db: sqlite3.Connection) -> None:
    answers = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
    if answers != ["ok"]:
        raise IntegrityFailure("; ".join(str(a) for a in answers[:5]))


def user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection) -> None:
    current = user_version(db)
    shipped = migrations()
    if shipped and current > shipped[-1][0]:
        raise newer_schema(current, shipped[-1][0])
    for number, sql in shipped:
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
