"""``open_store``: the backend named by ``TABULA_DB`` (a SQLite file path, or a PostgreSQL URL)."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.store.errors import NotTabula, StoreError, newer_schema
from bot.store.migrations import numbered
from bot.store.sql.store import Store
from bot.store.sqlite import setup as sqlite_setup
from bot.store.sqlite.store import SqliteStore
from bot.store.targets import is_postgres, redacted

__all__ = ["POSTGRES_INSTALL", "check_database", "is_postgres", "migrate_schema", "open_store",
           "redacted", "schema_version_at"]

# What installs the optional PostgreSQL driver (the project's ``postgres`` extra, from a
# checkout): the one hint every "asyncpg is not installed" message gives.
POSTGRES_INSTALL = "pip install -e '.[postgres]'"
NO_DRIVER = f"TABULA_DB is a PostgreSQL URL but asyncpg is not installed: {POSTGRES_INSTALL}"


async def open_store(target: str | Path, *, empty_ok: bool = False) -> Store:
    """Open (and migrate) the store ``target`` names: a ``postgresql://`` URL, else a file
    (created where there is none; ``empty_ok`` takes a 0-byte file for a new one too)."""
    if not is_postgres(target):
        return await SqliteStore.open(target, empty_ok=empty_ok)
    try:
        # Imported only here: asyncpg is the optional ``postgres`` extra.
        from bot.store.postgres.store import PostgresStore
    except ImportError as exc:
        raise StoreError(NO_DRIVER) from exc
    return await PostgresStore.open(str(target))


async def check_database(target: str | Path) -> None:
    """Refuse, before anything else starts, an existing SQLite file the store would refuse
    (``NotTabula``, a newer schema): read only, nothing is written. A missing file (created on
    open) and PostgreSQL (checked as it is opened) pass."""
    if not is_postgres(target):
        await asyncio.to_thread(_check_sqlite, Path(target))


def _check_sqlite(path: Path) -> None:
    if path.exists():
        with closing(sqlite3.connect(path)) as db:
            sqlite_setup.check_tabula(db)


async def schema_version_at(target: str | Path) -> int:
    """The schema version ``target`` is at, read without migrating or creating anything: 0 for
    a SQLite file that is not there yet, or an empty database."""
    if not is_postgres(target):
        return await asyncio.to_thread(_sqlite_version, Path(target))
    try:
        # Imported only here: asyncpg is the optional ``postgres`` extra.
        import asyncpg

        from bot.store.postgres.store import applied
    except ImportError as exc:
        raise StoreError(NO_DRIVER) from exc
    try:
        conn = await asyncpg.connect(str(target))
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise StoreError(f"Could not connect to {redacted(target)}: {exc}") from exc
    try:
        return await applied(conn)
    finally:
        await conn.close()


def _sqlite_version(path: Path) -> int:
    if not path.exists():
        return 0
    # Read-only: a file that is not a database fails here, before anything writes to it.
    with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as db:
        return sqlite_setup.user_version(db)


async def migrate_schema(target: str | Path) -> tuple[int, int]:
    """Apply every pending migration to ``target`` as opening the store does (a SQLite file
    not there yet is created, and so is a 0-byte one: the command is the ask to create, and
    such a file holds nothing to lose); returns the schema version before and after."""
    before = await schema_version_at(target)
    shipped = numbered("postgres" if is_postgres(target) else "sqlite")
    newest = shipped[-1][0] if shipped else 0
    if before > newest:
        raise StoreError(f"{redacted(target)}: {newer_schema(before, newest)}")
    if not is_postgres(target):
        try:
            return before, await _opened_version(target)
        except NotTabula as exc:
            raise NotTabula(f"{redacted(target)}: {exc}") from exc
    import asyncpg  # importable: reading the version above used it

    try:
        return before, await _opened_version(target)
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        # A migration the server refused: one line, as a refused connection gets.
        raise StoreError(f"{redacted(target)}: {exc}") from exc


async def _opened_version(target: str | Path) -> int:
    store = await open_store(target, empty_ok=True)
    try:
        return await store.schema_version()
    finally:
        await store.close()
