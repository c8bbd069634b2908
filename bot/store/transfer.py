"""Every row between a SQLite file and a PostgreSQL database: ``migrate-db`` (SQLite to
PostgreSQL) and PostgreSQL backups (PostgreSQL to a SQLite file).

Tables and columns are read from the two schemas, not listed here, so the tables of a new
migration travel without a change in this module; a table or column one side lacks is an error.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from bot.store.errors import StoreError
from bot.store.sql.rows import iso
from bot.store.sql.script import marks
from bot.store.sqlite.store import SqliteStore

BATCH = 2_000
PG_ONLY = {"schema_version"}


class TransferError(StoreError):
    pass


Layout = list[tuple[str, list[str]]]


async def sqlite_layout(db: aiosqlite.Connection) -> Layout:
    """The SQLite file's tables with their columns, parents before the tables that refer to them."""
    names = [r[0] for r in await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name")]
    parents, columns = {}, {}
    for name in names:
        keys = await db.execute_fetchall(f'PRAGMA foreign_key_list("{name}")')
        parents[name] = {str(k[2]) for k in keys} - {name}
        info = await db.execute_fetchall(f'PRAGMA table_info("{name}")')
        columns[name] = [str(c[1]) for c in info]
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise TransferError("The SQLite schema has a cycle of foreign keys.")
        ordered.extend(ready)
    return [(name, columns[name]) for name in ordered]


async def check_same_tables(conn: asyncpg.Connection, layout: Layout) -> dict[str, dict[str, str]]:
    """The PostgreSQL column types of every table, once both schemas are known to match."""
    found = await conn.fetch(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    extra = {r["table_name"] for r in found} - PG_ONLY - {name for name, _ in layout}
    if extra:
        raise TransferError(f"PostgreSQL has tables SQLite lacks: {', '.join(sorted(extra))}.")
    types = {}
    for name, columns in layout:
        found = await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1", name)
        types[name] = {r["column_name"]: r["data_type"] for r in found}
        if set(types[name]) != set(columns):
            raise TransferError(
                f"Table {name} differs: SQLite has {sorted(columns)}, "
                f"PostgreSQL {sorted(types[name])}. Are both at the same migration?"
            )
    return types


def to_postgres(value: Any, pg_type: str) -> Any:
    if value is None:
        return None
    if pg_type == "boolean":
        return bool(value)
    if pg_type == "double precision":
        return float(value)
    if pg_type == "timestamp with time zone":
        moment = datetime.fromisoformat(str(value))
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return value


def to_sqlite(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime):
        return iso(value)
    return value


async def row_counts(conn: asyncpg.Connection, tables: Sequence[str]) -> dict[str, int]:
    return {t: int(await conn.fetchval(f'SELECT count(*) FROM "{t}"')) for t in tables}


async def sqlite_to_postgres(source: aiosqlite.Connection, target: asyncpg.Connection
                             ) -> dict[str, int]:
    """Copy every row; the caller holds ``target`` in a transaction and ``source`` in a read
    transaction (one consistent snapshot). Returns the rows copied per table."""
    layout = await sqlite_layout(source)
    types = await check_same_tables(target, layout)
    copied = {}
    for name, columns in layout:
        kinds = [types[name][c] for c in columns]
        cursor = await source.execute(f'SELECT {_list(columns)} FROM "{name}" ORDER BY rowid')
        copied[name] = 0
        while batch := list(await cursor.fetchmany(BATCH)):
            try:
                records = [tuple(to_postgres(v, k) for v, k in zip(r, kinds, strict=True))
                           for r in batch]
            except (TypeError, ValueError) as exc:
                raise TransferError(f"A row of {name} does not fit PostgreSQL: {exc}") from exc
            await target.copy_records_to_table(name, records=records, columns=columns)
            copied[name] += len(records)
        await cursor.close()
        await _advance_identities(target, name)
    return copied


async def _advance_identities(conn: asyncpg.Connection, table: str) -> None:
    """Rows copied with their ids leave the identity sequence behind; move it past them."""
    found = await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema ="
        " current_schema() AND table_name = $1 AND is_identity = 'YES'", table)
    for row in found:
        column = row["column_name"]
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(MAX(\"{column}\"), 1),"
            f" MAX(\"{column}\") IS NOT NULL) FROM \"{table}\"", table, column)


async def postgres_to_sqlite(conn: asyncpg.Connection, target: Path) -> dict[str, int]:
    """Write one consistent snapshot of the PostgreSQL database as a new SQLite file."""
    partial = target.with_name(target.name + ".partial")
    for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    await (await SqliteStore.open(partial)).close()  # the SQLite schema, fully migrated
    copied = {}
    async with aiosqlite.connect(partial, isolation_level=None) as db:
        layout = await sqlite_layout(db)
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            await check_same_tables(conn, layout)
            await db.execute("BEGIN")
            for name, columns in layout:
                insert = f'INSERT INTO "{name}" ({_list(columns)}) VALUES ({marks(len(columns))})'
                copied[name] = 0
                cursor = await conn.cursor(f'SELECT {_list(columns)} FROM "{name}" ORDER BY 1')
                while batch := [tuple(map(to_sqlite, r)) for r in await cursor.fetch(BATCH)]:
                    await db.executemany(insert, batch)
                    copied[name] += len(batch)
            await db.execute("COMMIT")
        # One self-contained file: no -wal beside it once renamed.
        await db.execute("PRAGMA journal_mode = DELETE")
    os.replace(partial, target)
    return copied


def _list(columns: Sequence[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)
