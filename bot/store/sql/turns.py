"""The turns of a table: the reads planning needs (timing in force, seat clocks, open turns)
and the plan written (``write_plan``), as scripts for ``Timing`` to run.

Planning takes the table's row lock first (a move's transaction holds it already), so two
processes never plan one table at once.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from bot.store.records import PlanInputs, PlanRequest, SeatClock, TurnRecord
from bot.store.sql.rows import record
from bot.store.sql.script import Script, count, each, marks, row, rows, value
from bot.store.sql.seats import MARK_DASHBOARDS, member_settings

# The table ended with its game over: each member seated finished it (once).
FINISHED = ("INSERT INTO member_events (member_id, table_id, kind, at) SELECT s.member_id,"
            " s.table_id, 'finished', ? FROM seats s JOIN game_tables g ON g.id = s.table_id"
            " WHERE s.table_id = ? AND s.member_id IS NOT NULL AND g.status = 'over'"
            " ON CONFLICT DO NOTHING")

turn_record = partial(record, TurnRecord)


def timing_in_force(table_id: int) -> Script[tuple[dict[str, Any] | None, bool]]:
    return (yield from _timing_and_pause(table_id))[:2]


def _timing_and_pause(table_id: int
                      ) -> Script[tuple[dict[str, Any] | None, bool, int | None]]:
    """The timing in force, whether a league imposes it, and when the table's clock stopped
    (None: it runs), in one read."""
    # A league's pace comes first: it is imposed on every table that counts for it.
    found = yield row(
        "SELECT l.timing AS league, t.timing AS own, t.paused_at FROM game_tables g"
        " LEFT JOIN league_timing l ON l.league_id = g.league_id"
        " LEFT JOIN table_timing t ON t.table_id = g.id WHERE g.id = ?", table_id)
    if found is None:
        return None, False, None
    paused = None if found["paused_at"] is None else int(found["paused_at"])
    if found["league"] is not None:
        return json.loads(found["league"]), True, paused
    return (None if found["own"] is None else json.loads(found["own"])), False, paused


def seat_clocks(table_id: int) -> Script[dict[int, SeatClock]]:
    found = yield rows("SELECT * FROM seat_clocks WHERE table_id = ?", table_id)
    return {int(r["seat"]): record(SeatClock, r) for r in found}


def open_turns(table_id: int) -> Script[dict[int, TurnRecord]]:
    found = yield rows("SELECT * FROM turns WHERE table_id = ? AND ended_at IS NULL", table_id)
    return {int(r["seat"]): turn_record(r) for r in found}


def write_plan(plan: PlanRequest, *, locked: bool) -> Script[dict[int, TurnRecord]]:
    """Read what planning needs, let the planner decide, write it (see ``PlanRequest``).
    ``locked``: the transaction holds the table's row lock already (a move's)."""
    table_id, at = plan.table_id, plan.now
    if not locked:
        yield row("SELECT 1 FROM game_tables WHERE id = ? FOR UPDATE", table_id)
    if plan.planner is None:
        yield count("UPDATE turns SET ended_at = ? WHERE table_id = ? AND ended_at IS NULL",
                    at, table_id)
        yield count(FINISHED, at, table_id)
        yield count(MARK_DASHBOARDS, table_id)
        return {}
    timing, _, paused = yield from _timing_and_pause(table_id)
    inputs = PlanInputs(timing, (yield from seat_clocks(table_id)),
                        (yield from open_turns(table_id)),
                        (yield from member_settings(list(dict.fromkeys(plan.member_ids)))),
                        paused)
    planned = plan.planner(inputs)
    if planned.end_turns:
        yield count(f"UPDATE turns SET ended_at = ? WHERE id IN"
                    f" ({marks(len(planned.end_turns))}) AND ended_at IS NULL",
                    at, *planned.end_turns)
    for t in planned.new_turns:
        made = yield value(
            "INSERT INTO turns (table_id, seat, member_id, since_version, started_at, due_at,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat, since_version) DO NOTHING RETURNING id",
            table_id, t.seat, t.member_id, t.since_version, t.started_at, t.due_at, at)
        if made is not None and t.reminder_at is not None and t.member_id is not None:
            yield count("INSERT INTO reminders (turn_id, table_id, member_id, due_at, deadline)"
                        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (turn_id, due_at) DO NOTHING",
                        int(made), table_id, t.member_id, t.reminder_at, t.due_at)
    if planned.clocks:
        yield each(
            "INSERT INTO seat_clocks (table_id, seat, bank, streak, absent, holiday_used)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
            " bank = excluded.bank, streak = excluded.streak, absent = excluded.absent,"
            " holiday_used = excluded.holiday_used",
            [(table_id, c.seat, c.bank, c.streak, bool(c.absent), c.holiday_used)
             for c in planned.clocks])
    yield count(MARK_DASHBOARDS, table_id)
    return (yield from open_turns(table_id))
