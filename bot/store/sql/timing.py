"""Rows of asynchronous play: table and league timing, pauses, seat clocks, turns (each with
its deadline), reminders, and the turns planned after a change (the planning scripts are in
``turns``; seat changes, votes and member settings in ``seats``).

Times are epoch seconds. Firing a deadline or a reminder is one atomic claim,
``UPDATE ... WHERE fired_at IS NULL``: of two processes claiming one row, the second waits on
the row lock, re-checks the condition once the first commits, and updates nothing; so each
fires at most once whatever restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from bot.store.records import (
    PlanRequest,
    ReminderRecord,
    SeatClock,
    Step,
    TableClock,
    TurnRecord,
    WaitingTurn,
)
from bot.store.sql.database import Repository, transaction
from bot.store.sql.rows import record
from bot.store.sql.script import Script, count, row, rows, value
from bot.store.sql.seats import MARK_DASHBOARDS
from bot.store.sql.tables import dumps
from bot.store.sql.turns import open_turns, seat_clocks, timing_in_force, turn_record, write_plan

# Open turns of tables that are not paused.
_RUNNING = ("SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.ended_at IS NULL AND c.paused_at IS NULL")


class Timing(Repository):
    # -- a move and its planned turns --------------------------------------------------------
    async def record_steps_planned(self, table_id: int, expected_version: int,
                                   steps: Sequence[Step], plan: PlanRequest | None
                                   ) -> tuple[int, dict[int, TurnRecord] | None]:
        """``record_steps``, then the table's turns planned (``plan``) in the same
        transaction. A failure of the plan undoes only its own writes, never the moves; the
        open turns it returns are None then."""
        # The steps' version bump holds the table's row lock; without steps, the plan takes it.
        then = None if plan is None else write_plan(plan, locked=bool(steps))
        return await self._db.change(table_id, expected_version, steps, then)

    async def write_plan(self, plan: PlanRequest) -> dict[int, TurnRecord]:
        """Plan a table's turns in a transaction of its own (see ``PlanRequest``)."""
        return await self._db.write(write_plan(plan, locked=False))

    # -- a table's timing --------------------------------------------------------------------
    async def set_table_timing(self, table_id: int, timing: dict[str, Any]) -> None:
        await self._db.execute(count(
            "INSERT INTO table_timing (table_id, timing) VALUES (?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET timing = excluded.timing",
            table_id, dumps(timing)))

    async def set_league_timing(self, league_id: int, timing: dict[str, Any] | None) -> None:
        """A league's pace for its tables (None: each table chooses its own)."""
        if timing is None:
            await self._db.execute(count("DELETE FROM league_timing WHERE league_id = ?",
                                         league_id))
            return
        await self._db.execute(count(
            "INSERT INTO league_timing (league_id, timing) VALUES (?, ?)"
            " ON CONFLICT (league_id) DO UPDATE SET timing = excluded.timing",
            league_id, dumps(timing)))

    async def timing_in_force(self, table_id: int) -> tuple[dict[str, Any] | None, bool]:
        """The timing a table plays at (None: no limit), and whether its league imposes it."""
        return await self._db.read(timing_in_force(table_id))

    async def table_clock(self, table_id: int) -> TableClock | None:
        return await self._one(partial(record, TableClock), row(
            "SELECT * FROM table_timing WHERE table_id = ?", table_id))

    async def seat_clocks(self, table_id: int) -> dict[int, SeatClock]:
        return await self._db.read(seat_clocks(table_id))

    @transaction
    def pause_table(self, table_id: int, at: int, by: int, reason: str,
                    timing: dict[str, Any]) -> Script[bool]:
        """Stop a table's clock (a table without a timing row gets ``timing``); False if it
        was already paused."""
        yield count("INSERT INTO table_timing (table_id, timing) VALUES (?, ?)"
                    " ON CONFLICT (table_id) DO NOTHING", table_id, dumps(timing))
        yield count(MARK_DASHBOARDS, table_id)
        return bool((yield count(
            "UPDATE table_timing SET paused_at = ?, paused_by = ?, pause_reason = ?"
            " WHERE table_id = ? AND paused_at IS NULL", at, by, reason, table_id)) == 1)

    @transaction
    def resume_table(self, table_id: int, at: int) -> Script[int | None]:
        """Restart a paused table's clock: open deadlines and reminders move on by the time it
        stood still (a turn started during the pause, by the time since it started). Returns
        the seconds paused, or None if the table was not paused."""
        found = yield value("SELECT paused_at FROM table_timing WHERE table_id = ?"
                            " AND paused_at IS NOT NULL FOR UPDATE", table_id)
        if found is None:
            return None
        paused_at = int(found)
        shift = "(? - CASE WHEN created_at > ? THEN created_at ELSE ? END)"
        yield count(
            f"UPDATE turns SET due_at = due_at + {shift}, started_at = started_at + {shift}"
            " WHERE table_id = ? AND ended_at IS NULL AND fired_at IS NULL",
            at, paused_at, paused_at, at, paused_at, paused_at, table_id)
        yield count("UPDATE reminders SET due_at = due_at + ? WHERE table_id = ?"
                    " AND fired_at IS NULL", at - paused_at, table_id)
        yield count("UPDATE turns SET vote_due = vote_due + ? WHERE table_id = ?"
                    " AND ended_at IS NULL AND vote_due IS NOT NULL", at - paused_at,
                    table_id)
        yield count("UPDATE table_timing SET paused_at = NULL, paused_by = NULL,"
                    " pause_reason = NULL WHERE table_id = ?", table_id)
        yield count(MARK_DASHBOARDS, table_id)
        return at - paused_at

    # -- turns -------------------------------------------------------------------------------
    async def open_turns(self, table_id: int) -> dict[int, TurnRecord]:
        return await self._db.read(open_turns(table_id))

    async def get_turn(self, turn_id: int) -> TurnRecord | None:
        return await self._one(turn_record, row("SELECT * FROM turns WHERE id = ?", turn_id))

    async def due_turns(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open turns past their deadline, not yet fired, at tables that are not paused."""
        return await self._many(turn_record, rows(
            f"{_RUNNING} AND t.due_at <= ? AND t.fired_at IS NULL ORDER BY t.due_at, t.id"
            " LIMIT ?", now, limit))

    async def fired_turns(self) -> list[tuple[TurnRecord, int | None, int]]:
        """Open turns whose deadline fired, at playing tables, oldest deadline first; each
        with its table's server and version."""
        found = await self._db.query(rows(
            "SELECT t.*, g.guild_id AS table_guild, g.version AS table_version FROM turns t"
            " JOIN game_tables g ON g.id = t.table_id WHERE t.fired_at IS NOT NULL"
            " AND t.ended_at IS NULL AND g.status = 'playing' ORDER BY t.due_at, t.id"))
        return [(turn_record(r), r["table_guild"], int(r["table_version"])) for r in found]

    async def claim_turn(self, turn_id: int, now: int) -> bool:
        return bool(await self._db.execute(count(
            "UPDATE turns SET fired_at = ?, round = round + 1, vote_state = NULL WHERE id = ?"
            " AND fired_at IS NULL AND ended_at IS NULL", now, turn_id)))

    @transaction
    def set_deadline(self, turn_id: int, due_at: int | None, reminder_at: int | None,
                     extra: int, refire: bool) -> Script[bool]:
        """A turn's deadline planned again (see the interface)."""
        found = yield row("SELECT * FROM turns WHERE id = ? AND ended_at IS NULL"
                          " AND vote_due IS NULL FOR UPDATE", turn_id)
        if found is None or (found["fired_at"] is not None and not refire):
            return False
        if found["due_at"] == due_at and found["fired_at"] is None:
            if found["extra"] != extra:
                yield count("UPDATE turns SET extra = ? WHERE id = ?", extra, turn_id)
            return False
        yield count("UPDATE turns SET due_at = ?, extra = ?, fired_at = NULL WHERE id = ?",
                    due_at, extra, turn_id)
        yield count("DELETE FROM reminders WHERE turn_id = ? AND fired_at IS NULL", turn_id)
        if reminder_at is not None and found["member_id"] is not None:
            # One reminder per deadline: none again for a deadline already reminded of.
            yield count(
                "INSERT INTO reminders (turn_id, table_id, member_id, due_at, deadline)"
                " SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM reminders"
                " WHERE turn_id = ? AND deadline = ? AND fired_at IS NOT NULL)"
                " ON CONFLICT (turn_id, due_at) DO NOTHING",
                turn_id, found["table_id"], found["member_id"], reminder_at, due_at,
                turn_id, due_at)
        yield count(MARK_DASHBOARDS, found["table_id"])
        return True

    async def open_vote(self, turn_id: int, round_: int, vote_due: int) -> bool:
        return bool(await self._db.execute(count(
            "UPDATE turns SET vote_due = ? WHERE id = ? AND round = ? AND ended_at IS NULL"
            " AND vote_due IS NULL AND vote_state IS NULL", vote_due, turn_id, round_)))

    async def due_votes(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open votes past their end, at tables that are not paused."""
        return await self._many(turn_record, rows(
            f"{_RUNNING} AND t.vote_due <= ? ORDER BY t.vote_due, t.id LIMIT ?", now, limit))

    async def close_vote(self, turn_id: int, round_: int) -> bool:
        return bool(await self._db.execute(count(
            "UPDATE turns SET vote_due = NULL, vote_state = 'closing' WHERE id = ? AND round = ?"
            " AND vote_due IS NOT NULL AND ended_at IS NULL", turn_id, round_)))

    async def vote_carried_out(self, turn_id: int, round_: int, offered: bool = False
                               ) -> None:
        """``offered``: the vote offered the seat to a substitute (kept for the offer's end)."""
        await self._db.execute(count(
            "UPDATE turns SET vote_state = 'done', offered = ? WHERE id = ? AND round = ?"
            " AND vote_state = 'closing'", offered, turn_id, round_))

    async def closing_votes(self, limit: int = 100) -> list[TurnRecord]:
        return await self._many(turn_record, rows(
            f"{_RUNNING} AND t.vote_state = 'closing' ORDER BY t.id LIMIT ?", limit))

    async def waiting_turns(self, member_id: int) -> list[WaitingTurn]:
        """Every live table, on every server, that waits on the member: oldest wait first."""
        found = await self._db.query(rows(
            "SELECT t.*, g.guild_id, g.channel_id, g.game_id, g.message_id, c.paused_at"
            " FROM turns t JOIN game_tables g ON g.id = t.table_id"
            " LEFT JOIN table_timing c ON c.table_id = t.table_id"
            " WHERE t.member_id = ? AND t.ended_at IS NULL AND g.status = 'playing'"
            " ORDER BY t.started_at, t.id", member_id))
        return [record(WaitingTurn, r, paused=r["paused_at"] is not None) for r in found]

    # -- reminders ---------------------------------------------------------------------------
    async def add_reminder(self, turn_id: int, table_id: int, member_id: int, due_at: int
                           ) -> None:
        await self._db.execute(count(
            "INSERT INTO reminders (turn_id, table_id, member_id, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (turn_id, due_at) DO NOTHING", turn_id, table_id, member_id, due_at))

    async def due_reminders(self, now: int, limit: int = 200) -> list[ReminderRecord]:
        """Unsent reminders that are due, of turns still open and not fired, at tables that
        are not paused."""
        return await self._many(partial(record, ReminderRecord), rows(
            "SELECT r.* FROM reminders r JOIN turns t ON t.id = r.turn_id"
            " LEFT JOIN table_timing c ON c.table_id = r.table_id"
            " WHERE r.due_at <= ? AND r.fired_at IS NULL AND t.ended_at IS NULL"
            " AND t.fired_at IS NULL AND c.paused_at IS NULL ORDER BY r.member_id, r.id"
            " LIMIT ?", now, limit))

    async def claim_reminder(self, reminder_id: int, now: int) -> bool:
        return bool(await self._db.execute(count(
            "UPDATE reminders SET fired_at = ? WHERE id = ? AND fired_at IS NULL",
            now, reminder_id)))

    async def move_reminder(self, reminder_id: int, due_at: int) -> None:
        await self._db.execute(count(
            "UPDATE reminders SET due_at = ? WHERE id = ? AND fired_at IS NULL",
            due_at, reminder_id))
