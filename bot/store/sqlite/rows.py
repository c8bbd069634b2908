"""Rows to records shared by the store's modules."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from bot.store.records import ActionRecord, SeatRecord, Status, Step, TableRecord

T = TypeVar("T")

SETTINGS_COLUMNS = ("member_id", "tz", "quiet_start", "quiet_end", "interval_hours",
                    "dm_notices", "preview", "away_from", "away_until", "dashboard",
                    "dms_refused")
# Marks the dashboards of a table's members for an edit (their waiting tables changed).
MARK_DASHBOARDS = ("UPDATE dashboards SET dirty = 1 WHERE dirty = 0 AND member_id IN"
                   " (SELECT member_id FROM seats WHERE table_id = ?)")


class Handoffs:
    """What ``SqliteStore`` provides to the row groups mixed into it: writes (``_transact``
    and ``_queue_change``, group-committed; ``_run``, the writing connection between two
    commits) and reads (``_read``, ``_fetch``)."""

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    async def _transact(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def _queue_change(
        self, table_id: int, expected_version: int, steps: Sequence[Step],
        then: Callable[[sqlite3.Connection], T] | None,
    ) -> tuple[int, T | None]:
        raise NotImplementedError


def action_record(row: sqlite3.Row) -> ActionRecord:
    return ActionRecord(
        id=int(row["id"]),
        version=int(row["version"]),
        kind=str(row["kind"]),
        seat=row["seat"],
        member_id=row["member_id"],
        action=None if row["action"] is None else json.loads(row["action"]),
        text=row["text"],
        irreversible=bool(row["irreversible"]),
        undoes=row["undoes"],
        idem_key=row["idem_key"],
        created_at=str(row["created_at"]),
        notation=row["notation"],
    )


def member_settings(db: sqlite3.Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = db.execute(f"SELECT * FROM member_settings WHERE member_id IN ({marks})",
                      ids).fetchall()
    out = {}
    for r in rows:
        values = {c: r[c] for c in SETTINGS_COLUMNS}
        for flag in ("dm_notices", "preview", "dashboard", "dms_refused"):
            values[flag] = bool(r[flag])
        out[int(r["member_id"])] = values
    return out


def table_record(row: sqlite3.Row) -> TableRecord:
    return TableRecord(
        id=int(row["id"]),
        guild_id=row["guild_id"],
        channel_id=int(row["channel_id"]),
        game_id=str(row["game_id"]),
        status=Status(row["status"]),
        creator_id=int(row["creator_id"]),
        options=json.loads(row["options"]),
        max_players=row["max_players"],
        seat_order=str(row["seat_order"]),
        seed=str(row["seed"]),
        seed_hash=str(row["seed_hash"]),
        snapshot=None if row["snapshot"] is None else json.loads(row["snapshot"]),
        version=int(row["version"]),
        message_id=row["message_id"],
        created_at=str(row["created_at"]),
        updated_at=str(row["updated_at"]),
        league_id=row["league_id"],
        announced=int(row["announced"]),
    )


def seat_record(row: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        position=int(row["position"]),
        member_id=row["member_id"],
        name=str(row["name"]),
        is_computer=bool(row["is_computer"]),
        dm_closed=bool(row["dm_closed"]),
        level=row["level"],
        standing=row["standing"],
    )
