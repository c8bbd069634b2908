"""Scripts (``bot.store.sql.script``) run on an asyncpg connection."""

from __future__ import annotations

import functools
import re
from typing import Any, TypeVar

import asyncpg

from bot.store.errors import UniqueViolation
from bot.store.sql.script import Script, Statement, Want

T = TypeVar("T")

# A ``?`` outside quoted text: the store's SQL never has one inside.
_MARK = re.compile(r"\?")


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, sql.count("?") + 1))
    return _MARK.sub(lambda _: f"${next(counter)}", sql)


async def execute(conn: asyncpg.Connection, statement: Statement) -> Any:
    sql, params, want = numbered(statement.sql), statement.params, statement.want
    try:
        if want is Want.ROWS:
            return await conn.fetch(sql, *params)
        if want is Want.ROW:
            return await conn.fetchrow(sql, *params)
        if want is Want.VALUE:
            return await conn.fetchval(sql, *params)
        if want is Want.LOCK:
            await conn.execute(f"LOCK TABLE {statement.sql} IN SHARE ROW EXCLUSIVE MODE")
            return None
        if want is Want.MANY:
            await conn.executemany(sql, params)
            return None
        status: str = await conn.execute(sql, *params)
    except asyncpg.UniqueViolationError as exc:
        raise UniqueViolation(str(exc), exc.constraint_name) from exc
    # "UPDATE 3", "DELETE 1", "INSERT 0 1": the last word is the count.
    return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0


async def run(conn: asyncpg.Connection, script: Script[T]) -> T:
    """The script to its end, each statement on ``conn``; what it returns."""
    try:
        statement = next(script)
        while True:
            statement = script.send(await execute(conn, statement))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        script.close()
