"""Opening a SQLite database for the store: pragmas, the integrity check, the numbered
migrations (each in one transaction with its version bump), and the reading connection."""

from __future__ import annotations

import logging
import sqlite3

from bot.store.errors import IntegrityFailure
from bot.store.migrations import numbered

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000


def migrations() -> list[tuple[int, str]]:
    return numbered("sqlite")


def connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        check_integrity(db)
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def connect_reader(path: str, writer: sqlite3.Connection) -> sqlite3.Connection:
    """A read-only connection beside the writer (an in-memory database has only the one)."""
    if path == ":memory:":
        return writer
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA query_only = ON")
    return db


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
