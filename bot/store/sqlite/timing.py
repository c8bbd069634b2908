"""Rows of asynchronous play in the SQLite store: table and league timing, pauses, seat
clocks, turns (each with its deadline) and reminders (seat changes, votes and member settings
are in ``bot.store.sqlite.seats``).

Times are epoch seconds. Firing a deadline or a reminder is an atomic claim
(``UPDATE ... WHERE fired_at IS NULL``), so each fires at most once whatever restarts. Each
method is one hand-off to a connection's thread (``_read`` / ``_transact``).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bot.store.sqlite.rows import MARK_DASHBOARDS, Handoffs
from bot.store.sqlite.rows import member_settings as _settings
from bot.store.timing_records import (
    PlanInputs,
    PlanRequest,
    ReminderRecord,
    SeatClock,
    TableClock,
    TurnRecord,
    WaitingTurn,
)

# The table ended with its game over: each member seated finished it (once).
FINISHED = ("INSERT INTO member_events (member_id, table_id, kind, at) SELECT member_id,"
            " table_id, 'finished', ? FROM seats WHERE table_id = ? AND member_id IS NOT NULL"
            " AND (SELECT status FROM game_tables WHERE id = seats.table_id) = 'over'"
            " ON CONFLICT DO NOTHING")


class TimingRows(Handoffs):
    """Mixed into ``SqliteStore``, which provides the hand-offs."""

    # -- a table's timing --------------------------------------------------------------------

    async def set_table_timing(self, table_id: int, timing: dict[str, Any]) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO table_timing (table_id, timing) VALUES (?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET timing = excluded.timing",
            (table_id, json.dumps(timing, sort_keys=True)),
        ))

    async def set_league_timing(self, league_id: int, timing: dict[str, Any] | None) -> None:
        """A league's pace for its tables (None: each table chooses its own)."""
        if timing is None:
            await self._transact(lambda db: db.execute(
                "DELETE FROM league_timing WHERE league_id = ?", (league_id,)))
            return
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_timing (league_id, timing) VALUES (?, ?)"
            " ON CONFLICT (league_id) DO UPDATE SET timing = excluded.timing",
            (league_id, json.dumps(timing, sort_keys=True))))

    async def timing_in_force(self, table_id: int) -> tuple[dict[str, Any] | None, bool]:
        """The timing a table plays at (None: no limit), and whether its league imposes it."""
        return await self._read(lambda db: _timing_in_force(db, table_id))

    async def table_clock(self, table_id: int) -> TableClock | None:
        row = await self._read(lambda db: db.execute(
            "SELECT * FROM table_timing WHERE table_id = ?", (table_id,)).fetchone())
        return None if row is None else _clock(row)

    async def seat_clocks(self, table_id: int) -> dict[int, SeatClock]:
        return await self._read(lambda db: _seat_clocks(db, table_id))

    async def pause_table(self, table_id: int, at: int, by: int, reason: str,
                          timing: dict[str, Any]) -> bool:
        """Stop a table's clock (a table without a timing row gets ``timing``); False if it
        was already paused."""

        def write(db: sqlite3.Connection) -> bool:
            db.execute("INSERT INTO table_timing (table_id, timing) VALUES (?, ?)"
                       " ON CONFLICT (table_id) DO NOTHING",
                       (table_id, json.dumps(timing, sort_keys=True)))
            db.execute(MARK_DASHBOARDS, (table_id,))
            return db.execute(
                "UPDATE table_timing SET paused_at = ?, paused_by = ?, pause_reason = ?"
                " WHERE table_id = ? AND paused_at IS NULL",
                (at, by, reason, table_id),
            ).rowcount == 1

        return await self._transact(write)

    async def resume_table(self, table_id: int, at: int) -> int | None:
        """Restart a paused table's clock: open deadlines and reminders move on by the time it
        stood still (a turn started during the pause, by the time since it started). Returns
        the seconds paused, or None if the table was not paused."""

        def write(db: sqlite3.Connection) -> int | None:
            row = db.execute("SELECT paused_at FROM table_timing WHERE table_id = ?"
                             " AND paused_at IS NOT NULL", (table_id,)).fetchone()
            if row is None:
                return None
            paused_at = int(row[0])
            shift = "(? - CASE WHEN created_at > ? THEN created_at ELSE ? END)"
            db.execute(
                f"UPDATE turns SET due_at = due_at + {shift}, started_at = started_at + {shift}"
                " WHERE table_id = ? AND ended_at IS NULL AND fired_at IS NULL",
                (at, paused_at, paused_at, at, paused_at, paused_at, table_id),
            )
            db.execute("UPDATE reminders SET due_at = due_at + ? WHERE table_id = ?"
                       " AND fired_at IS NULL", (at - paused_at, table_id))
            db.execute("UPDATE turns SET vote_due = vote_due + ? WHERE table_id = ?"
                       " AND ended_at IS NULL AND vote_due IS NOT NULL", (at - paused_at, table_id))
            db.execute("UPDATE table_timing SET paused_at = NULL, paused_by = NULL,"
                       " pause_reason = NULL WHERE table_id = ?", (table_id,))
            db.execute(MARK_DASHBOARDS, (table_id,))
            return at - paused_at

        return await self._transact(write)

    # -- turns -------------------------------------------------------------------------------

    async def write_plan(self, plan: PlanRequest) -> dict[int, TurnRecord]:
        """Plan a table's turns in a transaction of its own (see ``PlanRequest``)."""
        return await self._transact(lambda db: write_plan(db, plan))

    async def open_turns(self, table_id: int) -> dict[int, TurnRecord]:
        return await self._read(lambda db: _open_turns(db, table_id))

    async def get_turn(self, turn_id: int) -> TurnRecord | None:
        row = await self._read(lambda db: db.execute(
            "SELECT * FROM turns WHERE id = ?", (turn_id,)).fetchone())
        return None if row is None else _turn(row)

    async def due_turns(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open turns past their deadline, not yet fired, at tables that are not paused."""
        rows = await self._read(lambda db: db.execute(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.due_at <= ? AND t.fired_at IS NULL AND t.ended_at IS NULL"
            " AND c.paused_at IS NULL ORDER BY t.due_at, t.id LIMIT ?",
            (now, limit)).fetchall())
        return [_turn(r) for r in rows]

    async def claim_turn(self, turn_id: int, now: int) -> bool:
        return await self._transact(lambda db: db.execute(
            "UPDATE turns SET fired_at = ?, round = round + 1, vote_state = NULL WHERE id = ?"
            " AND fired_at IS NULL AND ended_at IS NULL", (now, turn_id)).rowcount == 1)

    async def set_deadline(self, turn_id: int, due_at: int | None, reminder_at: int | None,
                           extra: int, refire: bool) -> bool:
        """A turn's deadline planned again (see the interface)."""

        def write(db: sqlite3.Connection) -> bool:
            row = db.execute("SELECT * FROM turns WHERE id = ? AND ended_at IS NULL"
                             " AND vote_due IS NULL", (turn_id,)).fetchone()
            if row is None or (row["fired_at"] is not None and not refire):
                return False
            if row["due_at"] == due_at and row["fired_at"] is None:
                if row["extra"] != extra:
                    db.execute("UPDATE turns SET extra = ? WHERE id = ?", (extra, turn_id))
                return False
            db.execute("UPDATE turns SET due_at = ?, extra = ?, fired_at = NULL WHERE id = ?",
                       (due_at, extra, turn_id))
            db.execute("DELETE FROM reminders WHERE turn_id = ? AND fired_at IS NULL",
                       (turn_id,))
            if reminder_at is not None and row["member_id"] is not None:
                # One reminder per deadline: none again for a deadline already reminded of.
                db.execute("INSERT INTO reminders (turn_id, table_id, member_id, due_at,"
                           " deadline) SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM"
                           " reminders WHERE turn_id = ? AND deadline = ? AND fired_at IS NOT"
                           " NULL) ON CONFLICT (turn_id, due_at) DO NOTHING",
                           (turn_id, row["table_id"], row["member_id"], reminder_at, due_at,
                            turn_id, due_at))
            db.execute(MARK_DASHBOARDS, (row["table_id"],))
            return True

        return await self._transact(write)

    async def open_vote(self, turn_id: int, round_: int, vote_due: int) -> bool:
        return await self._transact(lambda db: db.execute(
            "UPDATE turns SET vote_due = ? WHERE id = ? AND round = ? AND ended_at IS NULL"
            " AND vote_due IS NULL AND vote_state IS NULL",
            (vote_due, turn_id, round_)).rowcount == 1)

    async def due_votes(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open votes past their end, at tables that are not paused."""
        rows = await self._read(lambda db: db.execute(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.vote_due <= ? AND t.ended_at IS NULL AND c.paused_at IS NULL"
            " ORDER BY t.vote_due, t.id LIMIT ?", (now, limit)).fetchall())
        return [_turn(r) for r in rows]

    async def close_vote(self, turn_id: int, round_: int) -> bool:
        return await self._transact(lambda db: db.execute(
            "UPDATE turns SET vote_due = NULL, vote_state = 'closing' WHERE id = ? AND round = ?"
            " AND vote_due IS NOT NULL AND ended_at IS NULL", (turn_id, round_)).rowcount == 1)

    async def vote_carried_out(self, turn_id: int, round_: int) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE turns SET vote_state = 'done' WHERE id = ? AND round = ?"
            " AND vote_state = 'closing'", (turn_id, round_)))

    async def closing_votes(self, limit: int = 100) -> list[TurnRecord]:
        rows = await self._read(lambda db: db.execute(
            "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.vote_state = 'closing' AND t.ended_at IS NULL AND c.paused_at IS NULL"
            " ORDER BY t.id LIMIT ?", (limit,)).fetchall())
        return [_turn(r) for r in rows]

    async def waiting_turns(self, member_id: int) -> list[WaitingTurn]:
        """Every live table, on every server, that waits on the member: oldest wait first."""
        rows = await self._read(lambda db: db.execute(
            "SELECT t.*, g.guild_id, g.channel_id, g.game_id, g.message_id, c.paused_at"
            " FROM turns t JOIN game_tables g ON g.id = t.table_id"
            " LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.member_id = ? AND t.ended_at IS NULL AND g.status = 'playing'"
            " ORDER BY t.started_at, t.id", (member_id,)).fetchall())
        return [WaitingTurn(int(r["table_id"]), r["guild_id"], int(r["channel_id"]),
                            str(r["game_id"]), r["message_id"], int(r["seat"]),
                            int(r["started_at"]), r["due_at"], r["paused_at"] is not None)
                for r in rows]

    # -- reminders ---------------------------------------------------------------------------

    async def add_reminder(self, turn_id: int, table_id: int, member_id: int, due_at: int
                           ) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO reminders (turn_id, table_id, member_id, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (turn_id, due_at) DO NOTHING", (turn_id, table_id, member_id, due_at)))

    async def due_reminders(self, now: int, limit: int = 200) -> list[ReminderRecord]:
        """Unsent reminders that are due, of turns still open and not fired, at tables that
        are not paused."""
        rows = await self._read(lambda db: db.execute(
            "SELECT r.* FROM reminders r JOIN turns t ON t.id = r.turn_id"
            " LEFT JOIN table_timing c ON c.table_id = r.table_id"
            " WHERE r.due_at <= ? AND r.fired_at IS NULL AND t.ended_at IS NULL"
            " AND t.fired_at IS NULL AND c.paused_at IS NULL ORDER BY r.member_id, r.id LIMIT ?",
            (now, limit)).fetchall())
        return [ReminderRecord(int(r["id"]), int(r["turn_id"]), int(r["table_id"]),
                               int(r["member_id"]), int(r["due_at"])) for r in rows]

    async def claim_reminder(self, reminder_id: int, now: int) -> bool:
        return await self._transact(lambda db: db.execute(
            "UPDATE reminders SET fired_at = ? WHERE id = ? AND fired_at IS NULL",
            (now, reminder_id)).rowcount == 1)

    async def move_reminder(self, reminder_id: int, due_at: int) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE reminders SET due_at = ? WHERE id = ? AND fired_at IS NULL",
            (due_at, reminder_id)))


# -- on the connection's thread ----------------------------------------------------------------


def write_plan(db: sqlite3.Connection, plan: PlanRequest) -> dict[int, TurnRecord]:
    """Read what planning needs, let the planner decide, write it (see ``PlanRequest``)."""
    table_id, now = plan.table_id, plan.now
    if plan.planner is None:
        db.execute("UPDATE turns SET ended_at = ? WHERE table_id = ? AND ended_at IS NULL",
                   (now, table_id))
        db.execute(FINISHED, (now, table_id))
        db.execute(MARK_DASHBOARDS, (table_id,))
        return {}
    inputs = PlanInputs(
        _timing_in_force(db, table_id)[0], _seat_clocks(db, table_id),
        _open_turns(db, table_id), _settings(db, list(dict.fromkeys(plan.member_ids))),
    )
    rows = plan.planner(inputs)
    db.executemany("UPDATE turns SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                   [(now, t) for t in rows.end_turns])
    for t in rows.new_turns:
        made = db.execute(
            "INSERT INTO turns (table_id, seat, member_id, since_version, started_at,"
            " due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat, since_version) DO NOTHING RETURNING id",
            (table_id, t.seat, t.member_id, t.since_version, t.started_at, t.due_at, now),
        ).fetchone()
        if made is not None and t.reminder_at is not None and t.member_id is not None:
            db.execute(
                "INSERT INTO reminders (turn_id, table_id, member_id, due_at, deadline)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (turn_id, due_at) DO NOTHING",
                (int(made[0]), table_id, t.member_id, t.reminder_at, t.due_at),
            )
    db.executemany(
        "INSERT INTO seat_clocks (table_id, seat, bank, streak, absent, holiday_used)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
        " bank = excluded.bank, streak = excluded.streak, absent = excluded.absent,"
        " holiday_used = excluded.holiday_used",
        [(table_id, c.seat, c.bank, c.streak, int(c.absent), c.holiday_used)
         for c in rows.clocks],
    )
    db.execute(MARK_DASHBOARDS, (table_id,))
    return _open_turns(db, table_id)


def _timing_in_force(db: sqlite3.Connection, table_id: int
                     ) -> tuple[dict[str, Any] | None, bool]:
    # A league's pace comes first: it is imposed on every table that counts for it.
    row = db.execute(
        "SELECT l.timing AS league, t.timing AS own FROM game_tables g"
        " LEFT JOIN league_timing l ON l.league_id = g.league_id"
        " LEFT JOIN table_timing t ON t.table_id = g.id WHERE g.id = ?", (table_id,)).fetchone()
    if row is None:
        return None, False
    if row["league"] is not None:
        return json.loads(row["league"]), True
    return (None if row["own"] is None else json.loads(row["own"])), False


def _clock(r: sqlite3.Row) -> TableClock:
    return TableClock(int(r["table_id"]), json.loads(r["timing"]), r["paused_at"],
                      r["paused_by"], r["pause_reason"])


def _seat_clocks(db: sqlite3.Connection, table_id: int) -> dict[int, SeatClock]:
    rows = db.execute("SELECT * FROM seat_clocks WHERE table_id = ?", (table_id,)).fetchall()
    return {int(r["seat"]): SeatClock(int(r["seat"]), int(r["bank"]), int(r["streak"]),
                                      bool(r["absent"]), int(r["holiday_used"])) for r in rows}


def _open_turns(db: sqlite3.Connection, table_id: int) -> dict[int, TurnRecord]:
    rows = db.execute("SELECT * FROM turns WHERE table_id = ? AND ended_at IS NULL",
                      (table_id,)).fetchall()
    return {int(r["seat"]): _turn(r) for r in rows}


def _turn(row: sqlite3.Row) -> TurnRecord:
    return TurnRecord(
        id=int(row["id"]), table_id=int(row["table_id"]), seat=int(row["seat"]),
        member_id=row["member_id"], since_version=int(row["since_version"]),
        started_at=int(row["started_at"]), due_at=row["due_at"], fired_at=row["fired_at"],
        ended_at=row["ended_at"], extra=int(row["extra"]), round=int(row["round"]),
        vote_due=row["vote_due"], vote_state=row["vote_state"],
    )
