"""Rows of asynchronous play about members and seats: member settings, seats changing hands,
votes on a seat out of time, and what each seat missed since its last move."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from bot.store.errors import AlreadySeated
from bot.store.records import ActionRecord
from bot.store.sqlite.commits import bump
from bot.store.sqlite.rows import SETTINGS_COLUMNS, Handoffs, action_record
from bot.store.sqlite.rows import member_settings as _settings
from bot.store.timing_records import DashboardRecord, SeatChange


class SeatRows(Handoffs):
    """Mixed into ``SqliteStore``, which provides the hand-offs."""

    # -- reliability -------------------------------------------------------------------------

    async def add_member_event(self, member_id: int, table_id: int, kind: str, turn_id: int,
                               at: int) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO member_events (member_id, table_id, kind, turn_id, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (member_id, table_id, kind, turn_id, at)))

    async def member_events(self, member_id: int) -> list[tuple[int, str, int]]:
        rows = await self._read(lambda db: db.execute(
            "SELECT table_id, kind, at FROM member_events WHERE member_id = ?"
            " ORDER BY at, id", (member_id,)).fetchall())
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def forget_member_event(self, member_id: int, table_id: int, kind: str) -> None:
        await self._transact(lambda db: db.execute(
            "DELETE FROM member_events WHERE member_id = ? AND table_id = ? AND kind = ?",
            (member_id, table_id, kind)))

    # -- server and member settings ----------------------------------------------------------

    async def server_settings(self, guild_id: int) -> dict[str, Any] | None:
        row = await self._read(lambda db: db.execute(
            "SELECT settings FROM server_settings WHERE guild_id = ?", (guild_id,)).fetchone())
        return None if row is None else dict(json.loads(row[0]))

    async def save_server_settings(self, guild_id: int, values: dict[str, Any], at: int
                                   ) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at", (guild_id, json.dumps(values, sort_keys=True),
                                                  at)))

    async def member_settings(self, member_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Stored settings of these members (members without any are left out)."""
        ids = list(dict.fromkeys(member_ids))
        return await self._read(lambda db: _settings(db, ids))

    async def save_member_settings(self, values: dict[str, Any], at: int) -> None:
        """Save a member's settings; a dashboard turned on is due for its first message."""
        row = [values[c] for c in SETTINGS_COLUMNS]
        sets = ", ".join(f"{c} = excluded.{c}" for c in SETTINGS_COLUMNS[1:])

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                f"INSERT INTO member_settings ({', '.join(SETTINGS_COLUMNS)}, updated_at)"
                f" VALUES ({', '.join('?' for _ in SETTINGS_COLUMNS)}, ?) ON CONFLICT"
                f" (member_id) DO UPDATE SET {sets}, updated_at = excluded.updated_at",
                (*row, at))
            if values["dashboard"]:
                db.execute("INSERT INTO dashboards (member_id) VALUES (?) ON CONFLICT"
                           " (member_id) DO UPDATE SET dirty = 1", (values["member_id"],))
            else:
                db.execute("DELETE FROM dashboards WHERE member_id = ?", (values["member_id"],))

        await self._transact(write)

    # -- dashboards --------------------------------------------------------------------------

    async def take_dashboards(self, limit: int = 50) -> list[DashboardRecord]:
        """Dashboards whose tables changed since their last edit, marked as edited."""

        def write(db: sqlite3.Connection) -> list[DashboardRecord]:
            rows = db.execute("SELECT * FROM dashboards WHERE dirty = 1 ORDER BY member_id"
                              " LIMIT ?", (limit,)).fetchall()
            db.executemany("UPDATE dashboards SET dirty = 0 WHERE member_id = ?",
                           [(r["member_id"],) for r in rows])
            return [DashboardRecord(int(r["member_id"]), r["channel_id"], r["message_id"])
                    for r in rows]

        return await self._transact(write)

    async def dashboard_posted(self, member_id: int, channel_id: int | None,
                               message_id: int | None) -> None:
        """Where a member's dashboard message is now; None: it cannot be sent (DMs closed),
        so the member's dashboard is turned off."""

        def write(db: sqlite3.Connection) -> None:
            if message_id is None:
                db.execute("DELETE FROM dashboards WHERE member_id = ?", (member_id,))
                db.execute("UPDATE member_settings SET dashboard = 0 WHERE member_id = ?",
                           (member_id,))
                return
            db.execute("UPDATE dashboards SET channel_id = ?, message_id = ?"
                       " WHERE member_id = ?", (channel_id, message_id, member_id))

        await self._transact(write)

    # -- seats changing hands ----------------------------------------------------------------

    async def substitute_seat(
        self, table_id: int, seat: int, member_id: int, name: str, by: int, at: int,
        expected_version: int,
    ) -> int:
        """Give a seat to another member and record the change; bumps the version so the old
        member's buttons stop working. ``AlreadySeated`` if the member holds another seat."""
        version = expected_version + 1

        def write(db: sqlite3.Connection) -> None:
            bump(db, table_id, expected_version)
            old = db.execute("SELECT member_id, name FROM seats WHERE table_id = ?"
                             " AND position = ?", (table_id, seat)).fetchone()
            db.execute("UPDATE seats SET member_id = ?, name = ?, is_computer = 0, dm_closed = 0"
                       " WHERE table_id = ? AND position = ?", (member_id, name, table_id, seat))
            db.execute(
                "INSERT INTO seat_changes (table_id, seat, old_member_id, new_member_id,"
                " old_name, new_name, by_member_id, at, version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, seat, None if old is None else old[0], member_id,
                 "" if old is None else old[1], name, by, at, version))
            db.execute("UPDATE seat_clocks SET streak = 0, absent = 0 WHERE table_id = ?"
                       " AND seat = ?", (table_id, seat))

        try:
            await self._transact(write)
        except sqlite3.IntegrityError as exc:
            raise AlreadySeated("That member already has a seat at this table.") from exc
        return version

    async def seat_changes(self, table_id: int) -> list[SeatChange]:
        rows = await self._read(lambda db: db.execute(
            "SELECT * FROM seat_changes WHERE table_id = ? ORDER BY id", (table_id,)).fetchall())
        return [SeatChange(int(r["table_id"]), int(r["seat"]), r["old_member_id"],
                           int(r["new_member_id"]), str(r["old_name"]), str(r["new_name"]),
                           int(r["by_member_id"]), int(r["at"]), int(r["version"]))
                for r in rows]

    async def set_absent(self, table_id: int, seat: int, absent: bool) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO seat_clocks (table_id, seat, absent) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET absent = excluded.absent,"
            " streak = CASE WHEN excluded.absent THEN seat_clocks.streak ELSE 0 END",
            (table_id, seat, int(absent))))

    async def cast_vote(self, turn_id: int, round_: int, member_id: int, choice: str, at: int
                        ) -> dict[int, str]:
        """Record (or change) a member's vote in this round; returns the round's votes."""

        def write(db: sqlite3.Connection) -> dict[int, str]:
            db.execute(
                "INSERT INTO out_of_time_votes (turn_id, round, member_id, choice, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (turn_id, member_id) DO UPDATE SET"
                " choice = excluded.choice, at = excluded.at, round = excluded.round",
                (turn_id, round_, member_id, choice, at))
            return _votes(db, turn_id, round_)

        return await self._transact(write)

    async def votes_cast(self, turn_id: int, round_: int) -> dict[int, str]:
        return await self._read(lambda db: _votes(db, turn_id, round_))

    async def set_dms_refused(self, member_id: int, refused: bool, at: int) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO member_settings (member_id, dms_refused, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (member_id) DO UPDATE SET dms_refused = excluded.dms_refused",
            (member_id, int(refused), at)))

    async def since_last_moves(self, table_id: int, seats: Iterable[int]
                               ) -> tuple[dict[int, int], list[ActionRecord]]:
        """Each seat's latest move (its table version; seats that never moved are left out),
        and the log after the earliest of them: one hand-off."""
        wanted = sorted(set(seats))
        marks = ", ".join("?" for _ in wanted)

        def read(db: sqlite3.Connection) -> tuple[dict[int, int], list[ActionRecord]]:
            rows = db.execute(
                f"SELECT seat, MAX(version) FROM actions WHERE table_id = ? AND kind = 'act'"
                f" AND seat IN ({marks}) GROUP BY seat", (table_id, *wanted)).fetchall()
            last = {int(r[0]): int(r[1]) for r in rows}
            after = min(last.get(s, 0) for s in wanted)
            log = db.execute("SELECT * FROM actions WHERE table_id = ? AND version > ?"
                             " ORDER BY version", (table_id, after)).fetchall()
            return last, [action_record(r) for r in log]

        return await self._read(read) if wanted else ({}, [])


def _votes(db: sqlite3.Connection, turn_id: int, round_: int) -> dict[int, str]:
    rows = db.execute("SELECT member_id, choice FROM out_of_time_votes WHERE turn_id = ?"
                      " AND round = ?", (turn_id, round_)).fetchall()
    return {int(r[0]): str(r[1]) for r in rows}
