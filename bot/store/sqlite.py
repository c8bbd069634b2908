"""The SQLite store.

WAL journal, ``synchronous=FULL``, foreign keys on, a busy timeout, and every write inside
``BEGIN IMMEDIATE`` (a deferred transaction that reads first fails at once with "database is
locked" in WAL mode). One thread owns the connection and each store call is one hand-off to it,
however many statements it runs: the hand-offs, not SQLite, are what a move costs.

Moves are group-committed: ``record`` calls of different tables that arrive while a commit is in
flight are written together in the next transaction, a savepoint each, so one refused move
leaves the others intact, and every caller hears back only once the transaction is durable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

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
    Status,
    Step,
    TableRecord,
)
from bot.store.rows import action_record as _action
from bot.store.seat_rows import SeatRows
from bot.store.timing import TimingRows, write_plan
from bot.store.timing_records import PlanRequest, TurnRecord

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000
T = TypeVar("T")


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


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@dataclass
class _Queued:
    table_id: int
    expected_version: int
    steps: Sequence[Step]
    done: asyncio.Future[int]
    # The store's own follow-up in the same transaction (planning turns, the announced mark).
    then: Callable[[sqlite3.Connection], Any] | None = None
    after: list[Any] = field(default_factory=list)  # what ``then`` returned


class SqliteStore(TimingRows, SeatRows):
    def __init__(self, conn: sqlite3.Connection, path: str, thread: ThreadPoolExecutor,
                 reader: sqlite3.Connection, read_thread: ThreadPoolExecutor) -> None:
        self._conn = conn
        self._thread = thread
        # Reads go to a connection of their own: in WAL mode a reader never waits for a
        # writer, so autocomplete and lookups do not queue behind a group commit's fsync.
        self._reader = reader
        self._read_thread = read_thread
        # Held for each hand-off, and across a multi-await transaction, so one coroutine's
        # statements never land inside another's transaction.
        self._lock = asyncio.Lock()
        self._queue: list[_Queued] = []
        self._committer: asyncio.Task[None] | None = None
        self.path = path
        self.commits = 0  # transactions that wrote moves (the group-commit bench reads it)
        self.shared = False  # one process owns the file: in-memory copies stay current

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Connect, set the pragmas, check integrity, and apply pending migrations."""
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabula-db")
        read_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabula-db-read")
        loop = asyncio.get_running_loop()
        try:
            conn = await loop.run_in_executor(thread, _connect, str(path))
            reader = await loop.run_in_executor(read_thread, _connect_reader, str(path), conn)
        except BaseException:
            thread.shutdown(wait=False)
            read_thread.shutdown(wait=False)
            raise
        return cls(conn, str(path), thread, reader, read_thread)

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.gather(self._committer, return_exceptions=True)
        loop = asyncio.get_running_loop()
        if self._reader is not self._conn:
            await loop.run_in_executor(self._read_thread, self._reader.close)
        self._read_thread.shutdown(wait=True)
        async with self._lock:
            await loop.run_in_executor(self._thread, self._conn.close)
        self._thread.shutdown(wait=True)

    async def check_integrity(self) -> None:
        await self._call(_check_integrity)

    async def schema_version(self) -> int:
        return await self._call(_user_version)

    # -- hand-offs to the connection's thread ----------------------------------------------

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` on the connection's thread; the caller holds ``_lock``
        when it is inside a multi-await transaction."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, self._conn)

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        async with self._lock:
            return await self._call(fn)

    async def _transact(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """One write transaction in one hand-off."""

        def run(db: sqlite3.Connection) -> T:
            with _transaction(db):
                return fn(db)

        return await self._run(run)

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the reading connection: committed data, never waiting for a
        write under way."""
        if self._reader is self._conn:
            return await self._run(fn)
        return await asyncio.get_running_loop().run_in_executor(
            self._read_thread, fn, self._reader
        )

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Rows of a read, on the reading connection."""
        args = tuple(params)
        return await self._read(lambda db: db.execute(sql, args).fetchall())

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
        now = _now()

        def write(db: sqlite3.Connection) -> TableRecord:
            row = db.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game_id, status, creator_id,"
                " options, max_players, seat_order, seed, seed_hash, created_at, updated_at,"
                " league_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, game_id, creator_id, _dumps(options), max_players,
                 seat_order, seed, seed_hash, now, now, league_id),
            ).fetchone()
            db.execute(
                "INSERT INTO seats (table_id, position, member_id, name) VALUES (?, 0, ?, ?)",
                (row["id"], creator_id, creator_name),
            )
            return _table(row)

        try:
            return await self._transact(write)
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy("This channel already has a game.") from exc

    async def get_table(self, table_id: int) -> TableRecord | None:
        rows = await self._fetch("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def table_version(self, table_id: int) -> int | None:
        rows = await self._fetch("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        return int(rows[0][0]) if rows else None

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

    async def unannounced(self) -> list[TableRecord]:
        """Started tables whose latest committed version never reached their channel."""
        rows = await self._fetch(
            "SELECT * FROM game_tables WHERE status IN ('playing', 'over')"
            " AND announced < version AND snapshot IS NOT NULL ORDER BY id"
        )
        return [_table(r) for r in rows]

    async def mark_announced(self, table_id: int, version: int,
                             message_id: int | None = None) -> None:
        """The channel heard of ``version``; ``message_id`` is its board (kept when newer).

        Queued with the moves (a change with no steps), so it shares their group commit
        instead of costing a transaction and an fsync of its own."""
        await self._queue_change(table_id, version, (), lambda db: db.execute(
            "UPDATE game_tables SET message_id = CASE WHEN ? > announced"
            " THEN COALESCE(?, message_id) ELSE message_id END,"
            " announced = MAX(announced, ?) WHERE id = ?",
            (version, message_id, version, table_id),
        ))

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

        def write(db: sqlite3.Connection) -> None:
            _bump(db, table_id, expected_version, "status = ?, ", (status,))

        await self._transact(write)
        return expected_version + 1

    # -- seats -----------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRecord]:
        rows = await self._fetch(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
        )
        return [_seat(r) for r in rows]

    async def add_seat(
        self, table_id: int, member_id: int | None, name: str, expected_version: int,
        level: str | None = None,
    ) -> list[SeatRecord]:
        """Append a seat in the lobby; returns the seats as they now are (the table version
        is ``expected_version + 1``)."""

        def write(db: sqlite3.Connection) -> list[SeatRecord]:
            _bump(db, table_id, expected_version)
            db.execute(
                "INSERT INTO seats (table_id, position, member_id, name, is_computer, level)"
                " VALUES (?, (SELECT COALESCE(MAX(position) + 1, 0) FROM seats"
                " WHERE table_id = ?), ?, ?, ?, ?)",
                (table_id, table_id, member_id, name, int(member_id is None), level),
            )
            return _seats_of(db, table_id)

        try:
            return await self._transact(write)
        except sqlite3.IntegrityError as exc:
            raise AlreadySeated("You already have a seat at this table.") from exc

    async def remove_seat(
        self, table_id: int, position: int, expected_version: int
    ) -> list[SeatRecord]:
        """Remove a lobby seat and close the gap so positions stay 0..n-1."""

        def write(db: sqlite3.Connection) -> list[SeatRecord]:
            _bump(db, table_id, expected_version)
            db.execute(
                "DELETE FROM seats WHERE table_id = ? AND position = ?", (table_id, position)
            )
            # Two steps through negative numbers: the primary key forbids a transient clash.
            db.execute(
                "UPDATE seats SET position = -position - 1 WHERE table_id = ? AND position > ?",
                (table_id, position),
            )
            db.execute(
                "UPDATE seats SET position = -position - 2 WHERE table_id = ? AND position < 0",
                (table_id,),
            )
            return _seats_of(db, table_id)

        return await self._transact(write)

    async def start(
        self,
        table_id: int,
        expected_version: int,
        order: list[int],
        snapshot: dict[str, Any],
    ) -> list[SeatRecord]:
        """Seat the lobby in ``order`` (old positions, new seat = index) and store the
        initial snapshot, in one transaction; returns the seats in their new order."""

        def write(db: sqlite3.Connection) -> list[SeatRecord]:
            _bump(db, table_id, expected_version, "status = 'playing', snapshot = ?, ",
                  (_dumps(snapshot),))
            db.execute(
                "UPDATE seats SET position = -position - 1 WHERE table_id = ?", (table_id,)
            )
            db.executemany(
                "UPDATE seats SET position = ? WHERE table_id = ? AND position = ?",
                [(seat, table_id, -old - 1) for seat, old in enumerate(order)],
            )
            return _seats_of(db, table_id)

        return await self._transact(write)

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE seats SET dm_closed = ? WHERE table_id = ? AND member_id = ?",
            (int(closed), table_id, member_id),
        ))

    # -- actions ---------------------------------------------------------------------------

    async def record(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        entry: NewAction,
        status: str = Status.PLAYING,
    ) -> int:
        """Write the new snapshot and its log entry; returns the new version once durable.

        ``StaleVersion`` if the table moved on since ``expected_version`` was read;
        ``DuplicateKey`` if ``entry.idem_key`` was recorded before."""
        return await self.record_steps(table_id, expected_version,
                                       [Step(snapshot, entry, status)])

    async def record_steps(self, table_id: int, expected_version: int, steps: Sequence[Step]
                           ) -> int:
        """Several consecutive changes of one table (a chain of computer moves), all or none;
        group-committed with whatever other tables' moves are waiting."""
        version, _ = await self.record_steps_planned(table_id, expected_version, steps, None)
        return version

    async def record_steps_planned(
        self, table_id: int, expected_version: int, steps: Sequence[Step],
        plan: PlanRequest | None,
    ) -> tuple[int, dict[int, TurnRecord] | None]:
        """``record_steps``, then the table's turns planned (``plan``) in the same
        transaction. A failure of the plan undoes only its own writes, never the moves; the
        open turns it returns are None then."""
        then = None if plan is None else partial(write_plan, plan=plan)
        return await self._queue_change(table_id, expected_version, steps, then)

    async def _queue_change(
        self, table_id: int, expected_version: int, steps: Sequence[Step],
        then: Callable[[sqlite3.Connection], T] | None,
    ) -> tuple[int, T | None]:
        """Queue a change for the next group commit; ``then`` runs after its steps in a
        savepoint of its own (None as its result when it failed)."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        item = _Queued(table_id, expected_version, steps, done, then)
        self._queue.append(item)
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_queued())
        version = await done
        return version, (item.after[0] if item.after else None)

    async def _commit_queued(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                results = await self._run(partial(_write_batch, batch=batch))
            except BaseException as exc:
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            self.commits += 1
            for item, result in zip(batch, results, strict=True):
                if item.done.done():
                    continue
                if isinstance(result, Exception):
                    item.done.set_exception(result)
                else:
                    item.done.set_result(result)

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

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        rows = await self._fetch(
            "SELECT * FROM actions WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, after_version),
        )
        return [_action(r) for r in rows]

    # -- leagues ---------------------------------------------------------------------------

    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int,
                            settings: LeagueSettings | None = None) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        o = settings or LeagueSettings()
        try:
            return await self._transact(lambda db: int(db.execute(
                "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at,"
                " channel_id, min_seats, max_seats, computers, min_reliability, carry)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, name, game_id, created_by, _now(), o.channel_id, o.min_seats,
                 o.max_seats, int(o.computers), o.min_reliability, o.carry),
            ).fetchone()[0]))
        except sqlite3.IntegrityError as exc:
            raise AlreadyExists("This server already has a league of that name.") from exc

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
        await self._transact(lambda db: db.execute(
            "UPDATE leagues SET closed = 1 WHERE id = ?", (league_id,)
        ))

    async def league_tables(self, league_id: int, status: str = Status.OVER
                            ) -> list[TableRecord]:
        rows = await self._fetch(
            "SELECT * FROM game_tables WHERE league_id = ? AND status = ? ORDER BY updated_at",
            (league_id, status),
        )
        return [_table(r) for r in rows]

    # -- previews awaiting Confirm ----------------------------------------------------------

    async def add_pending(
        self, table_id: int, member_id: int, version: int, action: dict[str, Any], text: str,
        fingerprint: str | None = None,
    ) -> int:
        def write(db: sqlite3.Connection) -> int:
            # Old previews of the same member at this table are superseded by the new one.
            db.execute(
                "DELETE FROM pending_moves WHERE table_id = ? AND member_id = ?",
                (table_id, member_id),
            )
            return int(db.execute(
                "INSERT INTO pending_moves (table_id, member_id, version, action, text,"
                " created_at, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (table_id, member_id, version, _dumps(action), text, _now(), fingerprint),
            ).fetchone()[0])

        return await self._transact(write)

    async def take_pending(self, pending_id: int, member_id: int) -> PendingMove | None:
        """Remove and return the member's own preview, so one Confirm uses it at most once;
        ``None`` when it is gone. Another member's preview is left alone (``PermissionError``)."""

        def write(db: sqlite3.Connection) -> sqlite3.Row | None:
            row: sqlite3.Row | None = db.execute(
                "SELECT * FROM pending_moves WHERE id = ?", (pending_id,)
            ).fetchone()
            if row is None or int(row["member_id"]) != member_id:
                return row
            db.execute("DELETE FROM pending_moves WHERE id = ?", (pending_id,))
            return row

        row = await self._transact(write)
        if row is None:
            return None
        if int(row["member_id"]) != member_id:
            raise PermissionError("That preview belongs to another player.")
        return PendingMove(
            id=int(row["id"]), table_id=int(row["table_id"]), member_id=int(row["member_id"]),
            version=int(row["version"]), action=json.loads(row["action"]), text=str(row["text"]),
            fingerprint=row["fingerprint"],
        )

    # == leagues: settings, seasons, sign-ups, rounds, forfeits, results, ratings ==========
    # Portable SQL only (ON CONFLICT, RETURNING); each method is one hand-off, one
    # transaction when it writes. A PostgreSQL store mirrors these methods.

    async def set_league_admin_role(self, guild_id: int, role_id: int | None) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_guilds (guild_id, admin_role_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET admin_role_id = excluded.admin_role_id",
            (guild_id, role_id),
        ))

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
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_members (league_id, member_id, name, joined_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (league_id, member_id)"
            " DO UPDATE SET name = excluded.name, left_at = NULL",
            (league_id, member_id, name, _now()),
        ))

    async def leave_league(self, league_id: int, member_id: int) -> bool:
        """False when the member was not signed up."""
        return await self._transact(lambda db: db.execute(
            "UPDATE league_members SET left_at = ? WHERE league_id = ? AND member_id = ?"
            " AND left_at IS NULL",
            (_now(), league_id, member_id),
        ).rowcount > 0)

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

        def write(db: sqlite3.Connection) -> sqlite3.Row:
            db.execute(
                "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL",
                (now, league_id),
            )
            row: sqlite3.Row = db.execute(
                "INSERT INTO league_seasons (league_id, number, started_at, ends_on, carry)"
                " VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_seasons"
                " WHERE league_id = ?), ?, ?, ?) RETURNING *",
                (league_id, league_id, now, ends_on, carry),
            ).fetchone()
            return row

        return _season(await self._transact(write))

    async def end_season(self, league_id: int) -> SeasonRecord | None:
        row = await self._transact(lambda db: db.execute(
            "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL"
            " RETURNING *",
            (_now(), league_id),
        ).fetchone())
        return _season(row) if row else None

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

        def write(db: sqlite3.Connection) -> sqlite3.Row:
            row: sqlite3.Row = db.execute(
                "INSERT INTO league_rounds (league_id, season_id, number, created_at)"
                " VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_rounds"
                " WHERE league_id = ?), ?) RETURNING *",
                (league_id, season_id, league_id, _now()),
            ).fetchone()
            db.executemany(
                "INSERT INTO league_round_marks (round_id, member_id, rating) VALUES (?, ?, ?)",
                [(row["id"], m, r) for m, r in marks.items()],
            )
            return row

        return _round(await self._transact(write))

    async def add_round_table(self, round_id: int, table_id: int) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_round_tables (round_id, table_id) VALUES (?, ?)",
            (round_id, table_id),
        ))

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
        return await self._transact(lambda db: db.execute(
            "INSERT INTO league_forfeits (table_id, seat, member_id, name, reason, at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING"
            " RETURNING seat",
            (table_id, seat, member_id, name, reason, _now()),
        ).fetchone() is not None)

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

        def write(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                "INSERT INTO league_results (league_id, guild_id, game_id, season_id, round_id,"
                " table_id, finished_at, abandoned) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO NOTHING RETURNING id",
                (result.league_id, result.guild_id, result.game_id, result.season_id,
                 result.round_id, result.table_id, result.finished_at, int(result.abandoned)),
            ).fetchone()
            if row is None:
                return None
            db.executemany(
                "INSERT INTO league_places (result_id, seat, member_id, name, place, forfeited)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(row[0], p.seat, p.member_id, p.name, p.place, int(p.forfeited))
                 for p in result.places],
            )
            _put_ratings(db, ratings)
            return int(row[0])

        return await self._transact(write)

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

        def write(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM league_ratings")
            _put_ratings(db, ratings)

        await self._transact(write)

    # -- maintenance -----------------------------------------------------------------------

    async def backup(self, target: str | Path) -> None:
        """An online, consistent copy (SQLite's backup API) while the bot keeps running."""

        def copy(db: sqlite3.Connection) -> None:
            dest = sqlite3.connect(str(target))
            try:
                db.backup(dest)
            finally:
                dest.close()

        await self._run(copy)


# -- on the connection's thread ----------------------------------------------------------------


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        _check_integrity(db)
        _migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def _connect_reader(path: str, writer: sqlite3.Connection) -> sqlite3.Connection:
    """A read-only connection beside the writer (an in-memory database has only the one)."""
    if path == ":memory:":
        return writer
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA query_only = ON")
    return db


def _check_integrity(db: sqlite3.Connection) -> None:
    answers = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
    if answers != ["ok"]:
        raise IntegrityFailure("; ".join(str(a) for a in answers[:5]))


def _user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _migrate(db: sqlite3.Connection) -> None:
    current = _user_version(db)
    for number, sql in migrations():
        if number <= current:
            continue
        # One transaction per migration, the version bump inside it: all or nothing.
        try:
            db.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        log.info("applied migration %04d", number)


def _bump(db: sqlite3.Connection, table_id: int, expected: int, sets: str = "",
          params: tuple[Any, ...] = ()) -> None:
    """Advance the table's version by one, refusing with ``StaleVersion`` if it moved on."""
    cursor = db.execute(
        f"UPDATE game_tables SET {sets}version = version + 1, updated_at = ?"
        " WHERE id = ? AND version = ?",
        (*params, _now(), table_id, expected),
    )
    if cursor.rowcount != 1:
        raise StaleVersion("This table changed meanwhile; look at the latest board.")


def _seats_of(db: sqlite3.Connection, table_id: int) -> list[SeatRecord]:
    rows = db.execute(
        "SELECT * FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
    ).fetchall()
    return [_seat(r) for r in rows]


def _write_batch(db: sqlite3.Connection, *, batch: Sequence[_Queued]) -> list[int | Exception]:
    """Every queued change in one transaction, each inside its own savepoint."""
    results: list[int | Exception] = []
    now = _now()
    with _transaction(db):
        for item in batch:
            db.execute("SAVEPOINT move")
            try:
                version = item.expected_version
                for step in item.steps:
                    _bump(db, item.table_id, version, "snapshot = ?, status = ?, ",
                          (_dumps(step.snapshot), str(step.status)))
                    version += 1
                    _insert_action(db, item.table_id, version, step.entry, now)
            except (StaleVersion, sqlite3.IntegrityError) as exc:
                db.execute("ROLLBACK TO move")
                results.append(_refusal(exc))
            else:
                results.append(version)
                if item.then is not None:
                    _then(db, item)
            db.execute("RELEASE move")
    return results


def _then(db: sqlite3.Connection, item: _Queued) -> None:
    """Run a queued change's follow-up in a savepoint of its own: it may fail alone."""
    db.execute("SAVEPOINT follow_up")
    try:
        assert item.then is not None
        item.after.append(item.then(db))
    except Exception:
        log.exception("the follow-up of a change of table %s failed", item.table_id)
        db.execute("ROLLBACK TO follow_up")
    db.execute("RELEASE follow_up")


def _insert_action(db: sqlite3.Connection, table_id: int, version: int, entry: NewAction,
                   now: str) -> None:
    db.execute(
        "INSERT INTO actions (table_id, version, kind, seat, member_id, action, text,"
        " irreversible, undoes, idem_key, created_at, notation)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            table_id, version, entry.kind, entry.seat, entry.member_id,
            None if entry.action is None else _dumps(entry.action), entry.text,
            int(entry.irreversible), entry.undoes, entry.idem_key, now, entry.notation,
        ),
    )


def _refusal(exc: Exception) -> Exception:
    if isinstance(exc, sqlite3.IntegrityError) and (
        "idem_key" in str(exc) or "one_action_per_key" in str(exc)
    ):
        return DuplicateKey("That action was already received.")
    return exc


# -- rows to records ---------------------------------------------------------------------------


def _table(row: sqlite3.Row) -> TableRecord:
    return TableRecord(
        id=int(row["id"]),
        guild_id=row["guild_id"],
        channel_id=int(row["channel_id"]),
        game_id=str(row["game_id"]),
        status=Status(row["status"]),
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
        announced=int(row["announced"]),
    )


def _seat(row: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        position=int(row["position"]),
        member_id=row["member_id"],
        name=str(row["name"]),
        is_computer=bool(row["is_computer"]),
        dm_closed=bool(row["dm_closed"]),
        level=row["level"],
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


# -- leagues, on the connection's thread -------------------------------------------------------


def _put_ratings(db: sqlite3.Connection,
                 ratings: dict[tuple[str, int], LeagueRating]) -> None:
    db.executemany(
        "INSERT INTO league_ratings (scope, member_id, mu, sigma, games, wins, forfeits)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, member_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " wins = excluded.wins, forfeits = excluded.forfeits",
        [(scope, member, r.mu, r.sigma, r.games, r.wins, r.forfeits)
         for (scope, member), r in ratings.items()],
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
