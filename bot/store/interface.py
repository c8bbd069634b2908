"""The store interface the use cases are typed against.

Both backends (``SqliteStore``, ``PostgresStore``) implement exactly this method set, and one
contract suite (``tests/bot/test_store.py`` and the table use-case tests, run on both) pins its
behaviour. A new store method goes here, in both backends, and into that suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from bot.store.records import (
    ActionRecord,
    LeagueRecord,
    NewAction,
    PendingMove,
    SeatRecord,
    TableRecord,
)


class Store(Protocol):
    async def close(self) -> None: ...

    async def check_integrity(self) -> None:
        """``IntegrityFailure`` when the database is unfit to serve (checked at open)."""

    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    # -- tables ----------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        creator_id: int,
        creator_name: str,
        options: dict[str, Any],
        max_players: int | None,
        seat_order: str,
        seed: str,
        seed_hash: str,
        league_id: int | None = None,
    ) -> int:
        """A new lobby with its creator in the first seat; ``ChannelBusy`` if one is live."""

    async def get_table(self, table_id: int) -> TableRecord | None: ...

    async def live_table(self, channel_id: int) -> TableRecord | None: ...

    async def latest_table(self, channel_id: int) -> TableRecord | None: ...

    async def tables_with_status(self, *statuses: str) -> list[TableRecord]: ...

    async def tables_of_member(self, member_id: int) -> list[TableRecord]: ...

    async def set_status(self, table_id: int, status: str, expected_version: int) -> int: ...

    # -- seats -----------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRecord]: ...

    async def add_seat(
        self, table_id: int, member_id: int | None, name: str, expected_version: int
    ) -> int: ...

    async def remove_seat(self, table_id: int, position: int, expected_version: int) -> int: ...

    async def start(
        self, table_id: int, expected_version: int, order: list[int], snapshot: dict[str, Any]
    ) -> int: ...

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None: ...

    # -- actions ---------------------------------------------------------------------------

    async def record(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        entry: NewAction,
        status: str = "playing",
    ) -> int:
        """Snapshot and log entry in one durable transaction; ``StaleVersion``, ``DuplicateKey``."""

    async def find_action_by_key(self, table_id: int, idem_key: str) -> ActionRecord | None: ...

    async def last_action_of(self, table_id: int, member_id: int) -> ActionRecord | None: ...

    async def actions(self, table_id: int) -> list[ActionRecord]: ...

    # -- leagues ---------------------------------------------------------------------------

    async def create_league(
        self, guild_id: int, name: str, game_id: str, created_by: int
    ) -> int: ...

    async def leagues(self, guild_id: int) -> list[LeagueRecord]: ...

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None: ...

    async def close_league(self, league_id: int) -> None: ...

    async def league_tables(self, league_id: int, status: str = "over") -> list[TableRecord]: ...

    # -- previews awaiting Confirm ----------------------------------------------------------

    async def add_pending(
        self, table_id: int, member_id: int, version: int, action: dict[str, Any], text: str
    ) -> int: ...

    async def take_pending(self, pending_id: int) -> PendingMove | None: ...

    # -- maintenance -----------------------------------------------------------------------

    async def backup(self, target: str | Path) -> None:
        """A consistent copy as a SQLite file at ``target``, taken while the bot runs."""
