"""Durable tables: the store interface the use cases depend on, and its SQLite implementation.

The interface is the public method set of ``SqliteStore``; it is narrow on purpose (tables,
seats, an append-only action log with a version check) so another backend can follow.
"""

from bot.store.errors import (
    AlreadyExists,
    AlreadySeated,
    ChannelBusy,
    DuplicateKey,
    IntegrityFailure,
    StaleVersion,
    StoreError,
)
from bot.store.records import (
    ActionRecord,
    ForfeitRecord,
    LeagueMemberRecord,
    LeaguePlace,
    LeagueRating,
    LeagueRecord,
    LeagueResult,
    LeagueSettings,
    NewAction,
    PendingMove,
    RoundRecord,
    SeasonRecord,
    SeatRecord,
    Status,
    Step,
    TableRecord,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "ActionRecord",
    "AlreadyExists",
    "AlreadySeated",
    "ChannelBusy",
    "DuplicateKey",
    "ForfeitRecord",
    "IntegrityFailure",
    "LeagueMemberRecord",
    "LeaguePlace",
    "LeagueRating",
    "LeagueRecord",
    "LeagueResult",
    "LeagueSettings",
    "NewAction",
    "PendingMove",
    "RoundRecord",
    "SeasonRecord",
    "SeatRecord",
    "SqliteStore",
    "StaleVersion",
    "Status",
    "Step",
    "StoreError",
    "TableRecord",
]
