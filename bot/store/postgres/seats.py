"""Rows of asynchronous play about members and seats in the PostgreSQL store: member settings,
DM dashboards, seats changing hands, votes on a seat out of time, and what each seat missed
since its last move (``bot.store.sqlite.seats`` in PostgreSQL's dialect)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import asyncpg

from bot.store.errors import AlreadySeated
from bot.store.postgres import rows
from bot.store.postgres.timing import PostgresTiming, settings_of
from bot.store.records import ActionRecord
from bot.store.sqlite.rows import SETTINGS_COLUMNS
from bot.store.timing_records import DashboardRecord, SeatChange


class PostgresSeats(PostgresTiming):
    # -- reliability -------------------------------------------------------------------------

    async def add_member_event(self, member_id: int, table_id: int, kind: str, turn_id: int,
                               at: int) -> None:
        await self._pool.execute(
            "INSERT INTO member_events (member_id, table_id, kind, turn_id, at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            member_id, table_id, kind, turn_id, at)

    async def member_events(self, member_id: int) -> list[tuple[int, str, int]]:
        found = await self._pool.fetch(
            "SELECT table_id, kind, at FROM member_events WHERE member_id = $1"
            " ORDER BY at, id", member_id)
        return [(r["table_id"], r["kind"], r["at"]) for r in found]

    async def forget_member_event(self, member_id: int, table_id: int, kind: str) -> None:
        await self._pool.execute(
            "DELETE FROM member_events WHERE member_id = $1 AND table_id = $2 AND kind = $3",
            member_id, table_id, kind)

    # -- server and member settings ----------------------------------------------------------

    async def server_settings(self, guild_id: int) -> dict[str, Any] | None:
        found = await self._pool.fetchval(
            "SELECT settings FROM server_settings WHERE guild_id = $1", guild_id)
        return None if found is None else dict(json.loads(found))

    async def save_server_settings(self, guild_id: int, values: dict[str, Any], at: int
                                   ) -> None:
        await self._pool.execute(
            "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at", guild_id, json.dumps(values, sort_keys=True),
            at)

    async def member_settings(self, member_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Stored settings of these members (members without any are left out)."""
        async with self._pool.acquire() as conn:
            return await settings_of(conn, list(dict.fromkeys(member_ids)))

    async def save_member_settings(self, values: dict[str, Any], at: int) -> None:
        """Save a member's settings; a dashboard turned on is due for its first message."""
        marks = ", ".join(f"${n}" for n in range(1, len(SETTINGS_COLUMNS) + 2))
        sets = ", ".join(f"{c} = excluded.{c}" for c in SETTINGS_COLUMNS[1:])
        flags = ("dm_notices", "preview", "dashboard", "dms_refused")
        row = [bool(values[c]) if c in flags else values[c] for c in SETTINGS_COLUMNS]
        async with self._write() as conn:
            await conn.execute(
                f"INSERT INTO member_settings ({', '.join(SETTINGS_COLUMNS)}, updated_at)"
                f" VALUES ({marks}) ON CONFLICT (member_id) DO UPDATE SET {sets},"
                " updated_at = excluded.updated_at", *row, at)
            if values["dashboard"]:
                await conn.execute("INSERT INTO dashboards (member_id) VALUES ($1) ON CONFLICT"
                                   " (member_id) DO UPDATE SET dirty = TRUE",
                                   values["member_id"])
            else:
                await conn.execute("DELETE FROM dashboards WHERE member_id = $1",
                                   values["member_id"])

    # -- dashboards --------------------------------------------------------------------------

    async def take_dashboards(self, limit: int = 50) -> list[DashboardRecord]:
        """Dashboards whose tables changed since their last edit, marked as edited (each
        taken by one process: the rows another process is taking are skipped)."""
        found = await self._pool.fetch(
            "UPDATE dashboards d SET dirty = FALSE FROM (SELECT member_id FROM dashboards"
            " WHERE dirty ORDER BY member_id LIMIT $1 FOR UPDATE SKIP LOCKED) AS due"
            " WHERE d.member_id = due.member_id RETURNING d.*", limit)
        return sorted((DashboardRecord(r["member_id"], r["channel_id"], r["message_id"])
                       for r in found), key=lambda d: d.member_id)

    async def dashboard_posted(self, member_id: int, channel_id: int | None,
                               message_id: int | None) -> None:
        """Where a member's dashboard message is now; None: it cannot be sent (DMs closed),
        so the member's dashboard is turned off."""
        async with self._write() as conn:
            if message_id is None:
                await conn.execute("DELETE FROM dashboards WHERE member_id = $1", member_id)
                await conn.execute("UPDATE member_settings SET dashboard = FALSE"
                                   " WHERE member_id = $1", member_id)
                return
            await conn.execute("UPDATE dashboards SET channel_id = $2, message_id = $3"
                               " WHERE member_id = $1", member_id, channel_id, message_id)

    # -- seats changing hands ----------------------------------------------------------------

    async def substitute_seat(
        self, table_id: int, seat: int, member_id: int, name: str, by: int, at: int,
        expected_version: int,
    ) -> int:
        """Give a seat to another member and record the change; bumps the version so the old
        member's buttons stop working. ``AlreadySeated`` if the member holds another seat."""
        version = expected_version + 1
        try:
            async with self._write() as conn:
                await self._advance(conn, table_id, expected_version)
                old = await conn.fetchrow("SELECT member_id, name FROM seats WHERE table_id = $1"
                                          " AND position = $2", table_id, seat)
                await conn.execute(
                    "UPDATE seats SET member_id = $3, name = $4, is_computer = FALSE,"
                    " dm_closed = FALSE WHERE table_id = $1 AND position = $2",
                    table_id, seat, member_id, name)
                await conn.execute(
                    "INSERT INTO seat_changes (table_id, seat, old_member_id, new_member_id,"
                    " old_name, new_name, by_member_id, at, version)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    table_id, seat, None if old is None else old["member_id"], member_id,
                    "" if old is None else old["name"], name, by, at, version)
                await conn.execute("UPDATE seat_clocks SET streak = 0, absent = FALSE"
                                   " WHERE table_id = $1 AND seat = $2", table_id, seat)
        except asyncpg.UniqueViolationError as exc:
            raise AlreadySeated("That member already has a seat at this table.") from exc
        return version

    async def seat_changes(self, table_id: int) -> list[SeatChange]:
        found = await self._pool.fetch(
            "SELECT * FROM seat_changes WHERE table_id = $1 ORDER BY id", table_id)
        return [SeatChange(r["table_id"], r["seat"], r["old_member_id"], r["new_member_id"],
                           r["old_name"], r["new_name"], r["by_member_id"], r["at"],
                           r["version"]) for r in found]

    async def set_absent(self, table_id: int, seat: int, absent: bool) -> None:
        await self._pool.execute(
            "INSERT INTO seat_clocks (table_id, seat, absent) VALUES ($1, $2, $3)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET absent = excluded.absent,"
            " streak = CASE WHEN excluded.absent THEN seat_clocks.streak ELSE 0 END",
            table_id, seat, absent)

    async def cast_vote(self, turn_id: int, round_: int, member_id: int, choice: str, at: int
                        ) -> dict[int, str]:
        """Record (or change) a member's vote in this round; returns the round's votes."""
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO out_of_time_votes (turn_id, round, member_id, choice, at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (turn_id, member_id) DO UPDATE SET"
                " choice = excluded.choice, at = excluded.at, round = excluded.round",
                turn_id, round_, member_id, choice, at)
            found = await conn.fetch("SELECT member_id, choice FROM out_of_time_votes"
                                     " WHERE turn_id = $1 AND round = $2", turn_id, round_)
        return {r["member_id"]: r["choice"] for r in found}

    async def votes_cast(self, turn_id: int, round_: int) -> dict[int, str]:
        found = await self._pool.fetch("SELECT member_id, choice FROM out_of_time_votes"
                                       " WHERE turn_id = $1 AND round = $2", turn_id, round_)
        return {r["member_id"]: r["choice"] for r in found}

    async def set_dms_refused(self, member_id: int, refused: bool, at: int) -> None:
        await self._pool.execute(
            "INSERT INTO member_settings (member_id, dms_refused, updated_at)"
            " VALUES ($1, $2, $3) ON CONFLICT (member_id) DO UPDATE SET"
            " dms_refused = excluded.dms_refused", member_id, refused, at)

    async def since_last_moves(self, table_id: int, seats: Iterable[int]
                               ) -> tuple[dict[int, int], list[ActionRecord]]:
        """Each seat's latest move (its table version; seats that never moved are left out),
        and the log after the earliest of them: one read transaction."""
        wanted = sorted(set(seats))
        if not wanted:
            return {}, []
        async with self._pool.acquire() as conn, conn.transaction(readonly=True,
                                                                  isolation="repeatable_read"):
            found = await conn.fetch(
                "SELECT seat, max(version) AS v FROM actions WHERE table_id = $1"
                " AND kind = 'act' AND seat = ANY($2::int[]) GROUP BY seat", table_id, wanted)
            last = {r["seat"]: int(r["v"]) for r in found}
            after = min(last.get(s, 0) for s in wanted)
            log = await conn.fetch("SELECT * FROM actions WHERE table_id = $1"
                                   " AND version > $2 ORDER BY version", table_id, after)
        return last, [rows.action_record(r) for r in log]
