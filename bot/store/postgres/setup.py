"""PostgreSQL migrations: numbered SQL files applied in one transaction under an advisory lock.

Applied versions are rows of ``schema_version``. The lock makes two processes that start at
once take turns: the second sees the first one's rows and applies nothing twice.
"""

from __future__ import annotations

import logging

import asyncpg

from bot.store.errors import newer_schema
from bot.store.migrations import numbered

log = logging.getLogger(__name__)

# Any fixed 64-bit number, the same in every Tabula process ("tabula" in ASCII).
MIGRATION_LOCK = 0x746162756C61


def migrations() -> list[tuple[int, str]]:
    return numbered("postgres")


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
