"""Durable tables: the store interface the use cases depend on, and its two backends.

``Store`` (``interface.py``) is the method set both ``SqliteStore`` (the embedded default) and
``PostgresStore`` (several processes, one database; the optional ``postgres`` extra)
implement; ``open_store`` picks one from ``TABULA_DB``. The interface is narrow on purpose
(tables, seats, an append-only action log with a version check).
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
from bot.store.factory import is_postgres, open_store, redacted
from bot.store.interface import Store
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
    RoundSlot,
    SeasonRecord,
    SeatRecord,
    Status,
    Step,
    TableRecord,
)
from bot.store.sqlite.store import SqliteStore

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
    "RoundSlot",
    "SeasonRecord",
    "SeatRecord",
    "SqliteStore",
    "StaleVersion",
    "Status",
    "Step",
    "Store",
    "StoreError",
    "TableRecord",
    "is_postgres",
    "open_store",
    "redacted",
]
