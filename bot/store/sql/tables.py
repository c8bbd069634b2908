"""Tables, seats, the action log and previews awaiting Confirm.

A move, or a chain of moves of one table (``record_steps``), is a version-checked change
(``Database.change``): the SQLite store group-commits it with other tables' moves, the
PostgreSQL store writes it in one statement.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from bot.store.errors import AlreadySeated, ChannelBusy, StaleVersion, UniqueViolation
from bot.store.records import (
    ActionRecord,
    NewAction,
    PendingMove,
    SeatRecord,
    Status,
    Step,
    TableRecord,
    last_snapshot,
)
from bot.store.sql.database import Repository, transaction
from bot.store.sql.rows import Row, record
from bot.store.sql.script import Script, count, each, marks, row, rows, value

STALE = "This table changed meanwhile; look at the latest board."


def now() -> datetime:
    return datetime.now(UTC)


def dumps(value: Any) -> str:
    # Snapshots and actions are trees of plain values: no cycle to look for.
    return json.dumps(value, separators=(",", ":"), sort_keys=True, check_circular=False)


def table_record(found: Row) -> TableRecord:
    return record(TableRecord, found, status=Status(found["status"]))


action_record = partial(record, ActionRecord)


def advance(table_id: int, expected: int) -> Script[None]:
    """Bump the table's version, first thing in a transaction (in PostgreSQL it takes the
    row's lock); ``StaleVersion`` if it moved on."""
    moved = yield count("UPDATE game_tables SET version = version + 1, updated_at = ?"
                        " WHERE id = ? AND version = ?", now(), table_id, expected)
    if moved != 1:
        raise StaleVersion(STALE)


