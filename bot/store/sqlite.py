"""The SQLite store, through aiosqlite.

WAL journal, ``synchronous=FULL``, foreign keys on, a busy timeout, and every write inside
``BEGIN IMMEDIATE`` (a deferred transaction that reads first fails at once with "database is
locked" in WAL mode). One connection serves the process; an ``asyncio.Lock`` keeps one
coroutine's statements from landing inside another's transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.errors import (
    AlreadyExists,
    AlreadySeated,
    ChannelBusy,
    DuplicateKey,
    IntegrityFailure,
    StaleVersion,
)
from bot.store.records import (
    ActionRecord,
    LeagueRecord,
    NewAction,
    PendingMove,
    SeatRecord,
    TableRecord,
)
from bot.store.timing_records import (
    NewTurn,
    ReminderRecord,
    SeatChange,
    SeatClock,
    TableClock,
    TurnRecord,
    WaitingTurn,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def migrations() -> list[tuple[int, str]]:
    """The numbered SQL files shipped in ``bot/store/migrations``, in order."""
    found = []
    for entry in resources.files("bot.store.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class SqliteStore:
    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Connect, set the pragmas, check integrity, and apply pending migrations."""
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        store = cls(conn, str(path))
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await store.check_integrity()
            await store._migrate()
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def check_integrity(self) -> None:
        rows = await self._conn.execute_fetchall("PRAGMA integrity_check")
        answers = [row[0] for row in rows]
        if answers != ["ok"]:
            raise IntegrityFailure("; ".join(str(a) for a in answers[:5]))

    async def schema_version(self) -> int:
        rows = list(await self._conn.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, sql in migrations():
            if number <= current:
                continue
            # One transaction per migration, the version bump inside it: all or nothing.
            try:
                await self._conn.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
                )
            except sqlite3.Error:
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                raise
            log.info("applied migration %04d", number)

    # -- transactions ----------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._conn.execute_fetchall(sql, tuple(params)))

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
            async with self._write() as db:
                cursor = await db.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, game_id, status, creator_id,"
                    " options, max_players, seat_order, seed, seed_hash, created_at, updated_at,"
                    " league_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game_id, creator_id, _dumps(options), max_players,
                     seat_order, seed, seed_hash, now, now, league_id),
                )
                table_id = int(cursor.lastrowid or 0)
                await db.execute(
                    "INSERT INTO seats (table_id, position, member_id, name) VALUES (?, 0, ?, ?)",
                    (table_id, creator_id, creator_name),
                )
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy("This channel already has a game.") from exc
        return table_id

    async def get_table(self, table_id: int) -> TableRecord | None:
        rows = await self._fetch("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def live_table(self, channel_id: int) -> TableRecord | None:
        rows = await self._fetch(
            "SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return _table(rows[0]) if rows else None

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        """The live table of a channel, else its most recent finished one."""
        rows = await self._fetch(
            "SELECT * FROM game_tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _table(rows[0]) if rows else None

    async def tables_with_status(self, *statuses: str) -> list[TableRecord]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT * FROM game_tables WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_table(r) for r in rows]

    async def tables_of_member(self, member_id: int) -> list[TableRecord]:
        """Live tables where the member holds a seat (for commands sent by DM)."""
        rows = await self._fetch(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id"
            " WHERE s.member_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.id",
            (member_id,),
        )
        return [_table(r) for r in rows]

    async def set_status(self, table_id: int, status: str, expected_version: int) -> int:
        """End or abandon a table; bumps the version so old buttons stop working."""
        async with self._write() as db:
            await self._check_version(db, table_id, expected_version)
            await db.execute(
                "UPDATE game_tables SET status = ?, version = version + 1, updated_at = ?"
                " WHERE id = ?",
                (status, _now(), table_id),
            )
        return expected_version + 1

    # -- seats -----------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRecord]:
        rows = await self._fetch(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
        )
        return [
            SeatRecord(
                position=int(r["position"]),
                member_id=r["member_id"],
                name=str(r["name"]),
                is_computer=bool(r["is_computer"]),
                dm_closed=bool(r["dm_closed"]),
            )
            for r in rows
        ]

    async def add_seat(
        self, table_id: int, member_id: int | None, name: str, expected_version: int
    ) -> int:
        """Append a seat in the lobby; returns the new table version."""
        try:
            async with self._write() as db:
                await self._check_version(db, table_id, expected_version)
                await db.execute(
                    "INSERT INTO seats (table_id, position, member_id, name, is_computer)"
                    " VALUES (?, (SELECT COALESCE(MAX(position) + 1, 0) FROM seats"
                    " WHERE table_id = ?), ?, ?, ?)",
                    (table_id, table_id, member_id, name, int(member_id is None)),
                )
                await self._bump(db, table_id)
        except sqlite3.IntegrityError as exc:
            raise AlreadySeated("You already have a seat at this table.") from exc
        return expected_version + 1

    async def remove_seat(self, table_id: int, position: int, expected_version: int) -> int:
        """Remove a lobby seat and close the gap so positions stay 0..n-1."""
        async with self._write() as db:
            await self._check_version(db, table_id, expected_version)
            await db.execute(
                "DELETE FROM seats WHERE table_id = ? AND position = ?", (table_id, position)
            )
            # Two steps through negative numbers: the primary key forbids a transient clash.
            await db.execute(
                "UPDATE seats SET position = -position - 1 WHERE table_id = ? AND position > ?",
                (table_id, position),
            )
            await db.execute(
                "UPDATE seats SET position = -position - 2 WHERE table_id = ? AND position < 0",
                (table_id,),
            )
            await self._bump(db, table_id)
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
            await self._check_version(db, table_id, expected_version)
            await db.execute(
                "UPDATE seats SET position = -position - 1 WHERE table_id = ?", (table_id,)
            )
            for seat, old in enumerate(order):
                await db.execute(
                    "UPDATE seats SET position = ? WHERE table_id = ? AND position = ?",
                    (seat, table_id, -old - 1),
                )
            await db.execute(
                "UPDATE game_tables SET status = 'playing', snapshot = ?, version = version + 1,"
                " updated_at = ? WHERE id = ?",
                (_dumps(snapshot), _now(), table_id),
            )
        return expected_version + 1

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE seats SET dm_closed = ? WHERE table_id = ? AND member_id = ?",
                (int(closed), table_id, member_id),
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
        """Write the new snapshot and its log entry in one transaction.

        ``StaleVersion`` if the table moved on since ``expected_version`` was read;
        ``DuplicateKey`` if ``entry.idem_key`` was recorded before. Returns the new version.
        """
        version = expected_version + 1
        try:
            async with self._write() as db:
                await self._check_version(db, table_id, expected_version)
                await db.execute(
                    "INSERT INTO actions (table_id, version, kind, seat, member_id, action, text,"
                    " irreversible, undoes, idem_key, created_at, notation)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table_id, version, entry.kind, entry.seat, entry.member_id,
                        None if entry.action is None else _dumps(entry.action), entry.text,
                        int(entry.irreversible), entry.undoes, entry.idem_key, _now(),
                        entry.notation,
                    ),
                )
                await db.execute(
                    "UPDATE game_tables SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                    " WHERE id = ?",
                    (_dumps(snapshot), version, status, _now(), table_id),
                )
        except sqlite3.IntegrityError as exc:
            if "idem_key" in str(exc) or "one_action_per_key" in str(exc):
                raise DuplicateKey("That action was already received.") from exc
            raise
        return version

    async def find_action_by_key(self, table_id: int, idem_key: str) -> ActionRecord | None:
        rows = await self._fetch(
            "SELECT * FROM actions WHERE table_id = ? AND idem_key = ?", (table_id, idem_key)
        )
        return _action(rows[0]) if rows else None

    async def last_action_of(self, table_id: int, member_id: int) -> ActionRecord | None:
        rows = await self._fetch(
            "SELECT * FROM actions WHERE table_id = ? AND member_id = ? AND kind = 'act'"
            " ORDER BY version DESC LIMIT 1",
            (table_id, member_id),
        )
        return _action(rows[0]) if rows else None

    async def actions(self, table_id: int) -> list[ActionRecord]:
        rows = await self._fetch(
            "SELECT * FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        )
        return [_action(r) for r in rows]

    # -- leagues ---------------------------------------------------------------------------

    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int
                            ) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        try:
            async with self._write() as db:
                cursor = await db.execute(
                    "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (guild_id, name, game_id, created_by, _now()),
                )
        except sqlite3.IntegrityError as exc:
            raise AlreadyExists(f"This server already has a league called {name!r}.") from exc
        return int(cursor.lastrowid or 0)

    async def leagues(self, guild_id: int) -> list[LeagueRecord]:
        rows = await self._fetch(
            "SELECT * FROM leagues WHERE guild_id = ? ORDER BY closed, name", (guild_id,)
        )
        return [_league(r) for r in rows]

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None:
        rows = await self._fetch(
            "SELECT * FROM leagues WHERE guild_id = ? AND name = ? COLLATE NOCASE",
            (guild_id, name),
        )
        return _league(rows[0]) if rows else None

    async def close_league(self, league_id: int) -> None:
        async with self._write() as db:
            await db.execute("UPDATE leagues SET closed = 1 WHERE id = ?", (league_id,))

    async def league_tables(self, league_id: int, status: str = "over") -> list[TableRecord]:
        rows = await self._fetch(
            "SELECT * FROM game_tables WHERE league_id = ? AND status = ? ORDER BY updated_at",
            (league_id, status),
        )
        return [_table(r) for r in rows]

    # -- previews awaiting Confirm ----------------------------------------------------------

    async def add_pending(
        self, table_id: int, member_id: int, version: int, action: dict[str, Any], text: str
    ) -> int:
        async with self._write() as db:
            # Old previews of the same member at this table are superseded by the new one.
            await db.execute(
                "DELETE FROM pending_moves WHERE table_id = ? AND member_id = ?",
                (table_id, member_id),
            )
            cursor = await db.execute(
                "INSERT INTO pending_moves (table_id, member_id, version, action, text,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, member_id, version, _dumps(action), text, _now()),
            )
            return int(cursor.lastrowid or 0)

    async def take_pending(self, pending_id: int) -> PendingMove | None:
        """Remove and return a preview, so one Confirm can use it at most once."""
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "SELECT * FROM pending_moves WHERE id = ?", (pending_id,)
            ))
            if not rows:
                return None
            await db.execute("DELETE FROM pending_moves WHERE id = ?", (pending_id,))
        row = rows[0]
        return PendingMove(
            id=int(row["id"]), table_id=int(row["table_id"]), member_id=int(row["member_id"]),
            version=int(row["version"]), action=json.loads(row["action"]), text=str(row["text"]),
        )

    # -- maintenance -----------------------------------------------------------------------

    async def backup(self, target: str | Path) -> None:
        """An online, consistent copy (SQLite's backup API) while the bot keeps running."""
        async with self._lock:
            dest = await aiosqlite.connect(str(target))
            try:
                await self._conn.backup(dest)
            finally:
                await dest.close()

    # -- helpers ---------------------------------------------------------------------------

    @staticmethod
    async def _check_version(db: aiosqlite.Connection, table_id: int, expected: int) -> None:
        rows = list(
            await db.execute_fetchall("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        )
        if not rows or int(rows[0][0]) != expected:
            raise StaleVersion("This table changed meanwhile; look at the latest board.")

    @staticmethod
    async def _bump(db: aiosqlite.Connection, table_id: int) -> None:
        await db.execute(
            "UPDATE game_tables SET version = version + 1, updated_at = ? WHERE id = ?",
            (_now(), table_id),
        )

    # == asynchronous play: timing, turns, reminders, member settings, substitutes ==========
    # Times are epoch seconds. Firing a deadline or reminder is an atomic claim
    # (UPDATE ... WHERE fired_at IS NULL), so each fires at most once whatever restarts.

    async def set_table_timing(self, table_id: int, timing: dict[str, Any]) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO table_timing (table_id, timing) VALUES (?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET timing = excluded.timing",
                (table_id, _dumps(timing)),
            )

    async def table_clock(self, table_id: int) -> TableClock | None:
        rows = await self._fetch("SELECT * FROM table_timing WHERE table_id = ?", (table_id,))
        if not rows:
            return None
        r = rows[0]
        return TableClock(int(r["table_id"]), json.loads(r["timing"]), r["paused_at"],
                          r["paused_by"], r["pause_reason"])

    async def seat_clocks(self, table_id: int) -> dict[int, SeatClock]:
        rows = await self._fetch("SELECT * FROM seat_clocks WHERE table_id = ?", (table_id,))
        return {int(r["seat"]): SeatClock(int(r["seat"]), int(r["bank"]), int(r["streak"]),
                                          bool(r["absent"]), int(r["holiday_used"]))
                for r in rows}

    async def open_turns(self, table_id: int) -> dict[int, TurnRecord]:
        rows = await self._fetch(
            "SELECT * FROM turns WHERE table_id = ? AND ended_at IS NULL", (table_id,)
        )
        return {int(r["seat"]): _turn(r) for r in rows}

    async def get_turn(self, turn_id: int) -> TurnRecord | None:
        rows = await self._fetch("SELECT * FROM turns WHERE id = ?", (turn_id,))
        return _turn(rows[0]) if rows else None

    async def apply_turn_plan(
        self,
        table_id: int,
        now: int,
        end_turns: Iterable[int],
        new_turns: Iterable[NewTurn],
        clocks: Iterable[SeatClock],
    ) -> None:
        """End turns, start turns (with their reminder) and save seat clocks, in one
        transaction; a turn already started for the same seat and version is kept."""
        async with self._write() as db:
            for turn_id in end_turns:
                await db.execute(
                    "UPDATE turns SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                    (now, turn_id),
                )
            for t in new_turns:
                rows = list(await db.execute_fetchall(
                    "INSERT INTO turns (table_id, seat, member_id, since_version, started_at,"
                    " due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (table_id, seat, since_version) DO NOTHING RETURNING id",
                    (table_id, t.seat, t.member_id, t.since_version, t.started_at, t.due_at,
                     now),
                ))
                if rows and t.reminder_at is not None and t.member_id is not None:
                    await db.execute(
                        "INSERT INTO reminders (turn_id, table_id, member_id, due_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (turn_id, due_at) DO NOTHING",
                        (int(rows[0][0]), table_id, t.member_id, t.reminder_at),
                    )
            for c in clocks:
                await db.execute(
                    "INSERT INTO seat_clocks (table_id, seat, bank, streak, absent, holiday_used)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
                    " bank = excluded.bank, streak = excluded.streak, absent = excluded.absent,"
                    " holiday_used = excluded.holiday_used",
                    (table_id, c.seat, c.bank, c.streak, int(c.absent), c.holiday_used),
                )

    async def end_open_turns(self, table_id: int, now: int) -> None:
        """A table that ended or was abandoned waits on nobody."""
        async with self._write() as db:
            await db.execute(
                "UPDATE turns SET ended_at = ? WHERE table_id = ? AND ended_at IS NULL",
                (now, table_id),
            )

    async def due_turns(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open turns past their deadline, not yet fired, at tables that are not paused."""
        rows = await self._fetch(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.due_at <= ? AND t.fired_at IS NULL AND t.ended_at IS NULL"
            " AND c.paused_at IS NULL ORDER BY t.due_at, t.id LIMIT ?",
            (now, limit),
        )
        return [_turn(r) for r in rows]

    async def claim_turn(self, turn_id: int, now: int) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE turns SET fired_at = ? WHERE id = ? AND fired_at IS NULL"
                " AND ended_at IS NULL",
                (now, turn_id),
            )
            return cursor.rowcount == 1

    async def extend_turn(self, turn_id: int, due_at: int) -> None:
        """Give a fired turn a new deadline (the vote chose to wait another period)."""
        async with self._write() as db:
            await db.execute(
                "UPDATE turns SET due_at = ?, fired_at = NULL WHERE id = ? AND ended_at IS NULL",
                (due_at, turn_id),
            )

    async def add_reminder(self, turn_id: int, table_id: int, member_id: int, due_at: int
                           ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO reminders (turn_id, table_id, member_id, due_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (turn_id, due_at) DO NOTHING",
                (turn_id, table_id, member_id, due_at),
            )

    async def due_reminders(self, now: int, limit: int = 200) -> list[ReminderRecord]:
        """Unsent reminders that are due, of turns still open and not fired, at tables that
        are not paused."""
        rows = await self._fetch(
            "SELECT r.* FROM reminders r JOIN turns t ON t.id = r.turn_id"
            " LEFT JOIN table_timing c ON c.table_id = r.table_id"
            " WHERE r.due_at <= ? AND r.fired_at IS NULL AND t.ended_at IS NULL"
            " AND t.fired_at IS NULL AND c.paused_at IS NULL ORDER BY r.member_id, r.id LIMIT ?",
            (now, limit),
        )
        return [ReminderRecord(int(r["id"]), int(r["turn_id"]), int(r["table_id"]),
                               int(r["member_id"]), int(r["due_at"])) for r in rows]

    async def claim_reminder(self, reminder_id: int, now: int) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE reminders SET fired_at = ? WHERE id = ? AND fired_at IS NULL",
                (now, reminder_id),
            )
            return cursor.rowcount == 1

    async def move_reminder(self, reminder_id: int, due_at: int) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE reminders SET due_at = ? WHERE id = ? AND fired_at IS NULL",
                (due_at, reminder_id),
            )

    async def reminders_sent(self, member_id: int) -> int:
        rows = await self._fetch(
            "SELECT COUNT(*) FROM reminders WHERE member_id = ? AND fired_at IS NOT NULL",
            (member_id,),
        )
        return int(rows[0][0])

    async def waiting_turns(self, member_id: int) -> list[WaitingTurn]:
        """Every live table, on every server, that waits on the member: oldest wait first."""
        rows = await self._fetch(
            "SELECT t.*, g.guild_id, g.channel_id, g.game_id, g.message_id, c.paused_at"
            " FROM turns t JOIN game_tables g ON g.id = t.table_id"
            " LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.member_id = ? AND t.ended_at IS NULL AND g.status = 'playing'"
            " ORDER BY t.started_at, t.id",
            (member_id,),
        )
        return [WaitingTurn(int(r["table_id"]), r["guild_id"], int(r["channel_id"]),
                            str(r["game_id"]), r["message_id"], int(r["seat"]),
                            int(r["started_at"]), r["due_at"], r["paused_at"] is not None)
                for r in rows]

    async def pause_table(self, table_id: int, at: int, by: int, reason: str) -> bool:
        """Stop a table's clock; False if it was already paused."""
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE table_timing SET paused_at = ?, paused_by = ?, pause_reason = ?"
                " WHERE table_id = ? AND paused_at IS NULL",
                (at, by, reason, table_id),
            )
            return cursor.rowcount == 1

    async def resume_table(self, table_id: int, at: int) -> int | None:
        """Restart a paused table's clock: open deadlines and reminders move on by the time it
        stood still (a turn started during the pause, by the time since it started). Returns
        the seconds paused, or None if the table was not paused."""
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "SELECT paused_at FROM table_timing WHERE table_id = ? AND paused_at IS NOT NULL",
                (table_id,),
            ))
            if not rows:
                return None
            paused_at = int(rows[0][0])
            await db.execute(
                "UPDATE turns SET"
                " due_at = due_at + (? - CASE WHEN created_at > ? THEN created_at ELSE ? END),"
                " started_at = started_at"
                " + (? - CASE WHEN created_at > ? THEN created_at ELSE ? END)"
                " WHERE table_id = ? AND ended_at IS NULL AND fired_at IS NULL",
                (at, paused_at, paused_at, at, paused_at, paused_at, table_id),
            )
            await db.execute(
                "UPDATE reminders SET due_at = due_at + ? WHERE table_id = ? AND fired_at IS NULL",
                (at - paused_at, table_id),
            )
            await db.execute(
                "UPDATE table_timing SET paused_at = NULL, paused_by = NULL, pause_reason = NULL"
                " WHERE table_id = ?",
                (table_id,),
            )
        return at - paused_at

    async def member_settings(self, member_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Stored settings of these members (members without any are left out)."""
        ids = list(dict.fromkeys(member_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._fetch(
            f"SELECT * FROM member_settings WHERE member_id IN ({marks})", ids
        )
        return {int(r["member_id"]): {
            "member_id": int(r["member_id"]), "tz": str(r["tz"]),
            "quiet_start": r["quiet_start"], "quiet_end": r["quiet_end"],
            "interval_hours": int(r["interval_hours"]), "dm_notices": bool(r["dm_notices"]),
            "preview": bool(r["preview"]), "away_from": r["away_from"],
            "away_until": r["away_until"],
        } for r in rows}

    async def save_member_settings(self, values: dict[str, Any], at: int) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO member_settings (member_id, tz, quiet_start, quiet_end,"
                " interval_hours, dm_notices, preview, away_from, away_until, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (member_id) DO UPDATE SET"
                " tz = excluded.tz, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end, interval_hours = excluded.interval_hours,"
                " dm_notices = excluded.dm_notices, preview = excluded.preview,"
                " away_from = excluded.away_from, away_until = excluded.away_until,"
                " updated_at = excluded.updated_at",
                (values["member_id"], values["tz"], values["quiet_start"], values["quiet_end"],
                 values["interval_hours"], int(values["dm_notices"]), int(values["preview"]),
                 values["away_from"], values["away_until"], at),
            )

    async def substitute_seat(
        self, table_id: int, seat: int, member_id: int, name: str, by: int, at: int,
        expected_version: int,
    ) -> int:
        """Give a seat to another member and record the change; bumps the version so the old
        member's buttons stop working. ``AlreadySeated`` if the member holds another seat."""
        try:
            async with self._write() as db:
                await self._check_version(db, table_id, expected_version)
                rows = list(await db.execute_fetchall(
                    "SELECT member_id FROM seats WHERE table_id = ? AND position = ?",
                    (table_id, seat),
                ))
                old = rows[0][0] if rows else None
                await db.execute(
                    "UPDATE seats SET member_id = ?, name = ?, is_computer = 0, dm_closed = 0"
                    " WHERE table_id = ? AND position = ?",
                    (member_id, name, table_id, seat),
                )
                await db.execute(
                    "INSERT INTO seat_changes (table_id, seat, old_member_id, new_member_id,"
                    " new_name, by_member_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, seat, old, member_id, name, by, at),
                )
                await db.execute(
                    "UPDATE seat_clocks SET streak = 0, absent = 0 WHERE table_id = ? AND seat = ?",
                    (table_id, seat),
                )
                await self._bump(db, table_id)
        except sqlite3.IntegrityError as exc:
            raise AlreadySeated("That member already has a seat at this table.") from exc
        return expected_version + 1

    async def seat_changes(self, table_id: int) -> list[SeatChange]:
        rows = await self._fetch(
            "SELECT * FROM seat_changes WHERE table_id = ? ORDER BY id", (table_id,)
        )
        return [SeatChange(int(r["table_id"]), int(r["seat"]), r["old_member_id"],
                           int(r["new_member_id"]), str(r["new_name"]), int(r["by_member_id"]),
                           int(r["at"])) for r in rows]

    async def set_absent(self, table_id: int, seat: int, absent: bool) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO seat_clocks (table_id, seat, absent) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET absent = excluded.absent",
                (table_id, seat, int(absent)),
            )

    async def cast_vote(self, turn_id: int, member_id: int, choice: str, at: int
                        ) -> dict[str, int]:
        """Record (or change) a member's vote on a seat out of time; returns the counts."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO out_of_time_votes (turn_id, member_id, choice, at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (turn_id, member_id) DO UPDATE SET"
                " choice = excluded.choice, at = excluded.at",
                (turn_id, member_id, choice, at),
            )
            rows = list(await db.execute_fetchall(
                "SELECT choice, COUNT(*) FROM out_of_time_votes WHERE turn_id = ?"
                " GROUP BY choice",
                (turn_id,),
            ))
        return {str(r[0]): int(r[1]) for r in rows}


def _table(row: sqlite3.Row) -> TableRecord:
    return TableRecord(
        id=int(row["id"]),
        guild_id=row["guild_id"],
        channel_id=int(row["channel_id"]),
        game_id=str(row["game_id"]),
        status=str(row["status"]),
        creator_id=int(row["creator_id"]),
        options=json.loads(row["options"]),
        max_players=row["max_players"],
        seat_order=str(row["seat_order"]),
        seed=str(row["seed"]),
        seed_hash=str(row["seed_hash"]),
        snapshot=None if row["snapshot"] is None else json.loads(row["snapshot"]),
        version=int(row["version"]),
        message_id=row["message_id"],
        created_at=str(row["created_at"]),
        updated_at=str(row["updated_at"]),
        league_id=row["league_id"],
    )


def _league(row: sqlite3.Row) -> LeagueRecord:
    return LeagueRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        game_id=str(row["game_id"]),
        created_by=int(row["created_by"]),
        created_at=str(row["created_at"]),
        closed=bool(row["closed"]),
    )


def _action(row: sqlite3.Row) -> ActionRecord:
    return ActionRecord(
        id=int(row["id"]),
        version=int(row["version"]),
        kind=str(row["kind"]),
        seat=row["seat"],
        member_id=row["member_id"],
        action=None if row["action"] is None else json.loads(row["action"]),
        text=row["text"],
        irreversible=bool(row["irreversible"]),
        undoes=row["undoes"],
        idem_key=row["idem_key"],
        created_at=str(row["created_at"]),
        notation=row["notation"],
    )


def _turn(row: sqlite3.Row) -> TurnRecord:
    return TurnRecord(
        id=int(row["id"]),
        table_id=int(row["table_id"]),
        seat=int(row["seat"]),
        member_id=row["member_id"],
        since_version=int(row["since_version"]),
        started_at=int(row["started_at"]),
        due_at=row["due_at"],
        fired_at=row["fired_at"],
        ended_at=row["ended_at"],
    )
