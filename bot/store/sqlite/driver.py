"""Scripts (``bot.store.sql.script``) run on a sqlite3 connection, on its own thread."""

from __future__ import annotations

import functools
import sqlite3
from datetime import datetime
from typing import Any, TypeVar

from bot.store.errors import UniqueViolation
from bot.store.sql.rows import iso
from bot.store.sql.script import Script, Statement, Want

T = TypeVar("T")

# SQLite's write transactions hold the whole database: a row lock is already held, and no
# other writer's rows are there to skip.
_ROW_LOCKS = (" FOR UPDATE SKIP LOCKED", " FOR UPDATE")


@functools.lru_cache(maxsize=1024)
def dialect(sql: str) -> str:
    """The store's SQL as SQLite takes it: without row-lock clauses."""
    for clause in _ROW_LOCKS:
        sql = sql.replace(clause, "")
    return sql


# Times are stored as ISO text (the PostgreSQL store's are ``timestamptz``). Registered with
# sqlite3 itself, which looks adapters up only for values of types it does not know: the
# store's ints and strings pass without a Python call.
# A change's one time is written several times (the table's row, each log row): converted once.
# One immutable pair, read and replaced whole: both connections' threads use it.
_last: list[tuple[datetime | None, str]] = [(None, "")]


def _time_text(moment: datetime) -> str:
    seen, text = _last[0]
    if seen is not moment:
        text = iso(moment)
        _last[0] = (moment, text)
    return text


sqlite3.register_adapter(datetime, _time_text)


def execute(db: sqlite3.Connection, statement: Statement) -> Any:
    sql, want = dialect(statement.sql), statement.want
    if want is Want.LOCK:
        return None
    try:
        if want is Want.MANY:
            db.executemany(sql, statement.params)
            return None
        cursor = db.execute(sql, statement.params)
    except sqlite3.IntegrityError as exc:
        if str(exc).startswith("UNIQUE"):
            raise UniqueViolation(str(exc)) from exc
        raise
    if want is Want.ROWS:
        return cursor.fetchall()
    if want is Want.COUNT:
        return cursor.rowcount
    found = cursor.fetchone()
    if want is Want.ROW or found is None:
        return found
    return found[0]


def run(db: sqlite3.Connection, script: Script[T]) -> T:
    try:
        statement = next(script)
        while True:
            statement = script.send(execute(db, statement))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        script.close()
