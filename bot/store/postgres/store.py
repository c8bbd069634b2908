"""The PostgreSQL store, through asyncpg: the interface and guarantees of the SQLite store, for
several bot processes sharing one database.

Every write is one transaction on a pooled connection; a move is one statement
(``postgres/steps.py``). COMMIT returns once the WAL is flushed (our sessions never run with
``synchronous_commit`` off): acknowledged means durable. Concurrent commits from the pool, and
from other processes, share WAL flushes: PostgreSQL's own group commit, so the store needs no
queue of its own. Scripts (``bot.store.sql.script``) run on a pooled connection, their ``?``
placeholders numbered as PostgreSQL's.

Migrations are numbered SQL files applied in one transaction under an advisory lock, their
versions rows of ``schema_version``: two processes that start at once take turns, the second
sees the first one's rows and applies nothing twice.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from bot.store.errors import IntegrityFailure, StoreError, UniqueViolation, newer_schema
from bot.store.migrations import numbered as migration_files
from bot.store.postgres.steps import write_steps
from bot.store.records import Step
from bot.store.sql.script import Script, Statement, Want, run_async
from bot.store.sql.store import Store
from bot.store.targets import redacted
from bot.store.transfer import postgres_to_sqlite

log = logging.getLogger(__name__)

T = TypeVar("T")

POOL_SIZE = 10
# Any fixed 64-bit number, the same in every Tabula process ("tabula" in ASCII).
MIGRATION_LOCK = 0x746162756C61
# A ``?`` outside quoted text: the store's SQL never has one inside.
_MARK = re.compile(r"\?")


async def _prepare(conn: asyncpg.Connection) -> None:
    # Run on each new pooled connection: a server or role configured with synchronous_commit=off
    # would acknowledge commits that a crash can lose, so our sessions put it back on.
    await conn.execute("SELECT CASE WHEN current_setting('synchronous_commit') = 'off'"
                       " THEN set_config('synchronous_commit', 'on', false) END")


def migrations() -> list[tuple[int, str]]:
    return migration_files("postgres")


async def applied(conn: asyncpg.Connection) -> int:
    """The last migration applied (0 on an empty database)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(conn: asyncpg.Connection) -> list[int]:
    """Apply every pending migration in one transaction; returns the numbers applied."""
    shipped = migrations()
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = await applied(conn)
        newest = shipped[-1][0] if shipped else 0
        if current > newest:
            raise newer_schema(current, newest)
        done = []
        for number, sql in shipped:
            if number <= current:
                continue
            await conn.execute(sql)
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            done.append(number)
    for number in done:
        log.info("applied PostgreSQL migration %04d", number)
    return done


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
    return await run_async(script, functools.partial(execute, conn))


class PostgresStore(Store):
    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._connections = PostgresDatabase(pool)
        super().__init__(self._connections)
        self.url = redacted(url)
        self.shared = True  # other bot processes may write the same tables

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect a pool, apply pending migrations (under the advisory lock), check."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, init=_prepare,
                                             server_settings={"application_name": "tabula"})
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"Could not connect to {redacted(url)}: {exc}") from exc
        store = cls(pool, url)
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
            await store.check_integrity()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def check_integrity(self) -> None:
        """The schema is one this program knows, and the core tables answer."""
        newest = migrations()[-1][0]
        async with self._pool.acquire() as conn:
            current = await applied(conn)
            if current != newest:
                raise IntegrityFailure(f"The database schema is at migration {current};"
                                       f" this program needs {newest}.")
            await conn.fetchval("SELECT count(*) FROM (SELECT 1 FROM game_tables LIMIT 1) AS t")

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await applied(conn)

    @property
    def commits(self) -> int:
        return self._connections.commits

    async def backup(self, target: str | Path) -> None:
        """A consistent snapshot of the database written as a SQLite file (the format of
        ``python -m bot backup`` with either store). Point-in-time recovery of a PostgreSQL
        deployment is the server's own business (base backups and WAL archiving)."""
        async with self._pool.acquire() as conn:
            await postgres_to_sqlite(conn, Path(target))


class PostgresDatabase:
    """The store's ``Database`` (``bot.store.sql.database``) on a pool: a script on one
    pooled connection, a write in one transaction."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self.commits = 0  # move transactions (the benches read it)

    async def query(self, statement: Statement) -> Any:
        async with self._pool.acquire() as conn:
            return await execute(conn, statement)

    # One statement outside a transaction block is a transaction of its own.
    execute = query

    async def read(self, script: Script[T]) -> T:
        async with self._pool.acquire() as conn:
            return await run(conn, script)

    async def write(self, script: Script[T]) -> T:
        async with self._pool.acquire() as conn, conn.transaction():
            return await run(conn, script)

    async def change(self, table_id: int, expected_version: int, steps: Sequence[Step],
                     then: Script[T] | None) -> tuple[int, T | None]:
        """The steps in one statement (``write_steps``), then ``then`` in a savepoint of the
        same transaction: one commit."""
        if then is None:
            if not steps:
                return expected_version, None
            async with self._pool.acquire() as conn:
                version = await write_steps(conn, table_id, expected_version, steps)
            self.commits += 1
            return version, None
        after: T | None = None
        async with self._pool.acquire() as conn, conn.transaction():
            version = expected_version
            if steps:
                version = await write_steps(conn, table_id, expected_version, steps)
            try:
                async with conn.transaction():
                    after = await run(conn, then)
            except Exception:
                log.exception("the follow-up of a change of table %s failed", table_id)
        if steps:
            self.commits += 1
        return version, after
