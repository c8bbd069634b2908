"""The PostgreSQL store's tables, seats, action log, announcements and previews.

A move, or a chain of moves of one table (``record_steps``), is one statement: the UPDATE of the
table's row checks the version (PostgreSQL holds that row lock until commit and re-checks the
condition for a writer that waited on it, so of two processes racing on one table exactly one
wins) and the same statement appends the log rows. One statement is one transaction and one
round trip; the unique index on idempotency keys refuses the whole of it. Lobby changes, rarer,
are short transactions that take the table's row lock first.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import asyncpg

from bot.store.errors import AlreadySeated, ChannelBusy, DuplicateKey, StaleVersion
from bot.store.one_step import OneStep
from bot.store.postgres import rows
from bot.store.records import (
    ActionRecord,
    PendingMove,
    SeatRecord,
    Step,
    TableRecord,
    last_snapshot,
)

STALE = "This table changed meanwhile; look at the latest board."
LIVE_STATUSES = "('lobby', 'playing')"


def now() -> datetime:
    return datetime.now(UTC)


def dumps(value: Any) -> str:
    # Snapshots and actions are trees of plain values: no cycle to look for.
    return json.dumps(value, separators=(",", ":"), sort_keys=True, check_circular=False)


class PostgresTables(OneStep):
    _pool: asyncpg.Pool
    commits: int
    shared: bool

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
            table_id, expected, now(),
        )
        if moved is None:
            raise StaleVersion(STALE)

    @staticmethod
    async def _seats_of(conn: asyncpg.Connection, table_id: int) -> list[SeatRecord]:
        found = await conn.fetch(
            "SELECT * FROM seats WHERE table_id = $1 ORDER BY position", table_id
        )
        return [rows.seat_record(r) for r in found]

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
    ) -> TableRecord:
        """A new lobby with its creator in the first seat; ``ChannelBusy`` if one is live."""
        try:
            row = await self._pool.fetchrow(
                "WITH made AS (INSERT INTO game_tables (guild_id, channel_id, game_id, status,"
                " creator_id, options, max_players, seat_order, seed, seed_hash, created_at,"
                " updated_at, league_id) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9,"
                " $10, $10, $11) RETURNING *),"
                " seated AS (INSERT INTO seats (table_id, position, member_id, name)"
                " SELECT id, 0, $4, $12 FROM made)"
                " SELECT * FROM made",
                guild_id, channel_id, game_id, creator_id, dumps(options), max_players,
                seat_order, seed, seed_hash, now(), league_id, creator_name,
            )
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusy("This channel already has a game.") from exc
        return rows.table_record(row)

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._pool.fetchrow("SELECT * FROM game_tables WHERE id = $1", table_id)
        return rows.table_record(row) if row else None

    async def table_version(self, table_id: int) -> int | None:
        version: int | None = await self._pool.fetchval(
            "SELECT version FROM game_tables WHERE id = $1", table_id
        )
        return version

    async def live_table(self, channel_id: int) -> TableRecord | None:
        row = await self._pool.fetchrow(
            f"SELECT * FROM game_tables WHERE channel_id = $1 AND status IN {LIVE_STATUSES}",
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
            "SELECT * FROM game_tables WHERE status = ANY($1::text[]) ORDER BY id",
            [str(s) for s in statuses],
        )
        return [rows.table_record(r) for r in found]

    async def unannounced(self) -> list[TableRecord]:
        """Started tables whose latest committed version never reached their channel."""
        found = await self._pool.fetch(
            "SELECT * FROM game_tables WHERE status IN ('playing', 'over')"
            " AND announced < version AND snapshot IS NOT NULL ORDER BY id"
        )
        return [rows.table_record(r) for r in found]

    async def mark_announced(self, table_id: int, version: int,
                             message_id: int | None = None) -> None:
        """The channel heard of ``version``; ``message_id`` is its board (kept when newer)."""
        await self._pool.execute(
            "UPDATE game_tables SET message_id = CASE WHEN $2 > announced"
            " THEN COALESCE($3, message_id) ELSE message_id END,"
            " announced = GREATEST(announced, $2) WHERE id = $1",
            table_id, version, message_id,
        )

    async def tables_of_member(self, member_id: int) -> list[TableRecord]:
        """Live tables where the member holds a seat (for commands sent by DM)."""
        found = await self._pool.fetch(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id"
            f" WHERE s.member_id = $1 AND t.status IN {LIVE_STATUSES} ORDER BY t.id",
            member_id,
        )
        return [rows.table_record(r) for r in found]

    async def set_status(self, table_id: int, status: str, expected_version: int) -> int:
        """End or abandon a table; bumps the version so old buttons stop working."""
        version = await self._pool.fetchval(
            "UPDATE game_tables SET status = $3, version = version + 1, updated_at = $4"
            " WHERE id = $1 AND version = $2 RETURNING version",
            table_id, expected_version, str(status), now(),
        )
        if version is None:
            raise StaleVersion(STALE)
        return int(version)

    # -- seats -----------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRecord]:
        async with self._pool.acquire() as conn:
            return await self._seats_of(conn, table_id)

    async def add_seat(
        self, table_id: int, member_id: int | None, name: str, expected_version: int,
        level: str | None = None,
    ) -> list[SeatRecord]:
        """Append a seat in the lobby; returns the seats as they now are (the table version
        is ``expected_version + 1``)."""
        try:
            async with self._write() as db:
                await self._advance(db, table_id, expected_version)
                await db.execute(
                    "INSERT INTO seats (table_id, position, member_id, name, is_computer, level)"
                    " VALUES ($1, (SELECT COALESCE(MAX(position) + 1, 0) FROM seats"
                    " WHERE table_id = $1), $2, $3, $4, $5)",
                    table_id, member_id, name, member_id is None, level,
                )
                return await self._seats_of(db, table_id)
        except asyncpg.UniqueViolationError as exc:
            raise AlreadySeated("You already have a seat at this table.") from exc

    async def remove_seat(
        self, table_id: int, position: int, expected_version: int
    ) -> list[SeatRecord]:
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
            return await self._seats_of(db, table_id)

    async def start(
        self,
        table_id: int,
        expected_version: int,
        order: list[int],
        snapshot: dict[str, Any],
    ) -> list[SeatRecord]:
        """Seat the lobby in ``order`` (old positions, new seat = index) and store the
        initial snapshot, in one transaction; returns the seats in their new order."""
        async with self._write() as db:
            version = await db.fetchval(
                "UPDATE game_tables SET status = 'playing', snapshot = $3,"
                " version = version + 1, updated_at = $4"
                " WHERE id = $1 AND version = $2 RETURNING version",
                table_id, expected_version, dumps(snapshot), now(),
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
            return await self._seats_of(db, table_id)

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None:
        await self._pool.execute(
            "UPDATE seats SET dm_closed = $3 WHERE table_id = $1 AND member_id = $2",
            table_id, member_id, closed,
        )

    async def set_standing(self, table_id: int, position: int, text: str | None) -> None:
        await self._pool.execute(
            "UPDATE seats SET standing = $3 WHERE table_id = $1 AND position = $2",
            table_id, position, text,
        )

    # -- actions ---------------------------------------------------------------------------

    async def record_steps(self, table_id: int, expected_version: int, steps: Sequence[Step]
                           ) -> int:
        """Several consecutive changes of one table (a chain of computer moves), all or none,
        in one statement. The table keeps the last step's snapshot and status (as in the
        SQLite store); the log gets one row per step. Concurrent commits share WAL flushes:
        PostgreSQL's own group commit."""
        if not steps:
            return expected_version
        async with self._pool.acquire() as conn:
            version = await self._steps_on(conn, table_id, expected_version, steps)
        self.commits += 1
        return version

    @staticmethod
    async def _steps_on(conn: asyncpg.Connection, table_id: int, expected_version: int,
                        steps: Sequence[Step]) -> int:
        """The one statement of ``record_steps`` (its own transaction, or the caller's)."""
        last = steps[-1]
        entries = [s.entry for s in steps]
        try:
            version = await conn.fetchval(
                "WITH moved AS (UPDATE game_tables SET snapshot = $3, status = $4,"
                " version = $2 + $5, updated_at = $6 WHERE id = $1 AND version = $2"
                " RETURNING id),"
                " logged AS (INSERT INTO actions (table_id, version, kind, seat, member_id,"
                " action, text, irreversible, undoes, idem_key, created_at, notation)"
                " SELECT moved.id, $2 + e.n, e.kind, e.seat, e.member_id, e.action, e.text,"
                " e.irreversible, e.undoes, e.idem_key, $6, e.notation FROM moved,"
                " unnest($7::text[], $8::int[], $9::bigint[], $10::text[], $11::text[],"
                " $12::bool[], $13::bigint[], $14::text[], $15::text[]) WITH ORDINALITY"
                " AS e(kind, seat, member_id, action, text, irreversible, undoes, idem_key,"
                " notation, n))"
                " SELECT $2 + $5 FROM moved",
                table_id, expected_version, dumps(last_snapshot(steps)), str(last.status),
                len(steps), now(),
                [e.kind for e in entries], [e.seat for e in entries],
                [e.member_id for e in entries],
                [None if e.action is None else dumps(e.action) for e in entries],
                [e.text for e in entries], [e.irreversible for e in entries],
                [e.undoes for e in entries], [e.idem_key for e in entries],
                [e.notation for e in entries],
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

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM actions WHERE table_id = $1 AND version > $2 ORDER BY version",
            table_id, after_version,
        )
        return [rows.action_record(r) for r in found]

    # -- previews awaiting Confirm ----------------------------------------------------------

    async def add_pending(
        self, table_id: int, member_id: int, version: int, action: dict[str, Any], text: str,
        fingerprint: str | None = None,
    ) -> int:
        # Old previews of the same member at this table are superseded by the new one.
        pending_id = await self._pool.fetchval(
            "WITH superseded AS (DELETE FROM pending_moves WHERE table_id = $1"
            " AND member_id = $2)"
            " INSERT INTO pending_moves (table_id, member_id, version, action, text,"
            " created_at, fingerprint) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
            table_id, member_id, version, dumps(action), text, now(), fingerprint,
        )
        return int(pending_id)

    async def take_pending(self, pending_id: int, member_id: int) -> PendingMove | None:
        """Remove and return the member's own preview, so one Confirm uses it at most once
        (in any process: the DELETE is the claim); ``None`` when it is gone. Another member's
        preview is left alone (``PermissionError``)."""
        row = await self._pool.fetchrow(
            "WITH taken AS (DELETE FROM pending_moves WHERE id = $1 AND member_id = $2"
            " RETURNING *)"
            " SELECT *, TRUE AS mine FROM taken"
            " UNION ALL SELECT *, FALSE FROM pending_moves WHERE id = $1 AND member_id <> $2",
            pending_id, member_id,
        )
        if row is None:
            return None
        if not row["mine"]:
            raise PermissionError("That preview belongs to another player.")
        return rows.pending_move(row)
