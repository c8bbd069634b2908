"""The store interface the use cases are typed against.

Both backends (``SqliteStore``, ``PostgresStore``) implement exactly this method set (a test
compares the three), and one contract suite
(``tests/bot/store/test_store*.py``, the table and league
use-case tests, run on both) pins its behaviour. A new store method goes here, in both
backends, and into that suite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from bot.store.announcing import Claim, PendingReply
from bot.store.interface_timing import TimingStore
from bot.store.records import (
    ActionRecord,
    ForfeitRecord,
    LeagueMemberRecord,
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


class Store(TimingStore, Protocol):
    @property
    def commits(self) -> int:
        """Transactions that wrote moves (the benches read it)."""
        ...
    # True when other processes may write the same tables (PostgreSQL): the table use cases
    # then check a cached table's version before trusting it.
    shared: bool

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
    ) -> TableRecord:
        """A new lobby with its creator in the first seat; ``ChannelBusy`` if one is live."""

    async def get_table(self, table_id: int) -> TableRecord | None: ...

    async def table_version(self, table_id: int) -> int | None:
        """The table's current version (a small read), or None when there is no such table."""

    async def live_table(self, channel_id: int) -> TableRecord | None: ...

    async def latest_table(self, channel_id: int) -> TableRecord | None: ...

    async def tables_with_status(self, *statuses: str) -> list[TableRecord]: ...

    async def unannounced(self) -> list[TableRecord]:
        """Started tables whose latest committed version never reached their channel."""

    async def mark_announced(self, table_id: int, version: int,
                             message_id: int | None = None) -> None:
        """The channel heard of ``version``; ``message_id`` is its board (kept when newer)."""

    async def claim_announcement(self, table_id: int, since: int, version: int, by: str,
                                 now: int, lease: int) -> Claim:
        """Compare-and-set of the table's claim to announce: what ``by`` may post next
        towards versions ``since + 1 .. version`` (``bot.store.announcing``)."""

    async def add_reply(self, reply: PendingReply) -> None:
        """Keep a move's interaction token until its answer went out."""

    async def drop_reply(self, interaction_id: str) -> None: ...

    async def pending_replies(self, now: int, holder: str) -> list[PendingReply]:
        """Answers ``holder`` owes whose token is still valid (expired ones are dropped)."""

    async def tables_of_member(self, member_id: int) -> list[TableRecord]: ...

    async def set_status(self, table_id: int, status: str, expected_version: int) -> int: ...

    # -- seats -----------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[SeatRecord]: ...

    async def add_seat(
        self, table_id: int, member_id: int | None, name: str, expected_version: int,
        level: str | None = None,
    ) -> list[SeatRecord]:
        """The seats after appending one (the version is then ``expected_version + 1``)."""

    async def remove_seat(
        self, table_id: int, position: int, expected_version: int
    ) -> list[SeatRecord]: ...

    async def start(
        self, table_id: int, expected_version: int, order: list[int], snapshot: dict[str, Any]
    ) -> list[SeatRecord]: ...

    async def set_dm_closed(self, table_id: int, member_id: int, closed: bool) -> None: ...

    async def set_standing(self, table_id: int, position: int, text: str | None) -> None: ...

    # -- actions ---------------------------------------------------------------------------

    async def record(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        entry: NewAction,
        status: str = Status.PLAYING,
    ) -> int:
        """Snapshot and log entry, durable on return; ``StaleVersion``, ``DuplicateKey``."""

    async def record_steps(
        self, table_id: int, expected_version: int, steps: Sequence[Step]
    ) -> int:
        """Consecutive changes of one table, all or none; returns the last new version."""

    async def find_action_by_key(self, table_id: int, idem_key: str) -> ActionRecord | None: ...

    async def last_action_of(self, table_id: int, member_id: int) -> ActionRecord | None: ...

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]: ...

    # -- previews awaiting Confirm ----------------------------------------------------------

    async def add_pending(
        self, table_id: int, member_id: int, version: int, action: dict[str, Any], text: str,
        fingerprint: str | None = None,
    ) -> int: ...

    async def take_pending(self, pending_id: int, member_id: int) -> PendingMove | None:
        """The member's own preview, removed; ``PermissionError`` for another's (kept)."""

    # -- leagues ---------------------------------------------------------------------------

    async def create_league(
        self, guild_id: int, name: str, game_id: str, created_by: int,
        settings: LeagueSettings | None = None,
    ) -> int: ...

    async def leagues(self, guild_id: int) -> list[LeagueRecord]: ...

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None: ...

    async def close_league(self, league_id: int) -> None: ...

    async def league_tables(
        self, league_id: int, status: str = Status.OVER
    ) -> list[TableRecord]: ...

    async def set_league_admin_role(self, guild_id: int, role_id: int | None) -> None: ...

    async def league_admin_role(self, guild_id: int) -> int | None: ...

    async def get_league(self, league_id: int) -> LeagueRecord | None: ...

    async def join_league(
        self, league_id: int, member_id: int, name: str, cap: int | None = None
    ) -> bool:
        """False when ``cap`` other members are signed up (nothing written)."""

    async def set_signups(
        self, league_id: int, signups_open: bool, cap: int | None, checkin: bool
    ) -> None: ...

    async def check_in(self, league_id: int, member_id: int) -> bool: ...

    async def checked_in(self, league_id: int) -> set[int]: ...

    async def leave_league(self, league_id: int, member_id: int) -> bool: ...

    async def league_members(
        self, league_id: int, *, signed_up: bool = True
    ) -> list[LeagueMemberRecord]: ...

    async def start_season(
        self, league_id: int, ends_on: str | None, carry: float
    ) -> SeasonRecord: ...

    async def end_season(self, league_id: int) -> SeasonRecord | None: ...

    async def seasons(self, league_id: int) -> list[SeasonRecord]: ...

    async def season_carries(self) -> dict[int, float]: ...

    async def add_round(
        self, league_id: int, season_id: int | None, marks: dict[int, float], *,
        force: bool = False, deadline: str | None = None, auto_next: int | None = None,
        plan: Sequence[RoundSlot] = (),
    ) -> RoundRecord | None:
        """None while another round of the league is open (unless ``force`` closes it).
        ``plan`` is stored with the round, in the same transaction."""

    async def round_plan(self, round_id: int) -> list[RoundSlot]:
        """The round's stored plan, by slot (the members sitting out first, as slot -1)."""

    async def opening_rounds(self) -> list[RoundRecord]:
        """Open rounds whose tables have not all been opened (a crash cut it short)."""

    async def set_slot_channel(self, round_id: int, slot: int, channel_id: int) -> int:
        """The slot's channel: ``channel_id`` unless one was set before (that one, then)."""

    async def file_slot_table(self, round_id: int, slot: int, table_id: int) -> int:
        """The slot's table, filed under the round: ``table_id`` unless one was filed
        before (that one, then)."""

    async def mark_round_opened(self, round_id: int) -> None: ...

    async def owe_round_reply(self, round_id: int, application_id: str, token: str,
                              expires: int) -> None:
        """The organiser's answer is owed until the round has opened (``drop_round_reply``)."""

    async def round_reply(self, round_id: int, now: int) -> tuple[str, str] | None:
        """The owed answer's application id and token, while the token holds."""

    async def drop_round_reply(self, round_id: int) -> None: ...

    async def close_round(self, round_id: int) -> bool: ...

    async def open_rounds(self) -> list[RoundRecord]: ...

    async def round_tables(self, round_id: int) -> list[TableRecord]: ...

    async def scheduled_rounds(self) -> list[RoundRecord]: ...

    async def claim_next(self, round_id: int) -> int | None:
        """The seconds the next round gets, once; None when it was claimed before."""

    async def add_round_table(self, round_id: int, table_id: int) -> None: ...

    async def sanction_table(self, league_id: int, table_id: int, by: int) -> None: ...

    async def sanctioned(self, table_id: int) -> bool: ...

    async def rounds(self, league_id: int) -> list[RoundRecord]: ...

    async def round_of_table(self, table_id: int) -> RoundRecord | None: ...

    async def round_marks(self, round_id: int) -> dict[int, float]: ...

    async def league_seatings(
        self, league_id: int, since: str = ""
    ) -> list[tuple[int, int]]: ...

    async def add_forfeit(
        self, table_id: int, seat: int, member_id: int, name: str, reason: str
    ) -> bool: ...

    async def forfeits(self, table_id: int) -> list[ForfeitRecord]: ...

    async def tables_awaiting_result(self) -> list[int]: ...

    async def save_result(
        self, result: LeagueResult, keys: list[tuple[str, int]],
        changes: Callable[[dict[tuple[str, int], LeagueRating]],
                          dict[tuple[str, int], LeagueRating]],
    ) -> int | None:
        """The result and the ratings ``changes`` makes of the ratings at ``keys`` (read in
        the same transaction); None if stored before."""

    async def rebuild_ratings(
        self, replay: Callable[[list[LeagueResult], dict[int, float]],
                               dict[tuple[str, int], LeagueRating]],
    ) -> int:
        """Ratings replaced by ``replay(results, carries)`` in one transaction."""

    async def void_result(
        self, result_id: int, member_id: int, reason: str,
        replay: Callable[[list[LeagueResult], dict[int, float]],
                         dict[tuple[str, int], LeagueRating]],
    ) -> bool:
        """Void and log a result, then rebuild the ratings, in one transaction."""

    async def correct_places(
        self, result_id: int, member_id: int, reason: str,
        places: list[tuple[int, int, bool]],
        replay: Callable[[list[LeagueResult], dict[int, float]],
                         dict[tuple[str, int], LeagueRating]],
    ) -> bool:
        """Set (seat, place, forfeited) of a result, log it, rebuild; one transaction."""

    async def corrections(self, result_id: int) -> list[tuple[str, int, str]]: ...

    async def league_results(self, league_id: int | None = None) -> list[LeagueResult]: ...

    async def member_finishes(
        self, guild_id: int, member_ids: list[int]
    ) -> list[tuple[int, str, bool]]: ...

    async def member_league_games(self, member_id: int) -> list[tuple[int, str, bool]]:
        """(table, finished at, forfeited) for the member's league games, on every server."""

    async def ratings(self, scope: str) -> dict[int, LeagueRating]: ...

    async def all_ratings(self) -> dict[tuple[str, int], LeagueRating]: ...

    # -- web pages (``bot.store.sqlite.web``, ``bot.store.postgres.web``) -----------------

    async def public_id(self, kind: str, ref_id: int) -> str:
        """The random page id of a ``table`` or ``league``, made on first ask, kept for good."""

    async def find_public_id(self, public_id: str) -> tuple[str, int] | None:
        """What a page id names, ``(kind, row id)``, or None."""

    async def set_web_pages(self, guild_id: int, on: bool) -> None: ...

    async def web_pages_on(self, guild_id: int | None) -> bool:
        """False once the server turned its pages off."""

    # -- maintenance -----------------------------------------------------------------------

    async def backup(self, target: str | Path) -> None:
        """A consistent copy as a SQLite file at ``target``, taken while the bot runs."""
