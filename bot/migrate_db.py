"""``python -m bot migrate-db --from tabula.db --to postgresql://...``: move a SQLite database
into an empty PostgreSQL one.

Every table of the SQLite file (games, seats, logs, previews, leagues, and whatever later
migrations add) is copied in one PostgreSQL transaction; the row counts are compared and every
live table's log is replayed against its snapshot before that transaction commits, so on any
failure nothing is written. Stop the bot first: the copy is what the file held when it began.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import aiosqlite
import asyncpg

from bot.store import SqliteStore, StoreError, is_postgres, redacted
from bot.store.postgres.store import MIGRATION_LOCK, PostgresStore
from bot.store.sql.tables import action_record, table_record
from bot.store.transfer import check_same_tables, row_counts, sqlite_layout, sqlite_to_postgres
from bot.tables import gamelog
from rules import GAMES


class MigrationFailed(Exception):
    pass


def checked(source: str, target: str) -> Path:
    """The source file's absolute path, once both arguments make sense."""
    if not is_postgres(target):
        raise MigrationFailed(f"--to must be a postgresql:// URL, not {target!r}.")
    path = Path(source)
    if not path.is_file():
        raise MigrationFailed(f"There is no SQLite file at {source}.")
    return path.resolve()


async def migrate(path: Path, target: str) -> str:
    """Copy, check, commit; returns the summary line."""
    # The file at the schema this program writes (what the bot does when it starts).
    await (await SqliteStore.open(path)).close()
    await (await PostgresStore.open(target)).close()  # the PostgreSQL schema, migrated
    conn = await asyncpg.connect(target)
    try:
        async with conn.transaction(), aiosqlite.connect(
            path.as_uri() + "?mode=ro", uri=True
        ) as src:
            # No second migrate-db (nor a starting bot's migration) in between.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await src.execute("BEGIN")  # one consistent snapshot of the file
            layout = await sqlite_layout(src)
            await check_same_tables(conn, layout)
            names = [name for name, _ in layout]
            filled = {t: n for t, n in (await row_counts(conn, names)).items() if n}
            if filled:
                table, rows = next(iter(filled.items()))
                raise MigrationFailed(
                    f"The target database is not empty ({table} has {rows} rows); "
                    "migrate-db writes only into an empty one."
                )
            expected = {}
            for name in names:
                found = await src.execute_fetchall(f'SELECT count(*) FROM "{name}"')
                expected[name] = int(next(iter(found))[0])
            await sqlite_to_postgres(src, conn)
            copied = await row_counts(conn, names)
            if copied != expected:
                raise MigrationFailed(f"Row counts differ after the copy: {copied} != {expected}.")
            replayed = await replay_live_tables(conn)
            await src.execute("ROLLBACK")
    finally:
        await conn.close()
    counts = ", ".join(f"{n} {name}" for name, n in copied.items())
    return (f"Copied {counts} into {redacted(target)}; "
            f"{replayed} live tables replay to their snapshots.")


async def replay_live_tables(conn: asyncpg.Connection) -> int:
    """Rebuild every live table from its seed and log; each must give its stored snapshot."""
    found = await conn.fetch(
        "SELECT * FROM game_tables WHERE status IN ('lobby', 'playing')"
        " AND snapshot IS NOT NULL ORDER BY id"
    )
    for row in found:
        table = table_record(row)
        game = GAMES.get(table.game_id)
        if game is None:
            raise MigrationFailed(
                f"Table {table.id} plays {table.game_id!r}, a game this program does not know."
            )
        players = await conn.fetchval("SELECT count(*) FROM seats WHERE table_id = $1", table.id)
        log = [action_record(r) for r in await conn.fetch(
            "SELECT * FROM actions WHERE table_id = $1 ORDER BY version", table.id
        )]
        try:
            state = gamelog.rebuild(game, table, players, gamelog.effective(log))
            same = game.dump(state) == table.snapshot
        except Exception as exc:
            raise MigrationFailed(f"Table {table.id}: its log does not replay ({exc}).") from exc
        if not same:
            raise MigrationFailed(
                f"Table {table.id} ({table.game_id}): its log does not replay to its snapshot."
            )
    return len(found)


def run(source: str, target: str) -> int:
    """``python -m bot migrate-db --from SOURCE --to TARGET`` once its arguments are parsed
    (the parser is in ``bot.__main__``, so that its --help needs no asyncpg)."""
    try:
        summary = asyncio.run(migrate(checked(source, target), target))
    except (MigrationFailed, StoreError, OSError, sqlite3.Error, asyncpg.PostgresError,
            asyncpg.InterfaceError) as exc:
        text = " ".join(str(exc).split()) or type(exc).__name__
        print(f"migrate-db: nothing was written: {text}", file=sys.stderr)
        return 1
    print(summary)
    return 0
