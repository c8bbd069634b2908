"""Rows of asynchronous play in the PostgreSQL store: table and league timing, pauses, seat
clocks, turns (each with its deadline), reminders, and the turns planned after a change.

Firing a deadline or a reminder is one atomic claim, ``UPDATE ... WHERE fired_at IS NULL
RETURNING id``: of two processes claiming one row, the second waits on the row lock, re-checks
the condition once the first commits, and updates nothing. Planning takes the table's row lock
first (a move's transaction holds it already), so two processes never plan one table at once.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from bot.store.postgres.tables import PostgresTables, dumps
from bot.store.records import Step
from bot.store.sqlite.rows import SETTINGS_COLUMNS
from bot.store.timing_records import (
    PlanInputs,
    PlanRequest,
    ReminderRecord,
    SeatClock,
    TableClock,
    TurnRecord,
    WaitingTurn,
)

log = logging.getLogger(__name__)

Row = Mapping[str, Any]

# Marks the dashboards of a table's members for an edit (their waiting tables changed).
MARK_DASHBOARDS = ("UPDATE dashboards SET dirty = TRUE WHERE NOT dirty AND member_id IN"
                   " (SELECT member_id FROM seats WHERE table_id = $1)")


class PostgresTiming(PostgresTables):
    # -- a move and its planned turns --------------------------------------------------------

    async def record_steps_planned(
        self, table_id: int, expected_version: int, steps: Sequence[Step],
        plan: PlanRequest | None,
    ) -> tuple[int, dict[int, TurnRecord] | None]:
        """``record_steps``, then ``plan`` in the same transaction: one commit. A failure of
        the plan (in a savepoint) undoes only its own writes; its open turns are None then."""
        if plan is None or not steps:
            return await self.record_steps(table_id, expected_version, steps), None
        turns: dict[int, TurnRecord] | None = None
        async with self._pool.acquire() as conn, conn.transaction():
            version = await self._steps_on(conn, table_id, expected_version, steps)
            try:
                async with conn.transaction():
                    turns = await write_plan(conn, plan, locked=True)
            except Exception:
                log.exception("planning the turns after a move of table %s failed", table_id)
        self.commits += 1
        return version, turns

    async def write_plan(self, plan: PlanRequest) -> dict[int, TurnRecord]:
        """Plan a table's turns in a transaction of its own (see ``PlanRequest``)."""
        async with self._write() as conn:
            return await write_plan(conn, plan, locked=False)

    # -- a table's timing --------------------------------------------------------------------

    async def set_table_timing(self, table_id: int, timing: dict[str, Any]) -> None:
        await self._pool.execute(
            "INSERT INTO table_timing (table_id, timing) VALUES ($1, $2)"
            " ON CONFLICT (table_id) DO UPDATE SET timing = excluded.timing",
            table_id, dumps(timing))

    async def set_league_timing(self, league_id: int, timing: dict[str, Any] | None) -> None:
        """A league's pace for its tables (None: each table chooses its own)."""
        if timing is None:
            await self._pool.execute("DELETE FROM league_timing WHERE league_id = $1",
                                     league_id)
            return
        await self._pool.execute(
            "INSERT INTO league_timing (league_id, timing) VALUES ($1, $2)"
            " ON CONFLICT (league_id) DO UPDATE SET timing = excluded.timing",
            league_id, dumps(timing))

    async def timing_in_force(self, table_id: int) -> tuple[dict[str, Any] | None, bool]:
        """The timing a table plays at (None: no limit), and whether its league imposes it."""
        async with self._pool.acquire() as conn:
            return await _timing_in_force(conn, table_id)

    async def table_clock(self, table_id: int) -> TableClock | None:
        r = await self._pool.fetchrow("SELECT * FROM table_timing WHERE table_id = $1",
                                      table_id)
        return None if r is None else TableClock(r["table_id"], json.loads(r["timing"]),
                                                 r["paused_at"], r["paused_by"],
                                                 r["pause_reason"])

    async def seat_clocks(self, table_id: int) -> dict[int, SeatClock]:
        async with self._pool.acquire() as conn:
            return await _seat_clocks(conn, table_id)

    async def pause_table(self, table_id: int, at: int, by: int, reason: str,
                          timing: dict[str, Any]) -> bool:
        """Stop a table's clock (a table without a timing row gets ``timing``); False if it
        was already paused."""
        async with self._write() as conn:
            await conn.execute("INSERT INTO table_timing (table_id, timing) VALUES ($1, $2)"
                               " ON CONFLICT (table_id) DO NOTHING", table_id, dumps(timing))
            await conn.execute(MARK_DASHBOARDS, table_id)
            done = await conn.fetchval(
                "UPDATE table_timing SET paused_at = $2, paused_by = $3, pause_reason = $4"
                " WHERE table_id = $1 AND paused_at IS NULL RETURNING table_id",
                table_id, at, by, reason)
            return done is not None

    async def resume_table(self, table_id: int, at: int) -> int | None:
        """Restart a paused table's clock: open deadlines and reminders move on by the time it
        stood still (a turn started during the pause, by the time since it started). Returns
        the seconds paused, or None if the table was not paused."""
        async with self._write() as conn:
            paused_at = await conn.fetchval(
                "SELECT paused_at FROM table_timing WHERE table_id = $1"
                " AND paused_at IS NOT NULL FOR UPDATE", table_id)
            if paused_at is None:
                return None
            shift = "($2 - GREATEST(created_at, $3))"
            await conn.execute(
                f"UPDATE turns SET due_at = due_at + {shift}, started_at = started_at + {shift}"
                " WHERE table_id = $1 AND ended_at IS NULL AND fired_at IS NULL",
                table_id, at, paused_at)
            await conn.execute("UPDATE reminders SET due_at = due_at + $2 WHERE table_id = $1"
                               " AND fired_at IS NULL", table_id, at - paused_at)
            await conn.execute("UPDATE turns SET vote_due = vote_due + $2 WHERE table_id = $1"
                               " AND ended_at IS NULL AND vote_due IS NOT NULL",
                               table_id, at - paused_at)
            await conn.execute("UPDATE table_timing SET paused_at = NULL, paused_by = NULL,"
                               " pause_reason = NULL WHERE table_id = $1", table_id)
            await conn.execute(MARK_DASHBOARDS, table_id)
            return int(at - paused_at)

    # -- turns -------------------------------------------------------------------------------

    async def open_turns(self, table_id: int) -> dict[int, TurnRecord]:
        async with self._pool.acquire() as conn:
            return await _open_turns(conn, table_id)

    async def get_turn(self, turn_id: int) -> TurnRecord | None:
        r = await self._pool.fetchrow("SELECT * FROM turns WHERE id = $1", turn_id)
        return None if r is None else _turn(r)

    async def due_turns(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open turns past their deadline, not yet fired, at tables that are not paused."""
        found = await self._pool.fetch(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.due_at <= $1 AND t.fired_at IS NULL AND t.ended_at IS NULL"
            " AND c.paused_at IS NULL ORDER BY t.due_at, t.id LIMIT $2", now, limit)
        return [_turn(r) for r in found]

    async def claim_turn(self, turn_id: int, now: int) -> bool:
        done = await self._pool.fetchval(
            "UPDATE turns SET fired_at = $2, round = round + 1, vote_state = NULL WHERE id = $1"
            " AND fired_at IS NULL AND ended_at IS NULL RETURNING id", turn_id, now)
        return done is not None

    async def set_deadline(self, turn_id: int, due_at: int | None, reminder_at: int | None,
                           extra: int, refire: bool) -> bool:
        """A turn's deadline planned again (see the interface)."""
        async with self._write() as conn:
            row = await conn.fetchrow("SELECT * FROM turns WHERE id = $1 AND ended_at IS NULL"
                                      " AND vote_due IS NULL FOR UPDATE", turn_id)
            if row is None or (row["fired_at"] is not None and not refire):
                return False
            if row["due_at"] == due_at and row["fired_at"] is None:
                if row["extra"] != extra:
                    await conn.execute("UPDATE turns SET extra = $2 WHERE id = $1", turn_id,
                                       extra)
                return False
            await conn.execute("UPDATE turns SET due_at = $2, extra = $3, fired_at = NULL"
                               " WHERE id = $1", turn_id, due_at, extra)
            await conn.execute("DELETE FROM reminders WHERE turn_id = $1 AND fired_at IS NULL",
                               turn_id)
            if reminder_at is not None and row["member_id"] is not None:
                # One reminder per deadline: none again for a deadline already reminded of.
                await conn.execute(
                    "INSERT INTO reminders (turn_id, table_id, member_id, due_at, deadline)"
                    " SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM reminders"
                    " WHERE turn_id = $1 AND deadline = $5 AND fired_at IS NOT NULL)"
                    " ON CONFLICT (turn_id, due_at) DO NOTHING",
                    turn_id, row["table_id"], row["member_id"], reminder_at, due_at)
            await conn.execute(MARK_DASHBOARDS, row["table_id"])
            return True

    async def open_vote(self, turn_id: int, round_: int, vote_due: int) -> bool:
        opened = await self._pool.fetchval(
            "UPDATE turns SET vote_due = $3 WHERE id = $1 AND round = $2 AND ended_at IS NULL"
            " AND vote_due IS NULL AND vote_state IS NULL RETURNING id",
            turn_id, round_, vote_due)
        return opened is not None

    async def due_votes(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open votes past their end, at tables that are not paused."""
        found = await self._pool.fetch(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.vote_due <= $1 AND t.ended_at IS NULL AND c.paused_at IS NULL"
            " ORDER BY t.vote_due, t.id LIMIT $2", now, limit)
        return [_turn(r) for r in found]

    async def close_vote(self, turn_id: int, round_: int) -> bool:
        done = await self._pool.fetchval(
            "UPDATE turns SET vote_due = NULL, vote_state = 'closing' WHERE id = $1"
            " AND round = $2 AND vote_due IS NOT NULL AND ended_at IS NULL RETURNING id",
            turn_id, round_)
        return done is not None

    async def vote_carried_out(self, turn_id: int, round_: int) -> None:
        await self._pool.execute(
            "UPDATE turns SET vote_state = 'done' WHERE id = $1 AND round = $2"
            " AND vote_state = 'closing'", turn_id, round_)

    async def closing_votes(self, limit: int = 100) -> list[TurnRecord]:
        found = await self._pool.fetch(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.vote_state = 'closing' AND t.ended_at IS NULL AND c.paused_at IS NULL"
            " ORDER BY t.id LIMIT $1", limit)
        return [_turn(r) for r in found]

    async def waiting_turns(self, member_id: int) -> list[WaitingTurn]:
        """Every live table, on every server, that waits on the member: oldest wait first."""
        found = await self._pool.fetch(
            "SELECT t.*, g.guild_id, g.channel_id, g.game_id, g.message_id, c.paused_at"
            " FROM turns t JOIN game_tables g ON g.id = t.table_id"
            " LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.member_id = $1 AND t.ended_at IS NULL AND g.status = 'playing'"
            " ORDER BY t.started_at, t.id", member_id)
        return [WaitingTurn(r["table_id"], r["guild_id"], r["channel_id"], r["game_id"],
                            r["message_id"], r["seat"], r["started_at"], r["due_at"],
                            r["paused_at"] is not None) for r in found]

    # -- reminders ---------------------------------------------------------------------------

    async def add_reminder(self, turn_id: int, table_id: int, member_id: int, due_at: int
                           ) -> None:
        await self._pool.execute(
            "INSERT INTO reminders (turn_id, table_id, member_id, due_at)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT (turn_id, due_at) DO NOTHING",
            turn_id, table_id, member_id, due_at)

    async def due_reminders(self, now: int, limit: int = 200) -> list[ReminderRecord]:
        """Unsent reminders that are due, of turns still open and not fired, at tables that
        are not paused."""
        found = await self._pool.fetch(
            "SELECT r.* FROM reminders r JOIN turns t ON t.id = r.turn_id"
            " LEFT JOIN table_timing c ON c.table_id = r.table_id"
            " WHERE r.due_at <= $1 AND r.fired_at IS NULL AND t.ended_at IS NULL"
            " AND t.fired_at IS NULL AND c.paused_at IS NULL ORDER BY r.member_id, r.id"
            " LIMIT $2", now, limit)
        return [ReminderRecord(r["id"], r["turn_id"], r["table_id"], r["member_id"],
                               r["due_at"]) for r in found]

    async def claim_reminder(self, reminder_id: int, now: int) -> bool:
        done = await self._pool.fetchval(
            "UPDATE reminders SET fired_at = $2 WHERE id = $1 AND fired_at IS NULL"
            " RETURNING id", reminder_id, now)
        return done is not None

    async def move_reminder(self, reminder_id: int, due_at: int) -> None:
        await self._pool.execute(
            "UPDATE reminders SET due_at = $2 WHERE id = $1 AND fired_at IS NULL",
            reminder_id, due_at)


# -- inside a transaction ------------------------------------------------------------------------


async def write_plan(conn: asyncpg.Connection, plan: PlanRequest, *, locked: bool
                     ) -> dict[int, TurnRecord]:
    """Read what planning needs, let the planner decide, write it (see ``PlanRequest``).
    ``locked``: the transaction holds the table's row lock already (a move's)."""
    table_id, now = plan.table_id, plan.now
    if not locked:
        await conn.execute("SELECT 1 FROM game_tables WHERE id = $1 FOR UPDATE", table_id)
    if plan.planner is None:
        await conn.execute("UPDATE turns SET ended_at = $2 WHERE table_id = $1"
                           " AND ended_at IS NULL", table_id, now)
        # The table ended with its game over: each member seated finished it (once).
        await conn.execute(
            "INSERT INTO member_events (member_id, table_id, kind, at) SELECT s.member_id,"
            " s.table_id, 'finished', $2 FROM seats s JOIN game_tables g ON g.id = s.table_id"
            " WHERE s.table_id = $1 AND s.member_id IS NOT NULL AND g.status = 'over'"
            " ON CONFLICT DO NOTHING", table_id, now)
        await conn.execute(MARK_DASHBOARDS, table_id)
        return {}
    inputs = PlanInputs((await _timing_in_force(conn, table_id))[0],
                        await _seat_clocks(conn, table_id), await _open_turns(conn, table_id),
                        await settings_of(conn, list(dict.fromkeys(plan.member_ids))))
    rows = plan.planner(inputs)
    if rows.end_turns:
        await conn.execute("UPDATE turns SET ended_at = $1 WHERE id = ANY($2::bigint[])"
                           " AND ended_at IS NULL", now, rows.end_turns)
    for t in rows.new_turns:
        made = await conn.fetchval(
            "INSERT INTO turns (table_id, seat, member_id, since_version, started_at, due_at,"
            " created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
            " ON CONFLICT (table_id, seat, since_version) DO NOTHING RETURNING id",
            table_id, t.seat, t.member_id, t.since_version, t.started_at, t.due_at, now)
        if made is not None and t.reminder_at is not None and t.member_id is not None:
            await conn.execute(
                "INSERT INTO reminders (turn_id, table_id, member_id, due_at, deadline)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (turn_id, due_at) DO NOTHING",
                made, table_id, t.member_id, t.reminder_at, t.due_at)
    if rows.clocks:
        await conn.executemany(
            "INSERT INTO seat_clocks (table_id, seat, bank, streak, absent, holiday_used)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (table_id, seat) DO UPDATE SET"
            " bank = excluded.bank, streak = excluded.streak, absent = excluded.absent,"
            " holiday_used = excluded.holiday_used",
            [(table_id, c.seat, c.bank, c.streak, c.absent, c.holiday_used)
             for c in rows.clocks])
    await conn.execute(MARK_DASHBOARDS, table_id)
    return await _open_turns(conn, table_id)


async def settings_of(conn: asyncpg.Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
    """Stored settings of these members, as ``bot.pace.member.MemberSettings`` fields."""
    if not ids:
        return {}
    found = await conn.fetch("SELECT * FROM member_settings WHERE member_id = ANY($1::bigint[])",
                             ids)
    return {r["member_id"]: {c: r[c] for c in SETTINGS_COLUMNS} for r in found}


async def _timing_in_force(conn: asyncpg.Connection, table_id: int
                           ) -> tuple[dict[str, Any] | None, bool]:
    # A league's pace comes first: it is imposed on every table that counts for it.
    r = await conn.fetchrow(
        "SELECT l.timing AS league, t.timing AS own FROM game_tables g"
        " LEFT JOIN league_timing l ON l.league_id = g.league_id"
        " LEFT JOIN table_timing t ON t.table_id = g.id WHERE g.id = $1", table_id)
    if r is None:
        return None, False
    if r["league"] is not None:
        return json.loads(r["league"]), True
    return (None if r["own"] is None else json.loads(r["own"])), False


async def _seat_clocks(conn: asyncpg.Connection, table_id: int) -> dict[int, SeatClock]:
    found = await conn.fetch("SELECT * FROM seat_clocks WHERE table_id = $1", table_id)
    return {r["seat"]: SeatClock(r["seat"], r["bank"], r["streak"], r["absent"],
                                 r["holiday_used"]) for r in found}


async def _open_turns(conn: asyncpg.Connection, table_id: int) -> dict[int, TurnRecord]:
    found = await conn.fetch("SELECT * FROM turns WHERE table_id = $1 AND ended_at IS NULL",
                             table_id)
    return {r["seat"]: _turn(r) for r in found}


def _turn(r: Row) -> TurnRecord:
    return TurnRecord(id=r["id"], table_id=r["table_id"], seat=r["seat"],
                      member_id=r["member_id"], since_version=r["since_version"],
                      started_at=r["started_at"], due_at=r["due_at"], fired_at=r["fired_at"],
                      ended_at=r["ended_at"], extra=r["extra"], round=r["round"],
                      vote_due=r["vote_due"], vote_state=r["vote_state"])
