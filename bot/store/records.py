"""Plain records the store hands out; no database types leak past the store."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    ABANDONED = "abandoned"


LIVE = (Status.LOBBY, Status.PLAYING)


@dataclass(frozen=True)
class TableRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    status: str
    creator_id: int
    options: dict[str, Any]
    max_players: int | None
    seat_order: str
    seed: str
    seed_hash: str
    snapshot: dict[str, Any] | None
    version: int
    message_id: int | None
    created_at: str
    updated_at: str
    league_id: int | None = None
    announced: int = 0  # the last version whose announcement reached the channel

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def ended(self) -> bool:
        return self.status in (Status.OVER, Status.ABANDONED)


@dataclass(frozen=True)
class SeatRecord:
    position: int
    member_id: int | None
    name: str
    is_computer: bool
    dm_closed: bool
    level: str | None = None  # a computer seat's level


@dataclass(frozen=True)
class ActionRecord:
    id: int
    version: int
    kind: str  # "act" or "undo"
    seat: int | None
    member_id: int | None
    action: dict[str, Any] | None
    text: str | None
    irreversible: bool
    undoes: int | None
    idem_key: str | None
    created_at: str
    notation: str | None = None


@dataclass(frozen=True)
class NewAction:
    """A log entry to append together with the new snapshot."""

    kind: str
    seat: int | None
    member_id: int | None
    action: dict[str, Any] | None = None
    text: str | None = None
    irreversible: bool = False
    undoes: int | None = None
    idem_key: str | None = None
    notation: str | None = None


@dataclass(frozen=True)
class Step:
    """One committed change of a table: its new snapshot and status, and its log entry."""

    snapshot: dict[str, Any]
    entry: NewAction
    status: str = Status.PLAYING


@dataclass(frozen=True)
class PendingMove:
    """A previewed move waiting for its player's Confirm."""

    id: int
    table_id: int
    member_id: int
    version: int
    action: dict[str, Any]
    text: str
    fingerprint: str | None = None


@dataclass(frozen=True)
class LeagueRecord:
    id: int
    guild_id: int
    name: str
    game_id: str
    created_by: int
    created_at: str
    closed: bool
