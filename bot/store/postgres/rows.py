"""asyncpg rows to the store's plain records (the same records the SQLite store hands out)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.store.records import (
    ActionRecord,
    ForfeitRecord,
    LeagueMemberRecord,
    LeaguePlace,
    LeagueRating,
    LeagueRecord,
    LeagueResult,
    PendingMove,
    RoundRecord,
    SeasonRecord,
    SeatRecord,
    Status,
    TableRecord,
)

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
        status=Status(row["status"]),
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
        announced=row["announced"],
    )


def seat_record(row: Row) -> SeatRecord:
    return SeatRecord(
        position=row["position"],
        member_id=row["member_id"],
        name=row["name"],
        is_computer=row["is_computer"],
        dm_closed=row["dm_closed"],
        level=row["level"],
        standing=row["standing"],
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


def pending_move(row: Row) -> PendingMove:
    return PendingMove(
        id=row["id"],
        table_id=row["table_id"],
        member_id=row["member_id"],
        version=row["version"],
        action=json.loads(row["action"]),
        text=row["text"],
        fingerprint=row["fingerprint"],
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
        channel_id=row["channel_id"],
        min_seats=row["min_seats"],
        max_seats=row["max_seats"],
        computers=row["computers"],
        min_reliability=row["min_reliability"],
        carry=row["carry"],
        points=row["points"],
        signups_open=row["signups_open"],
        cap=row["cap"],
        checkin=row["checkin"],
    )


def member_record(row: Row) -> LeagueMemberRecord:
    return LeagueMemberRecord(row["member_id"], row["name"], row["joined_at"],
                              row["left_at"] is None)


def season_record(row: Row) -> SeasonRecord:
    return SeasonRecord(row["id"], row["league_id"], row["number"], row["started_at"],
                        row["ends_on"], row["ended_at"], row["carry"])


def round_record(row: Row) -> RoundRecord:
    return RoundRecord(row["id"], row["league_id"], row["season_id"], row["number"],
                       row["created_at"], row["closed_at"], row["deadline"], row["auto_next"],
                       row["opened_at"])


def forfeit_record(row: Row) -> ForfeitRecord:
    return ForfeitRecord(row["table_id"], row["seat"], row["member_id"], row["name"],
                         row["reason"], row["at"])


def rating(row: Row) -> LeagueRating:
    return LeagueRating(row["mu"], row["sigma"], row["games"], row["wins"], row["forfeits"])


def results(rows: Sequence[Row]) -> list[LeagueResult]:
    """Results from rows of results joined with their places (ordered by result)."""
    out: list[LeagueResult] = []
    places: list[LeaguePlace] = []
    for i, row in enumerate(rows):
        places.append(LeaguePlace(row["seat"], row["member_id"], row["name"], row["place"],
                                  row["forfeited"], row["score"]))
        if i + 1 == len(rows) or rows[i + 1]["id"] != row["id"]:
            out.append(LeagueResult(
                league_id=row["league_id"], guild_id=row["guild_id"], game_id=row["game_id"],
                table_id=row["table_id"], finished_at=row["finished_at"],
                places=tuple(places), season_id=row["season_id"], round_id=row["round_id"],
                abandoned=row["abandoned"], id=row["id"], voided=row["voided"],
            ))
            places = []
    return out
