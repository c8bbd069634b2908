"""``open_store``: the backend named by ``TABULA_DB`` (a SQLite file path, or a PostgreSQL URL)."""

from __future__ import annotations

from pathlib import Path

from bot.store.errors import StoreError
from bot.store.interface import Store
from bot.store.sqlite.store import SqliteStore
from bot.store.targets import is_postgres, redacted

__all__ = ["is_postgres", "open_store", "redacted"]

async def open_store(target: str | Path) -> Store:
    """Open (and migrate) the store ``target`` names: a ``postgresql://`` URL, else a file."""
    if not is_postgres(target):
        return await SqliteStore.open(target)
    try:
        # Imported only here: asyncpg is the optional ``tabula[postgres]`` dependency.
        from bot.store.postgres.store import PostgresStore
    except ImportError as exc:
        raise StoreError(
            "TABULA_DB is a PostgreSQL URL but asyncpg is not installed: "
            "pip install 'tabula[postgres]'."
        ) from exc
    return await PostgresStore.open(str(target))
