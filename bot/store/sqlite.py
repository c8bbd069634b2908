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
    ForfeitRecord,
    LeagueMemberRecord,
    LeaguePlace,
    LeagueRating,
    LeagueRecord,
    LeagueResult,
    LeagueSettings,
    NewAction,
    PendingMove,
    RoundRecord,
    SeasonRecord,
    SeatRecord,
    TableRecord,
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

    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int,
                            settings: LeagueSettings | None = None) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        o = settings or LeagueSettings()
        try:
            async with self._write() as db:
                cursor = await db.execute(
                    "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at,"
                    " channel_id, min_seats, max_seats, computers, min_reliability, carry)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, name, game_id, created_by, _now(), o.channel_id, o.min_seats,
                     o.max_seats, int(o.computers), o.min_reliability, o.carry),
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

    # == leagues: settings, seasons, sign-ups, rounds, forfeits, results, ratings ==========
    # Portable SQL only (ON CONFLICT, RETURNING): a PostgreSQL store mirrors these methods.

    async def set_league_admin_role(self, guild_id: int, role_id: int | None) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO league_guilds (guild_id, admin_role_id) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET admin_role_id = excluded.admin_role_id",
                (guild_id, role_id),
            )

    async def league_admin_role(self, guild_id: int) -> int | None:
        rows = await self._fetch(
            "SELECT admin_role_id FROM league_guilds WHERE guild_id = ?", (guild_id,)
        )
        return rows[0][0] if rows else None

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        rows = await self._fetch("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return _league(rows[0]) if rows else None

    async def join_league(self, league_id: int, member_id: int, name: str) -> None:
        """Sign a member up (again); keeps their first join date."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO league_members (league_id, member_id, name, joined_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (league_id, member_id)"
                " DO UPDATE SET name = excluded.name, left_at = NULL",
                (league_id, member_id, name, _now()),
            )

    async def leave_league(self, league_id: int, member_id: int) -> bool:
        """False when the member was not signed up."""
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE league_members SET left_at = ? WHERE league_id = ? AND member_id = ?"
                " AND left_at IS NULL",
                (_now(), league_id, member_id),
            )
            return cursor.rowcount > 0

    async def league_members(self, league_id: int, *, signed_up: bool = True
                             ) -> list[LeagueMemberRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_members WHERE league_id = ?"
            + (" AND left_at IS NULL" if signed_up else "") + " ORDER BY joined_at, member_id",
            (league_id,),
        )
        return [LeagueMemberRecord(int(r["member_id"]), str(r["name"]), str(r["joined_at"]),
                                   r["left_at"] is None) for r in rows]

    async def start_season(self, league_id: int, ends_on: str | None, carry: float
                           ) -> SeasonRecord:
        """End the running season (if any) and start the next one, in one transaction."""
        now = _now()
        async with self._write() as db:
            await db.execute(
                "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL",
                (now, league_id),
            )
            rows = list(await db.execute_fetchall(
                "INSERT INTO league_seasons (league_id, number, started_at, ends_on, carry)"
                " VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_seasons"
                " WHERE league_id = ?), ?, ?, ?) RETURNING *",
                (league_id, league_id, now, ends_on, carry),
            ))
        return _season(rows[0])

    async def end_season(self, league_id: int) -> SeasonRecord | None:
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL"
                " RETURNING *",
                (_now(), league_id),
            ))
        return _season(rows[0]) if rows else None

    async def seasons(self, league_id: int) -> list[SeasonRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_seasons WHERE league_id = ? ORDER BY number", (league_id,)
        )
        return [_season(r) for r in rows]

    async def season_carries(self) -> dict[int, float]:
        rows = await self._fetch("SELECT id, carry FROM league_seasons")
        return {int(r["id"]): float(r["carry"]) for r in rows}

    async def add_round(self, league_id: int, season_id: int | None,
                        marks: dict[int, float]) -> RoundRecord:
        """A new round, with each member's shown rating at this moment."""
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "INSERT INTO league_rounds (league_id, season_id, number, created_at)"
                " VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_rounds"
                " WHERE league_id = ?), ?) RETURNING *",
                (league_id, season_id, league_id, _now()),
            ))
            record = _round(rows[0])
            await db.executemany(
                "INSERT INTO league_round_marks (round_id, member_id, rating) VALUES (?, ?, ?)",
                [(record.id, m, r) for m, r in marks.items()],
            )
        return record

    async def add_round_table(self, round_id: int, table_id: int) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO league_round_tables (round_id, table_id) VALUES (?, ?)",
                (round_id, table_id),
            )

    async def rounds(self, league_id: int) -> list[RoundRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_rounds WHERE league_id = ? ORDER BY number", (league_id,)
        )
        return [_round(r) for r in rows]

    async def round_of_table(self, table_id: int) -> RoundRecord | None:
        rows = await self._fetch(
            "SELECT r.* FROM league_rounds r JOIN league_round_tables t ON t.round_id = r.id"
            " WHERE t.table_id = ?",
            (table_id,),
        )
        return _round(rows[0]) if rows else None

    async def round_marks(self, round_id: int) -> dict[int, float]:
        rows = await self._fetch(
            "SELECT member_id, rating FROM league_round_marks WHERE round_id = ?", (round_id,)
        )
        return {int(r["member_id"]): float(r["rating"]) for r in rows}

    async def league_seatings(self, league_id: int, since: str = "") -> list[tuple[int, int]]:
        """(table, member) for every member seated at the league's tables opened since."""
        rows = await self._fetch(
            "SELECT s.table_id, s.member_id FROM seats s JOIN game_tables t"
            " ON t.id = s.table_id WHERE t.league_id = ? AND t.created_at >= ?"
            " AND s.member_id IS NOT NULL",
            (league_id, since),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def add_forfeit(self, table_id: int, seat: int, member_id: int, name: str,
                          reason: str) -> bool:
        """Record that a seat forfeited; False when it already had."""
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "INSERT INTO league_forfeits (table_id, seat, member_id, name, reason, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING"
                " RETURNING seat",
                (table_id, seat, member_id, name, reason, _now()),
            ))
        return bool(rows)

    async def forfeits(self, table_id: int) -> list[ForfeitRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_forfeits WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [ForfeitRecord(int(r["table_id"]), int(r["seat"]), int(r["member_id"]),
                              str(r["name"]), str(r["reason"]), str(r["at"])) for r in rows]

    async def tables_awaiting_result(self) -> list[int]:
        """Finished or abandoned league tables whose result is not stored yet."""
        rows = await self._fetch(
            "SELECT t.id FROM game_tables t LEFT JOIN league_results r ON r.table_id = t.id"
            " WHERE t.league_id IS NOT NULL AND t.status IN ('over', 'abandoned')"
            " AND r.id IS NULL ORDER BY t.updated_at, t.id"
        )
        return [int(r[0]) for r in rows]

    async def save_result(self, result: LeagueResult,
                          ratings: dict[tuple[str, int], LeagueRating]) -> int | None:
        """Store a result and the ratings it moved, in one transaction. None (and nothing
        written) when the table's result was stored before: recording is idempotent."""
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "INSERT INTO league_results (league_id, guild_id, game_id, season_id, round_id,"
                " table_id, finished_at, abandoned) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO NOTHING RETURNING id",
                (result.league_id, result.guild_id, result.game_id, result.season_id,
                 result.round_id, result.table_id, result.finished_at, int(result.abandoned)),
            ))
            if not rows:
                return None
            result_id = int(rows[0][0])
            await db.executemany(
                "INSERT INTO league_places (result_id, seat, member_id, name, place, forfeited)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(result_id, p.seat, p.member_id, p.name, p.place, int(p.forfeited))
                 for p in result.places],
            )
            await self._put_ratings(db, ratings)
        return result_id

    async def league_results(self, league_id: int | None = None) -> list[LeagueResult]:
        """Results in the order they were recorded: one league's, or every one (rebuilds)."""
        where = "" if league_id is None else " WHERE r.league_id = ?"
        params = () if league_id is None else (league_id,)
        rows = await self._fetch(
            "SELECT r.*, p.seat, p.member_id, p.name, p.place, p.forfeited FROM league_results r"
            " JOIN league_places p ON p.result_id = r.id" + where + " ORDER BY r.id, p.seat",
            params,
        )
        return _results(rows)

    async def member_finishes(self, guild_id: int, member_ids: list[int]
                              ) -> list[tuple[int, str, bool]]:
        """(member, finished at, forfeited) for the members' league games in the server."""
        marks = ", ".join("?" for _ in member_ids) or "NULL"
        rows = await self._fetch(
            "SELECT p.member_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id"
            f" WHERE r.guild_id = ? AND p.member_id IN ({marks})",
            (guild_id, *member_ids),
        )
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    async def ratings(self, scope: str) -> dict[int, LeagueRating]:
        rows = await self._fetch("SELECT * FROM league_ratings WHERE scope = ?", (scope,))
        return {int(r["member_id"]): _rating(r) for r in rows}

    async def all_ratings(self) -> dict[tuple[str, int], LeagueRating]:
        rows = await self._fetch("SELECT * FROM league_ratings")
        return {(str(r["scope"]), int(r["member_id"])): _rating(r) for r in rows}

    async def replace_ratings(self, ratings: dict[tuple[str, int], LeagueRating]) -> None:
        """Every stored rating replaced by ``ratings`` (a rebuild), in one transaction."""
        async with self._write() as db:
            await db.execute("DELETE FROM league_ratings")
            await self._put_ratings(db, ratings)

    @staticmethod
    async def _put_ratings(db: aiosqlite.Connection,
                           ratings: dict[tuple[str, int], LeagueRating]) -> None:
        await db.executemany(
            "INSERT INTO league_ratings (scope, member_id, mu, sigma, games, wins, forfeits)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, member_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
            " wins = excluded.wins, forfeits = excluded.forfeits",
            [(scope, member, r.mu, r.sigma, r.games, r.wins, r.forfeits)
             for (scope, member), r in ratings.items()],
        )


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
        channel_id=row["channel_id"],
        min_seats=row["min_seats"],
        max_seats=row["max_seats"],
        computers=bool(row["computers"]),
        min_reliability=float(row["min_reliability"]),
        carry=float(row["carry"]),
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


