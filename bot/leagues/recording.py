"""Storing finished league games, forfeits, and rebuilding every rating from the results."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime

from bot.leagues.results import all_time, apply, places_from, replay, season_scope
from bot.store import ForfeitRecord, LeagueRating, LeagueResult, SqliteStore, TableRecord
from rules.core import Game

log = logging.getLogger(__name__)

FORFEIT_REASONS = ("time", "abandoned")


class Recorder:
    """Results are written once per table (idempotent), with the ratings they move, in one
    transaction; one lock keeps two results of this process from reading the same ratings."""

    def __init__(self, store: SqliteStore, games: Mapping[str, Game],
                 clock: Callable[[], datetime]) -> None:
        self.store = store
        self.games = games
        self.clock = clock
        self._lock = asyncio.Lock()

    async def forfeit(self, table_id: int, seat: int, reason: str = "time"
                      ) -> ForfeitRecord | None:
        """A seat removed for time (``reason="time"``) or given up (``"abandoned"``) counts as
        a forfeit: its member finishes last for rating purposes, whatever happens to the seat
        afterwards. Only members' seats of league tables forfeit; a repeat is a no-op (None)."""
        if reason not in FORFEIT_REASONS:
            raise ValueError(f"unknown forfeit reason {reason!r}")
        table = await self.store.get_table(table_id)
        if table is None or table.league_id is None:
            return None
        seat_record = next((s for s in await self.store.seats(table_id)
                            if s.position == seat), None)
        if seat_record is None or seat_record.member_id is None:
            return None
        made = await self.store.add_forfeit(table_id, seat, seat_record.member_id,
                                            seat_record.name, reason)
        if not made:
            return None
        return ForfeitRecord(table_id, seat, seat_record.member_id, seat_record.name, reason,
                             self.clock().isoformat())

    async def record(self, table_id: int) -> LeagueResult | None:
        """Store the ranking of a finished (or forfeited-then-abandoned) league table and move
        ratings. Called when a game ends; calling it again changes nothing."""
        table = await self.store.get_table(table_id)
        if table is None or table.league_id is None or table.guild_id is None:
            return None
        async with self._lock:
            result = await self._result_of(table)
            if result is None:
                return None
            changes = await self._changes(result)
            result_id = await self.store.save_result(result, changes)
        if result_id is None:
            return None
        log.info("league result of table %s stored", table_id)
        return replace(result, id=result_id)

    async def catch_up(self) -> int:
        """Results of league tables that ended while nobody recorded them (after a crash)."""
        count = 0
        for table_id in await self.store.tables_awaiting_result():
            count += await self.record(table_id) is not None
        return count

    async def rebuild(self) -> int:
        """Every rating recomputed from the stored results; returns how many results."""
        async with self._lock:
            results = await self.store.league_results()
            book = replay(results, await self.store.season_carries())
            await self.store.replace_ratings(book)
        return len(results)

    async def _result_of(self, table: TableRecord) -> LeagueResult | None:
        assert table.league_id is not None and table.guild_id is not None
        forfeits = {f.seat: (f.member_id, f.name) for f in await self.store.forfeits(table.id)}
        seats = {s.position: (None if s.is_computer else s.member_id, s.name)
                 for s in await self.store.seats(table.id)}
        if table.status == "over" and table.snapshot is not None:
            game = self.games[table.game_id]
            state = await asyncio.to_thread(game.load, table.snapshot)
            outcome = game.outcome(state)
            if outcome is None:
                return None
            order = [list(group) for group in outcome.ranking]
            abandoned = False
        elif table.status == "abandoned" and table.snapshot is not None and forfeits:
            # Abandoned after a forfeit: whoever stayed shares first place.
            order = [[s for s in seats if s not in forfeits]]
            abandoned = True
        else:
            return None
        league = await self.store.get_league(table.league_id)
        assert league is not None
        round_ = await self.store.round_of_table(table.id)
        season = next((s for s in reversed(await self.store.seasons(league.id)) if s.running),
                      None)
        if round_ is not None:
            season_id = round_.season_id
        else:
            season_id = season.id if season else None
        return LeagueResult(
            league_id=league.id, guild_id=table.guild_id, game_id=table.game_id,
            table_id=table.id, finished_at=self.clock().isoformat(timespec="seconds"),
            places=places_from(order, seats, forfeits), season_id=season_id,
            round_id=round_.id if round_ else None, abandoned=abandoned,
        )

    async def _changes(self, result: LeagueResult) -> dict[tuple[str, int], LeagueRating]:
        scopes = [all_time(result.guild_id, result.game_id)]
        carry = 0.0
        if result.season_id is not None:
            scopes.append(season_scope(result.season_id))
            carry = (await self.store.season_carries()).get(result.season_id, 0.0)
        book: dict[tuple[str, int], LeagueRating] = {}
        for scope in scopes:
            book.update({(scope, m): r for m, r in (await self.store.ratings(scope)).items()})
        return apply(book, result, carry)
