"""asyncpg rows to the store's plain records (the same records the SQLite store hands out)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.store.records import ActionRecord, LeagueRecord, PendingMove, SeatRecord, TableRecord

Row = Mapping[str, Any]


def iso(moment: datetime) -> str:
    """A timestamp as the SQLite store writes it (UTC, milliseconds, ISO 8601)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def table_record(row: Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        status=row["status"],
        creator_id=row["creator_id"],
        options=json.loads(row["options"]),
        max_players=row["max_players"],
        seat_order=row["seat_order"],
        seed=row["seed"],
        seed_hash=row["seed_hash"],
        snapshot=None if row["snapshot"] is None else json.loads(row["snapshot"]),
        version=row["version"],
        message_id=row["message_id"],
        created_at=iso(row["created_at"]),
        updated_at=iso(row["updated_at"]),
        league_id=row["league_id"],
    )


def seat_record(row: Row) -> SeatRecord:
    return SeatRecord(
        position=row["position"],
        member_id=row["member_id"],
        name=row["name"],
        is_computer=row["is_computer"],
        dm_closed=row["dm_closed"],
    )


def action_record(row: Row) -> ActionRecord:
    return ActionRecord(
        id=row["id"],
        version=row["version"],
        kind=row["kind"],
        seat=row["seat"],
        member_id=row["member_id"],
        action=None if row["action"] is None else json.loads(row["action"]),
        text=row["text"],
        irreversible=row["irreversible"],
        undoes=row["undoes"],
        idem_key=row["idem_key"],
        created_at=iso(row["created_at"]),
        notation=row["notation"],
    )


def league_record(row: Row) -> LeagueRecord:
    return LeagueRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        game_id=row["game_id"],
        created_by=row["created_by"],
        created_at=iso(row["created_at"]),
        closed=row["closed"],
    )


def pending_move(row: Row) -> PendingMove:
    return PendingMove(
        id=row["id"],
        table_id=row["table_id"],
        member_id=row["member_id"],
        version=row["version"],
        action=json.loads(row["action"]),
        text=row["text"],
    )
