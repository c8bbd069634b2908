"""Durable tables: the store the use cases depend on, and its two backends.

``Store`` (``sql/store.py``) is every repository, its SQL written once; ``SqliteStore`` (the
embedded default) and ``PostgresStore`` (several processes, one database; the optional
``postgres`` extra) give it a database to run on; ``open_store`` picks one from
``TABULA_DB``.
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
from bot.store.sql.store import Store
from bot.store.sqlite.store import SqliteStore

__all__ = [
    "ActionRecord", "AlreadyExists", "AlreadySeated", "ChannelBusy", "DuplicateKey",
    "ForfeitRecord", "IntegrityFailure", "LeagueMemberRecord", "LeaguePlace", "LeagueRating",
    "LeagueRecord", "LeagueResult", "LeagueSettings", "NewAction", "PendingMove", "RoundRecord",
    "RoundSlot", "SeasonRecord", "SeatRecord", "SqliteStore", "StaleVersion", "Status", "Step",
    "Store", "StoreError", "TableRecord", "is_postgres", "open_store", "redacted",
]
