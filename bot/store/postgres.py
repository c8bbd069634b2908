"""The PostgreSQL store, through asyncpg: the interface and guarantees of the SQLite store, for
several bot processes sharing one database.

Every write is one transaction on a pooled connection. The version check is the UPDATE of the
table's row itself (``WHERE version = $expected``): PostgreSQL holds that row lock until commit
and re-checks the condition for a writer that waited on it, so of two processes racing on one
table exactly one wins and the other gets ``StaleVersion``. A move (snapshot and log row) is a
single statement, so a single round trip. COMMIT returns once the WAL is flushed (our sessions
never run with ``synchronous_commit`` off): acknowledged means durable. Concurrent commits from
the pool share WAL flushes, which is PostgreSQL's own group commit.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import postgres_rows as rows
from bot.store.errors import (
    AlreadyExists,
    AlreadySeated,
    ChannelBusy,
    DuplicateKey,
    IntegrityFailure,
    StaleVersion,
)
from bot.store.postgres_schema import applied, migrate, migrations
from bot.store.records import (
    ActionRecord,
    LeagueRecord,
    NewAction,
    PendingMove,
    SeatRecord,
    TableRecord,
)
from bot.store.transfer import postgres_to_sqlite

POOL_SIZE = 10
STALE = "This table changed meanwhile; look at the latest board."

# Run on each new pooled connection: a server or role configured with synchronous_commit=off
# would acknowledge commits that a crash can lose, so our sessions put it back on.
_DURABLE = (
    "SELECT CASE WHEN current_setting('synchronous_commit') = 'off'"
    " THEN set_config('synchronous_commit', 'on', false) END"
)


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, user = head.partition("://")
    return f"{scheme}://{user.split(':', 1)[0]}@{tail}"


async def _prepare(conn: asyncpg.Connection) -> None:
    await conn.execute(_DURABLE)


class PostgresStore:
    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = redacted(url)

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect a pool, apply pending migrations (under the advisory lock), check."""
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=pool_size, init=_prepare,
            server_settings={"application_name": "tabula"},
        )
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
                raise IntegrityFailure(
                    f"The database schema is at migration {current}; this program needs {newest}."
                )
            await conn.fetchval("SELECT count(*) FROM (SELECT 1 FROM game_tables LIMIT 1) AS t")

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await applied(conn)

    # -- transactions ----------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield conn

    @staticmethod
    async def _advance(conn: asyncpg.Connection, table_id: int, expected: int) -> None:
        """Bump the version, first thing in the transaction: it takes the row lock and
        refuses a stale caller."""
        moved = await conn.fetchval(
            "UPDATE game_tables SET version = version + 1, updated_at = $3"
            " WHERE id = $1 AND version = $2 RETURNING version",
            table_id, expected, _now(),
        )
        if moved is None:
            raise StaleVersion(STALE)

    # -- tables ----------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        creator_id: int,
        creator_name: str,
        options: dict[str, Any],
        max_players: int | None,
        seat_order: str,
        seed: str,
        seed_hash: str,
        league_id: int | None = None,
    ) -> int:
        """A new lobby with its creator in the first seat; ``ChannelBusy`` if one is live."""
        now = _now()
        try:
            table_id = await self._pool.fetchval(
                "WITH made AS (INSERT INTO game_tables (guild_id, channel_id, game_id, status,"
                " creator_id, options, max_players, seat_order, seed, seed_hash, created_at,"
                " updated_at, league_id) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9,"
                " $10, $10, $11) RETURNING id)"
                " INSERT INTO seats (table_id, position, member_id, name)"
                " SELECT id, 0, $4, $12 FROM made RETURNING table_id",
                guild_id, channel_id, game_id, creator_id, _dumps(options), max_players,
                seat_order, seed, seed_hash, now, league_id, creator_name,
            )
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusy("This channel already has a game.") from exc
        return int(table_id)

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._pool.fetchrow("SELECT * FROM game_tables WHERE id = $1", table_id)
        return rows.table_record(row) if row else None

    async def live_table(self, channel_id: int) -> TableRecord | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM game_tables WHERE channel_id = $1 AND status IN ('lobby', 'playing')",
            channel_id,
        )
        return rows.table_record(row) if row else None

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        """The live table of a channel, else its most recent finished one."""
        row = await self._pool.fetchrow(
            "SELECT * FROM game_tables WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return rows.table_record(row) if row else None

    async def tables_with_status(self, *statuses: str) -> list[TableRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM game_tables WHERE status = ANY($1::text[]) ORDER BY id", list(statuses)
        )
        return [rows.table_record(r) for r in found]

    async def tables_of_member(self, member_id: int) -> list[TableRecord]:
        """Live tables where the member holds a seat (for commands sent by DM)."""
        found = await self._pool.fetch(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id"
            " WHERE s.member_id = $1 AND t.status IN ('lobby', 'playing') ORDER BY t.id",
            member_id,
        )
        return [rows.table_record(r) for r in found]

    async def set_status(self, table_id: int, status: str, expected_version: int) -> int:
        """End or abandon a table; bumps the version so old buttons stop working."""
        version = await self._pool.fetchval(
            "UPDATE game_tables SET status = $3, version = version + 1, updated_at = $4"
            " WHERE id = $1 AND version = $2 RETURNING version",
            table_id, expected_version, status, _now(),
        )
        if version is None:
            raise StaleVersion(STALE)
        return int(version)

    # -- seats -----------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM seats WHERE table_id = $1 ORDER BY position", table_id
        )
        return [rows.seat_record(r) for r in found]

    async def add_seat(
        self, table_id: int, member_id: int | None, name: str, expected_version: int
    ) -> int:
        """Append a seat in the lobby; returns the new table version."""
        try:
            async with self._write() as db:
                await self._advance(db, table_id, expected_version)
                await db.execute(
                    "INSERT INTO seats (table_id, position, member_id, name, is_computer)"
                    " VALUES ($1, (SELECT COALESCE(MAX(position) + 1, 0) FROM seats"
                    " WHERE table_id = $1), $2, $3, $4)",
                    table_id, member_id, name, member_id is None,
                )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadySeated("You already have a seat at this table.") from exc
        return expected_version + 1

    async def remove_seat(self, table_id: int, position: int, expected_version: int) -> int:
        """Remove a lobby seat and close the gap so positions stay 0..n-1."""
        async with self._write() as db:
            await self._advance(db, table_id, expected_version)
            await db.execute(
                "DELETE FROM seats WHERE table_id = $1 AND position = $2", table_id, position
            )
            # Two steps through negative numbers: the primary key forbids a transient clash.
            await db.execute(
                "UPDATE seats SET position = -position - 1 WHERE table_id = $1 AND position > $2",
                table_id, position,
            )
            await db.execute(
                "UPDATE seats SET position = -position - 2 WHERE table_id = $1 AND position < 0",
                table_id,
            )
        return expected_version + 1

    async def start(
        self,
        table_id: int,
        expected_version: int,
        order: list[int],
        snapshot: dict[str, Any],
    ) -> int:
        """Seat the lobby in ``order`` (old positions, new seat = index) and store the
        initial snapshot, in one transaction."""
        async with self._write() as db:
            version = await db.fetchval(
                "UPDATE game_tables SET status = 'playing', snapshot = $3,"
                " version = version + 1, updated_at = $4"
                " WHERE id = $1 AND version = $2 RETURNING version",
                table_id, expected_version, _dumps(snapshot), _now(),
            )
            if version is None:
                raise StaleVersion(STALE)
            await db.execute(
                "UPDATE seats SET position = -position - 1 WHERE table_id = $1", table_id
            )
            await db.execute(
                "UPDATE seats SET position = m.seat"
                " FROM unnest($2::int[], $3::int[]) AS m(seat, old)"
                " WHERE table_id = $1 AND position = -m.old - 1",
                table_id, list(range(len(order))), order,
            )
        return int(version)

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None:
        await self._pool.execute(
            "UPDATE seats SET dm_closed = $3 WHERE table_id = $1 AND member_id = $2",
            table_id, member_id, closed,
        )

    # -- actions ---------------------------------------------------------------------------

    async def record(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        entry: NewAction,
        status: str = "playing",
    ) -> int:
        """Write the new snapshot and its log entry in one statement (one transaction).

        ``StaleVersion`` if the table moved on since ``expected_version`` was read;
        ``DuplicateKey`` if ``entry.idem_key`` was recorded before. Returns the new version.
        """
        now = _now()
        try:
            version = await self._pool.fetchval(
                "WITH moved AS (UPDATE game_tables SET snapshot = $3, version = $2 + 1,"
                " status = $4, updated_at = $5 WHERE id = $1 AND version = $2"
                " RETURNING id, version)"
                " INSERT INTO actions (table_id, version, kind, seat, member_id, action, text,"
                " irreversible, undoes, idem_key, created_at, notation)"
                " SELECT id, version, $6, $7, $8, $9, $10, $11, $12, $13, $5, $14 FROM moved"
                " RETURNING version",
                table_id, expected_version, _dumps(snapshot), status, now,
                entry.kind, entry.seat, entry.member_id,
                None if entry.action is None else _dumps(entry.action), entry.text,
                entry.irreversible, entry.undoes, entry.idem_key, entry.notation,
            )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "one_action_per_key":
                raise DuplicateKey("That action was already received.") from exc
            raise StaleVersion(STALE) from exc
        if version is None:
            raise StaleVersion(STALE)
        return int(version)

    async def find_action_by_key(self, table_id: int, idem_key: str) -> ActionRecord | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM actions WHERE table_id = $1 AND idem_key = $2", table_id, idem_key
        )
        return rows.action_record(row) if row else None

    async def last_action_of(self, table_id: int, member_id: int) -> ActionRecord | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM actions WHERE table_id = $1 AND member_id = $2 AND kind = 'act'"
            " ORDER BY version DESC LIMIT 1",
            table_id, member_id,
        )
        return rows.action_record(row) if row else None

    async def actions(self, table_id: int) -> list[ActionRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM actions WHERE table_id = $1 ORDER BY version", table_id
        )
        return [rows.action_record(r) for r in found]

    # -- leagues ---------------------------------------------------------------------------

    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int
                            ) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        try:
            league_id = await self._pool.fetchval(
                "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at)"
                " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                guild_id, name, game_id, created_by, _now(),
            )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadyExists(f"This server already has a league called {name!r}.") from exc
        return int(league_id)

    async def leagues(self, guild_id: int) -> list[LeagueRecord]:
        # COLLATE "C": names sort by code point, as SQLite's BINARY collation does.
        found = await self._pool.fetch(
            'SELECT * FROM leagues WHERE guild_id = $1 ORDER BY closed, name COLLATE "C"',
            guild_id,
        )
        return [rows.league_record(r) for r in found]

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM leagues WHERE guild_id = $1 AND lower(name) = lower($2)",
            guild_id, name,
        )
        return rows.league_record(row) if row else None

    async def close_league(self, league_id: int) -> None:
        await self._pool.execute("UPDATE leagues SET closed = TRUE WHERE id = $1", league_id)

    async def league_tables(self, league_id: int, status: str = "over") -> list[TableRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM game_tables WHERE league_id = $1 AND status = $2 ORDER BY updated_at",
            league_id, status,
        )
        return [rows.table_record(r) for r in found]

    # -- previews awaiting Confirm ----------------------------------------------------------

    async def add_pending(
        self, table_id: int, member_id: int, version: int, action: dict[str, Any], text: str
    ) -> int:
        async with self._write() as db:
            # Old previews of the same member at this table are superseded by the new one.
            await db.execute(
                "DELETE FROM pending_moves WHERE table_id = $1 AND member_id = $2",
                table_id, member_id,
            )
            pending_id = await db.fetchval(
                "INSERT INTO pending_moves (table_id, member_id, version, action, text,"
                " created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                table_id, member_id, version, _dumps(action), text, _now(),
            )
        return int(pending_id)

    async def take_pending(self, pending_id: int) -> PendingMove | None:
        """Remove and return a preview, so one Confirm can use it at most once (in any
        process: the DELETE is the claim)."""
        row = await self._pool.fetchrow(
            "DELETE FROM pending_moves WHERE id = $1 RETURNING *", pending_id
        )
        return rows.pending_move(row) if row else None

    # -- maintenance -----------------------------------------------------------------------

    async def backup(self, target: str | Path) -> None:
        """A consistent snapshot of the database written as a SQLite file (the format of
        ``python -m bot backup`` with either store). Point-in-time recovery of a PostgreSQL
        deployment is the server's own business (base backups and WAL archiving)."""
        async with self._pool.acquire() as conn:
            await postgres_to_sqlite(conn, Path(target))
