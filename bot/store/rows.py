"""Rows to records shared by the store's modules."""

from __future__ import annotations

import json
import sqlite3

from bot.store.records import ActionRecord


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
