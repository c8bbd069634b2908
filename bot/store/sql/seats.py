"""Rows of asynchronous play about members and seats: member settings, DM dashboards, seats
changing hands, votes on a seat out of time, and what each seat missed since its last move."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from typing import Any

from bot.store.errors import AlreadySeated, UniqueViolation
from bot.store.records import ActionRecord, DashboardRecord, SeatChange
from bot.store.sql.database import Repository, transaction
from bot.store.sql.rows import record
from bot.store.sql.script import Script, count, marks, row, rows
from bot.store.sql.tables import action_record, advance

SETTINGS_COLUMNS = ("member_id", "tz", "quiet_start", "quiet_end", "interval_hours",
                    "dm_notices", "preview", "away_from", "away_until", "dashboard",
                    "dms_refused")
_FLAGS = ("dm_notices", "preview", "dashboard", "dms_refused")

# Marks the dashboards of a table's members for an edit (their waiting tables changed).
MARK_DASHBOARDS = ("UPDATE dashboards SET dirty = TRUE WHERE NOT dirty AND member_id IN"
                   " (SELECT member_id FROM seats WHERE table_id = ?)")


def member_settings(ids: list[int]) -> Script[dict[int, dict[str, Any]]]:
    """Stored settings of these members, as ``bot.pace.member.MemberSettings`` fields."""
    if not ids:
        return {}
    found = yield rows(f"SELECT * FROM member_settings WHERE member_id IN ({marks(len(ids))})",
                       *ids)
    return {int(r["member_id"]): {c: bool(r[c]) if c in _FLAGS else r[c]
                                  for c in SETTINGS_COLUMNS} for r in found}


def votes_of(turn_id: int, round_: int) -> Script[dict[int, str]]:
    found = yield rows("SELECT member_id, choice FROM out_of_time_votes WHERE turn_id = ?"
                       " AND round = ?", turn_id, round_)
    return {int(r["member_id"]): str(r["choice"]) for r in found}


class Seats(Repository):
    # -- reliability -------------------------------------------------------------------------
    async def add_member_event(self, member_id: int, table_id: int, kind: str, turn_id: int,
                               at: int) -> None:
        await self._db.execute(count(
            "INSERT INTO member_events (member_id, table_id, kind, turn_id, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            member_id, table_id, kind, turn_id, at))

    async def member_events(self, member_id: int) -> list[tuple[int, str, int]]:
        return await self._many(lambda r: (int(r["table_id"]), str(r["kind"]), int(r["at"])),
                                rows("SELECT table_id, kind, at FROM member_events"
                                     " WHERE member_id = ? ORDER BY at, id", member_id))

    async def forget_member_event(self, member_id: int, table_id: int, kind: str) -> None:
        await self._db.execute(count(
            "DELETE FROM member_events WHERE member_id = ? AND table_id = ? AND kind = ?",
            member_id, table_id, kind))

    # -- server and member settings ----------------------------------------------------------
    async def server_settings(self, guild_id: int) -> dict[str, Any] | None:
        return await self._one(lambda r: dict(json.loads(r["settings"])), row(
            "SELECT settings FROM server_settings WHERE guild_id = ?", guild_id))

    async def save_server_settings(self, guild_id: int, values: dict[str, Any], at: int
                                   ) -> None:
        await self._db.execute(count(
            "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at", guild_id, json.dumps(values, sort_keys=True),
            at))

    async def member_settings(self, member_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Stored settings of these members (members without any are left out)."""
        return await self._db.read(member_settings(list(dict.fromkeys(member_ids))))

    @transaction
    def save_member_settings(self, values: dict[str, Any], at: int) -> Script[None]:
        """Save a member's settings; a dashboard turned on is due for its first message."""
        sets = ", ".join(f"{c} = excluded.{c}" for c in SETTINGS_COLUMNS[1:])
        yield count(
            f"INSERT INTO member_settings ({', '.join(SETTINGS_COLUMNS)}, updated_at)"
            f" VALUES ({marks(len(SETTINGS_COLUMNS) + 1)}) ON CONFLICT (member_id)"
            f" DO UPDATE SET {sets}, updated_at = excluded.updated_at",
            *(values[c] for c in SETTINGS_COLUMNS), at)
        if values["dashboard"]:
            yield count("INSERT INTO dashboards (member_id) VALUES (?) ON CONFLICT"
                        " (member_id) DO UPDATE SET dirty = TRUE", values["member_id"])
        else:
            yield count("DELETE FROM dashboards WHERE member_id = ?", values["member_id"])

    async def set_dms_refused(self, member_id: int, refused: bool, at: int) -> None:
        await self._db.execute(count(
            "INSERT INTO member_settings (member_id, dms_refused, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (member_id) DO UPDATE SET dms_refused = excluded.dms_refused",
            member_id, bool(refused), at))

    # -- dashboards --------------------------------------------------------------------------
    async def take_dashboards(self, limit: int = 50) -> list[DashboardRecord]:
        """Dashboards whose tables changed since their last edit, marked as edited (each
        taken by one process: rows another process is taking are skipped, not waited for)."""
        found = await self._db.execute(rows(
            "UPDATE dashboards SET dirty = FALSE WHERE dirty AND member_id IN"
            " (SELECT member_id FROM dashboards WHERE dirty ORDER BY member_id LIMIT ?"
            " FOR UPDATE SKIP LOCKED) RETURNING *", limit))
        return sorted((record(DashboardRecord, r) for r in found), key=lambda d: d.member_id)

    @transaction
    def dashboard_posted(self, member_id: int, channel_id: int | None,
                         message_id: int | None) -> Script[None]:
        """Where a member's dashboard message is now; None: it cannot be sent (DMs closed),
        so the member's dashboard is turned off."""
        if message_id is None:
            yield count("DELETE FROM dashboards WHERE member_id = ?", member_id)
            yield count("UPDATE member_settings SET dashboard = FALSE WHERE member_id = ?",
                        member_id)
            return
        yield count("UPDATE dashboards SET channel_id = ?, message_id = ?"
                    " WHERE member_id = ?", channel_id, message_id, member_id)

    # -- seats changing hands ----------------------------------------------------------------
    async def substitute_seat(self, table_id: int, seat: int, member_id: int, name: str, by: int,
                              at: int, expected_version: int) -> int:
        """Give a seat to another member and record the change; bumps the version so the old
        member's buttons stop working. ``AlreadySeated`` if the member holds another seat."""
        version = expected_version + 1

        def substitute() -> Script[None]:
            yield from advance(table_id, expected_version)
            old = yield row("SELECT member_id, name FROM seats WHERE table_id = ?"
                            " AND position = ?", table_id, seat)
            yield count("UPDATE seats SET member_id = ?, name = ?, is_computer = FALSE,"
                        " dm_closed = FALSE WHERE table_id = ? AND position = ?",
                        member_id, name, table_id, seat)
            yield count(
                "INSERT INTO seat_changes (table_id, seat, old_member_id, new_member_id,"
                " old_name, new_name, by_member_id, at, version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                table_id, seat, None if old is None else old["member_id"], member_id,
                "" if old is None else old["name"], name, by, at, version)
            # The newcomer's own holiday allowance (it is per player); the bank is the seat's.
            yield count("UPDATE seat_clocks SET streak = 0, absent = FALSE, holiday_used = 0"
                        " WHERE table_id = ? AND seat = ?", table_id, seat)

        try:
            await self._db.write(substitute())
        except UniqueViolation as exc:
            raise AlreadySeated("That member already has a seat at this table.") from exc
        return version

    async def seat_changes(self, table_id: int) -> list[SeatChange]:
        return await self._many(partial(record, SeatChange), rows(
            "SELECT * FROM seat_changes WHERE table_id = ? ORDER BY id", table_id))

    async def set_absent(self, table_id: int, seat: int, absent: bool) -> None:
        await self._db.execute(count(
            "INSERT INTO seat_clocks (table_id, seat, absent) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET absent = excluded.absent,"
            " streak = CASE WHEN excluded.absent THEN seat_clocks.streak ELSE 0 END",
            table_id, seat, bool(absent)))

    # -- votes on a seat out of time ---------------------------------------------------------
    @transaction
    def cast_vote(self, turn_id: int, round_: int, member_id: int, choice: str, at: int
                  ) -> Script[dict[int, str]]:
        """Record (or change) a member's vote in this round; returns the round's votes."""
        yield count(
            "INSERT INTO out_of_time_votes (turn_id, round, member_id, choice, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (turn_id, member_id) DO UPDATE SET"
            " choice = excluded.choice, at = excluded.at, round = excluded.round",
            turn_id, round_, member_id, choice, at)
        return (yield from votes_of(turn_id, round_))

    async def votes_cast(self, turn_id: int, round_: int) -> dict[int, str]:
        return await self._db.read(votes_of(turn_id, round_))

    # -- what a seat missed ------------------------------------------------------------------
    async def since_last_moves(self, table_id: int, seats: Iterable[int]
                               ) -> tuple[dict[int, int], list[ActionRecord]]:
        """Each seat's latest move (its table version; seats that never moved are left out),
        and the log after the earliest of them: one statement, so one snapshot."""
        wanted = sorted(set(seats))
        if not wanted:
            return {}, []
        # The log from the earliest of the seats' latest moves on (from the start when a
        # seat never moved) holds every seat's latest move: those come from it.
        log = await self._many(action_record, rows(
            "SELECT * FROM actions WHERE table_id = ? AND version >= (SELECT CASE WHEN"
            " COUNT(*) < ? THEN 0 ELSE MIN(latest) END FROM (SELECT MAX(version) AS latest"
            " FROM actions WHERE table_id = ? AND kind = 'act'"
            f" AND seat IN ({marks(len(wanted))}) GROUP BY seat) AS moved) ORDER BY version",
            table_id, len(wanted), table_id, *wanted))
        last: dict[int, int] = {}
        for action in log:
            if action.kind == "act" and action.seat in wanted:
                last[action.seat] = action.version
        after = min(last.get(s, 0) for s in wanted)
        return last, [a for a in log if a.version > after]