def write_steps(table_id: int, expected: int, steps: Sequence[Step]) -> Script[int]:
    """A table's steps: the row keeps the last snapshot and status, the log gets a row per step;
    ``StaleVersion`` unless the table is at ``expected``. (The PostgreSQL store writes the same in
    one statement.) JSON is encoded here, before the script runs: away from the open transaction."""
    at, version = now(), expected + len(steps)
    snapshot = dumps(last_snapshot(steps)) if steps else ""
    entries = [(table_id, expected + n, e.kind, e.seat, e.member_id,
                None if e.action is None else dumps(e.action), e.text, e.irreversible,
                e.undoes, e.idem_key, at, e.notation)
               for n, e in enumerate((s.entry for s in steps), start=1)]

    def write() -> Script[int]:
        if not steps:
            return expected
        moved = yield count("UPDATE game_tables SET snapshot = ?, status = ?,"
                            " version = version + ?, updated_at = ? WHERE id = ? AND version = ?",
                            snapshot, str(steps[-1].status), len(steps), at, table_id, expected)
        if moved != 1:
            raise StaleVersion(STALE)
        yield each("INSERT INTO actions (table_id, version, kind, seat, member_id, action, text,"
                   " irreversible, undoes, idem_key, created_at, notation)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entries)
        return version

    return write()


def seats_of(table_id: int) -> Script[list[SeatRecord]]:
    found = yield rows("SELECT * FROM seats WHERE table_id = ? ORDER BY position", table_id)
    return [record(SeatRecord, r) for r in found]


class Tables(Repository):
    async def create_table(self, *, guild_id: int | None, channel_id: int, game_id: str,
                           creator_id: int, creator_name: str, options: dict[str, Any],
                           max_players: int | None, seat_order: str, seed: str, seed_hash: str,
                           league_id: int | None = None) -> TableRecord:
        """A new lobby with its creator in the first seat; ``ChannelBusy`` if one is live."""
        def create() -> Script[TableRecord]:
            at = now()
            made = yield row(
                "INSERT INTO game_tables (guild_id, channel_id, game_id, status, creator_id,"
                " options, max_players, seat_order, seed, seed_hash, created_at, updated_at,"
                " league_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                guild_id, channel_id, game_id, creator_id, dumps(options), max_players,
                seat_order, seed, seed_hash, at, at, league_id)
            yield count("INSERT INTO seats (table_id, position, member_id, name)"
                        " VALUES (?, 0, ?, ?)", made["id"], creator_id, creator_name)
            return table_record(made)

        try:
            return await self._db.write(create())
        except UniqueViolation as exc:
            raise ChannelBusy("This channel already has a game.") from exc

    async def get_table(self, table_id: int) -> TableRecord | None:
        return await self._one(table_record, row("SELECT * FROM game_tables WHERE id = ?",
                                                 table_id))

    async def table_version(self, table_id: int) -> int | None:
        return await self._one(int, value("SELECT version FROM game_tables WHERE id = ?",
                                          table_id))

    async def live_table(self, channel_id: int) -> TableRecord | None:
        return await self._one(table_record, row(
            "SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            channel_id))

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        """The live table of a channel, else its most recent finished one."""
        return await self._one(table_record, row(
            "SELECT * FROM game_tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            channel_id))

    async def tables_with_status(self, *statuses: str) -> list[TableRecord]:
        return await self._many(table_record, rows(
            f"SELECT * FROM game_tables WHERE status IN ({marks(len(statuses))}) ORDER BY id",
            *(str(s) for s in statuses)))

    async def unannounced(self) -> list[TableRecord]:
        """Started tables whose latest committed version never reached their channel."""
        # By the partial index of the few unannounced tables (migration 0014); the status as
        # an expression keeps SQLite from walking the status index over every finished table.
        return await self._many(table_record, rows(
            "SELECT * FROM game_tables WHERE status || '' IN ('playing', 'over')"
            " AND announced < version AND snapshot IS NOT NULL ORDER BY id"))

    async def unplanned(self) -> list[TableRecord]:
        """Playing tables with no open turn (a move's plan commits with it: a table with one
        was planned)."""
        return await self._many(table_record, rows(
            "SELECT * FROM game_tables g WHERE status = 'playing' AND NOT EXISTS (SELECT 1"
            " FROM turns t WHERE t.table_id = g.id AND t.ended_at IS NULL) ORDER BY id"))

    async def with_computers(self) -> list[TableRecord]:
        """Playing tables where a computer or a standing answer may be due to move."""
        return await self._many(table_record, rows(
            "SELECT * FROM game_tables g WHERE status = 'playing' AND EXISTS (SELECT 1 FROM"
            " seats s WHERE s.table_id = g.id AND (s.is_computer OR s.standing IS NOT NULL))"
            " ORDER BY id"))

    async def mark_announced(self, table_id: int, version: int,
                             message_id: int | None = None) -> None:
        """The channel heard of ``version``; ``message_id`` is its board (kept when newer)."""
        await self._db.execute(count(
            "UPDATE game_tables SET message_id = CASE WHEN ? > announced"
            " THEN COALESCE(?, message_id) ELSE message_id END,"
            " announced = CASE WHEN announced > ? THEN announced ELSE ? END WHERE id = ?",
            version, message_id, version, version, table_id))

    async def tables_of_member(self, member_id: int) -> list[TableRecord]:
        """Live tables where the member holds a seat (for commands sent by DM)."""
        return await self._many(table_record, rows(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id"
            " WHERE s.member_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.id",
            member_id))

    async def set_status(self, table_id: int, status: str, expected_version: int) -> int:
        """End or abandon a table; bumps the version so old buttons stop working."""
        version = await self._db.execute(value(
            "UPDATE game_tables SET status = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? RETURNING version",
            str(status), now(), table_id, expected_version))
        if version is None:
            raise StaleVersion(STALE)
        return int(version)

    # -- seats -----------------------------------------------------------------------------
    async def seats(self, table_id: int) -> list[SeatRecord]:
        return await self._db.read(seats_of(table_id))

    async def add_seat(self, table_id: int, member_id: int | None, name: str,
                       expected_version: int, level: str | None = None) -> list[SeatRecord]:
        """Append a seat in the lobby; returns the seats as they now are (the table version
        is ``expected_version + 1``)."""
        def add() -> Script[list[SeatRecord]]:
            yield from advance(table_id, expected_version)
            yield count(
                "INSERT INTO seats (table_id, position, member_id, name, is_computer, level)"
                " VALUES (?, (SELECT COALESCE(MAX(position) + 1, 0) FROM seats"
                " WHERE table_id = ?), ?, ?, ?, ?)",
                table_id, table_id, member_id, name, member_id is None, level)
            return (yield from seats_of(table_id))

        try:
            return await self._db.write(add())
        except UniqueViolation as exc:
            raise AlreadySeated("You already have a seat at this table.") from exc

    @transaction
    def remove_seat(self, table_id: int, position: int, expected_version: int
                    ) -> Script[list[SeatRecord]]:
        """Remove a lobby seat and close the gap so positions stay 0..n-1."""
        yield from advance(table_id, expected_version)
        yield count("DELETE FROM seats WHERE table_id = ? AND position = ?",
                    table_id, position)
        # Two steps through negative numbers: the primary key forbids a transient clash.
        yield count("UPDATE seats SET position = -position - 1"
                    " WHERE table_id = ? AND position > ?", table_id, position)
        yield count("UPDATE seats SET position = -position - 2"
                    " WHERE table_id = ? AND position < 0", table_id)
        return (yield from seats_of(table_id))

    @transaction
    def start(self, table_id: int, expected_version: int, order: list[int],
              snapshot: dict[str, Any]) -> Script[list[SeatRecord]]:
        """Seat the lobby in ``order`` (old positions, new seat = index) and store the
        initial snapshot, in one transaction; returns the seats in their new order."""
        moved = yield count(
            "UPDATE game_tables SET status = 'playing', snapshot = ?,"
            " version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            dumps(snapshot), now(), table_id, expected_version)
        if moved != 1:
            raise StaleVersion(STALE)
        yield count("UPDATE seats SET position = -position - 1 WHERE table_id = ?",
                    table_id)
        yield each("UPDATE seats SET position = ? WHERE table_id = ? AND position = ?",
                   [(seat, table_id, -old - 1) for seat, old in enumerate(order)])
        return (yield from seats_of(table_id))

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None:
        await self._db.execute(count(
            "UPDATE seats SET dm_closed = ? WHERE table_id = ? AND member_id = ?",
            closed, table_id, member_id))

    async def set_standing(self, table_id: int, position: int, text: str | None) -> None:
        await self._db.execute(count(
            "UPDATE seats SET standing = ? WHERE table_id = ? AND position = ?",
            text, table_id, position))

    # -- actions ---------------------------------------------------------------------------
    async def record(self, table_id: int, expected_version: int, snapshot: dict[str, Any],
                     entry: NewAction, status: str = Status.PLAYING) -> int:
        """Write the new snapshot and its log entry; returns the new version once durable.
        ``StaleVersion`` if the table moved on since ``expected_version`` was read;
        ``DuplicateKey`` if ``entry.idem_key`` was recorded before."""
        return await self.record_steps(table_id, expected_version,
                                       [Step(snapshot, entry, status)])

    async def record_steps(self, table_id: int, expected_version: int, steps: Sequence[Step]
                           ) -> int:
        """Several consecutive changes of one table (a chain of computer moves), all or
        none, committed with whatever other tables' moves are waiting."""
        return (await self._db.change(table_id, expected_version, steps, None))[0]

    async def find_action_by_key(self, table_id: int, idem_key: str) -> ActionRecord | None:
        return await self._one(action_record, row(
            "SELECT * FROM actions WHERE table_id = ? AND idem_key = ?", table_id, idem_key))

    async def last_action_of(self, table_id: int, member_id: int) -> ActionRecord | None:
        return await self._one(action_record, row(
            "SELECT * FROM actions WHERE table_id = ? AND member_id = ? AND kind = 'act'"
            " ORDER BY version DESC LIMIT 1", table_id, member_id))

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        return await self._many(action_record, rows(
            "SELECT * FROM actions WHERE table_id = ? AND version > ? ORDER BY version",
            table_id, after_version))

    # -- previews awaiting Confirm ----------------------------------------------------------
    @transaction
    def add_pending(self, table_id: int, member_id: int, version: int,
                    action: dict[str, Any], text: str, fingerprint: str | None = None
                    ) -> Script[int]:
        # Old previews of the same member at this table are superseded by the new one.
        yield count("DELETE FROM pending_moves WHERE table_id = ? AND member_id = ?",
                    table_id, member_id)
        return int((yield value(
            "INSERT INTO pending_moves (table_id, member_id, version, action, text,"
            " created_at, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            table_id, member_id, version, dumps(action), text, now(), fingerprint)))

    @transaction
    def take_pending(self, pending_id: int, member_id: int) -> Script[PendingMove | None]:
        """Remove and return the member's own preview, so one Confirm uses it at most once
        (in any process: the DELETE is the claim); ``None`` when it is gone. Another member's
        preview is left alone (``PermissionError``)."""
        taken = yield row("DELETE FROM pending_moves WHERE id = ? AND member_id = ?"
                          " RETURNING *", pending_id, member_id)
        if taken is None and (yield value(
                "SELECT 1 FROM pending_moves WHERE id = ?", pending_id)) is not None:
            raise PermissionError("That preview belongs to another player.")
        return None if taken is None else record(PendingMove, taken)