def _season(row: sqlite3.Row) -> SeasonRecord:
    return SeasonRecord(int(row["id"]), int(row["league_id"]), int(row["number"]),
                        str(row["started_at"]), row["ends_on"], row["ended_at"],
                        float(row["carry"]))


def _round(row: sqlite3.Row) -> RoundRecord:
    return RoundRecord(int(row["id"]), int(row["league_id"]), row["season_id"],
                       int(row["number"]), str(row["created_at"]))


def _rating(row: sqlite3.Row) -> LeagueRating:
    return LeagueRating(float(row["mu"]), float(row["sigma"]), int(row["games"]),
                        int(row["wins"]), int(row["forfeits"]))


def _results(rows: list[sqlite3.Row]) -> list[LeagueResult]:
    """Results from rows of results joined with their places (ordered by result)."""
    out: list[LeagueResult] = []
    places: list[LeaguePlace] = []
    for i, row in enumerate(rows):
        places.append(LeaguePlace(int(row["seat"]), row["member_id"], str(row["name"]),
                                  int(row["place"]), bool(row["forfeited"])))
        if i + 1 == len(rows) or rows[i + 1]["id"] != row["id"]:
            out.append(LeagueResult(
                league_id=int(row["league_id"]), guild_id=int(row["guild_id"]),
                game_id=str(row["game_id"]), table_id=int(row["table_id"]),
                finished_at=str(row["finished_at"]), places=tuple(places),
                season_id=row["season_id"], round_id=row["round_id"],
                abandoned=bool(row["abandoned"]), id=int(row["id"]),
            ))
            places = []
    return out
