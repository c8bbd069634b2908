"""The SQLite store.

WAL journal, ``synchronous=FULL``, foreign keys on, a busy timeout, and every write inside
``BEGIN IMMEDIATE`` (a deferred transaction that reads first fails at once with "database is
locked" in WAL mode). Reads go to a second, read-only connection on a thread of its own.

Every write is group-committed (``bot.store.sqlite_commits``): writes of different tables that
arrive while a commit is in flight go together into the next transaction, a savepoint each, so
one refused move leaves the others intact, and every caller hears back only once the
transaction is durable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from bot.store import sqlite_setup as setup
from bot.store.errors import (
    AlreadySeated,
    ChannelBusy,
)
from bot.store.league_rows import LeagueRows
from bot.store.one_step import OneStep
from bot.store.records import (
    ActionRecord,
    PendingMove,
    SeatRecord,
    Step,
    TableRecord,
)
from bot.store.rows import action_record as _action
from bot.store.rows import seat_record as _seat
from bot.store.rows import table_record as _table
from bot.store.seat_rows import SeatRows
from bot.store.sqlite_announcing import AnnouncingRows
from bot.store.sqlite_commits import GroupCommitter, Queued, steps_change
from bot.store.sqlite_commits import bump as _bump
from bot.store.sqlite_commits import dumps as _dumps
from bot.store.sqlite_commits import now_text as _now
from bot.store.sqlite_setup import migrations
from bot.store.timing import TimingRows, write_plan
from bot.store.timing_records import PlanRequest, TurnRecord

__all__ = ["SqliteStore", "migrations"]  # migrations: the tests read the shipped list

log = logging.getLogger(__name__)

T = TypeVar("T")


class SqliteStore(LeagueRows, TimingRows, SeatRows, AnnouncingRows, OneStep):
    def __init__(self, conn: sqlite3.Connection, path: str, thread: ThreadPoolExecutor,
                 reader: sqlite3.Connection, read_thread: ThreadPoolExecutor) -> None:
        self._conn = conn
        self._thread = thread  # the writing connection's other uses (checks, a backup)
        # Reads go to a connection of their own: in WAL mode a reader never waits for a
        # writer, so autocomplete and lookups do not queue behind a group commit's fsync.
        self._reader = reader
        self._read_thread = read_thread
        self._commit_thread = ThreadPoolExecutor(max_workers=1,
                                                 thread_name_prefix="tabula-db-commit")
        self._commits = GroupCommitter(conn, self._commit_thread)
        self.path = path
        self.shared = False  # one process owns the file: in-memory copies stay current

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Connect, set the pragmas, check integrity, and apply pending migrations."""
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabula-db")
        read_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabula-db-read")
        loop = asyncio.get_running_loop()
        try:
            conn = await loop.run_in_executor(thread, setup.connect, str(path))
            reader = await loop.run_in_executor(read_thread, setup.connect_reader, str(path),
                                                conn)
        except BaseException:
            thread.shutdown(wait=False)
            read_thread.shutdown(wait=False)
            raise
        return cls(conn, str(path), thread, reader, read_thread)

    async def close(self) -> None:
        await self._commits.flush()
        loop = asyncio.get_running_loop()
        if self._reader is not self._conn:
            await loop.run_in_executor(self._read_thread, self._reader.close)
        self._read_thread.shutdown(wait=True)
        await self._call(lambda db: db.close())
        self._thread.shutdown(wait=True)
        self._commit_thread.shutdown(wait=True)

    async def check_integrity(self) -> None:
        await self._call(setup.check_integrity)

    async def schema_version(self) -> int:
        return await self._call(setup.user_version)

    # -- hand-offs to the connection's thread ----------------------------------------------

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on a thread, between two group commits."""
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, self._commits.outside, fn)

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._call(fn)

    async def _transact(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` as one all-or-nothing write, group-committed (in a savepoint of
        its own) with whatever else waits: a lobby or a deadline costs no fsync of its own."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._commits.submit(Queued(0, 0, (), done, write=fn))
        return await done

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

    async def set_standing(self, table_id: int, position: int, text: str | None) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE seats SET standing = ? WHERE table_id = ? AND position = ?",
            (text, table_id, position),
        ))

    # -- actions ---------------------------------------------------------------------------

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
        item = steps_change(table_id, expected_version, steps, done, then)
        self._commits.submit(item)
        version = await done
        return version, (item.after[0] if item.after else None)

    @property
    def commits(self) -> int:
        """Transactions that wrote moves (the benches report them)."""
        return self._commits.commits

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


def _seats_of(db: sqlite3.Connection, table_id: int) -> list[SeatRecord]:
    rows = db.execute(
        "SELECT * FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
    ).fetchall()
    return [_seat(r) for r in rows]


# -- rows to records ---------------------------------------------------------------------------
