"""Many tables in a store, fast: one table played through the use cases, its rows copied in
bulk under new ids, channels and members. For the benches and tests of a bot at scale, where
playing thousands of tables one by one would take longer than what is measured."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from typing import Any

Row = dict[str, Any]
# Tables whose rows a live table's copy takes: (table, column holding the table id).
LIVE_ROWS = (("game_tables", "id"), ("seats", "table_id"), ("table_timing", "table_id"),
             ("seat_clocks", "table_id"), ("turns", "table_id"), ("reminders", "table_id"))
FINISHED_ROWS = (("game_tables", "id"), ("seats", "table_id"))


def renumber(row: Row, table: str, new_id: int, members: Mapping[Any, Any],
             channel_id: int | None = None, guild_id: int | None = None) -> Row:
    """A copy of a template row for table ``new_id`` (its channel ``channel_id``, one live
    table per channel: the new id when not given), told up to its version."""
    out = dict(row)
    if table == "game_tables":
        out["id"] = new_id
        out["channel_id"] = new_id if channel_id is None else channel_id
        if guild_id is not None:
            out["guild_id"] = guild_id
        out["announced"] = out["version"]  # told: a catch-up finds only what is not
    else:
        out["table_id"] = new_id
    if "member_id" in out and out["member_id"] in members:
        out["member_id"] = members[out["member_id"]]
    if table == "turns":
        out["id"] = new_id * 10 + out["seat"]
    if table == "reminders":
        out["turn_id"] = new_id * 10 + out["_seat"]
        out["id"] = new_id * 10 + out["_seat"]
        del out["_seat"]
    return out


def template_sql(table: str, column: str, mark: str = "?") -> str:
    """The rows of one table's ``table`` (a reminder with its turn's seat, for renumbering)."""
    if table == "reminders":
        return ("SELECT r.*, t.seat AS _seat FROM reminders r JOIN turns t ON t.id = r.turn_id"
                f" WHERE r.table_id = {mark}")
    return f"SELECT * FROM {table} WHERE {column} = {mark}"


def sqlite_rows(path: str, table: str, column: str, table_id: int) -> list[Row]:
    with closing(sqlite3.connect(path)) as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute(template_sql(table, column), (table_id,))]


def sqlite_insert(path: str, table: str, rows: Sequence[Row]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    marks = ", ".join("?" for _ in columns)
    with closing(sqlite3.connect(path)) as db, db:
        db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                       [tuple(r[c] for c in columns) for r in rows])


def copy_sqlite(path: str, template: int, new_ids: Sequence[int],
                change: Callable[[str, Row, int], Row],
                spec: Sequence[tuple[str, str]] = LIVE_ROWS) -> None:
    """Copy table ``template``'s rows once for each of ``new_ids``; ``change(table, row,
    n)`` makes the ``n``-th copy of a row (``renumber`` and whatever the caller adds)."""
    for table, column in spec:
        found = sqlite_rows(path, table, column, template)
        sqlite_insert(path, table, [change(table, r, n) for n in range(len(new_ids))
                                    for r in found])
