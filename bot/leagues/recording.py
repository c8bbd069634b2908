"""Storing finished league games, forfeits, voids, and rebuilding every rating from the results.

Only sanctioned tables count: a round's tables, and tables an organiser opened for the league.
A round is complete once none of its tables is live any more."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime

from bot.leagues.results import apply, keys, placed_at, places_from, replay
from bot.store import ForfeitRecord, LeagueRating, LeagueResult, Status, Store, TableRecord
from rules.core import Game

log = logging.getLogger(__name__)

# Replaced by an organiser with no fault: the member is left out of the result (neither ranked
# nor rated) and the seat's later play is nobody's; unlike the other reasons it is no forfeit.
WITHDRAWN = "withdrawn"

Book = dict[tuple[str, int], LeagueRating]

# Out of time, walked out, stalled at a round's deadline, replaced by an organiser.
FORFEIT_REASONS = ("time", "abandoned", "deadline", "substituted", WITHDRAWN)


class Recorder:
    """Results are written once per table (idempotent), with the ratings they move, in one
    transaction; one lock keeps two results of this process from reading the same ratings."""

    def __init__(self, store: Store, games: Mapping[str, Game],
                 clock: Callable[[], datetime]) -> None:
        self.store = store
        self.games = games
        self.clock = clock
        self._lock = asyncio.Lock()

    async def forfeit(self, table_id: int, seat: int, reason: str = "time"
                      ) -> ForfeitRecord | None:
        """A seat removed for time (``reason="time"``), given up (``"abandoned"``), stalled at
        a round's deadline or handed to a substitute counts as a forfeit: its member finishes
        last for rating purposes, whatever happens to the seat afterwards (whoever plays it
        on is not rated for it). Only members' seats of league tables forfeit; a repeat is a
        no-op (None)."""
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
        if not await self.store.sanctioned(table_id):
            return None  # a league table nobody sanctioned changes no standings
        async with self._lock:
            result = await self._result_of(table)
            result_id = None
            if result is not None:
                carry = (await self.store.season_carries()).get(result.season_id or 0, 0.0)
                made = result

                def changes(book: Book) -> Book:
                    return apply(book, made, carry)

                result_id = await self.store.save_result(result, keys(result), changes)
        await self._complete_round(table_id)
        if result is None or result_id is None:
            return None
        log.info("league result of table %s stored", table_id)
        return replace(result, id=result_id)

    async def void(self, result_id: int, by: int, reason: str) -> bool:
        """Void a result (logged) and recompute every rating without it, in one transaction."""
        async with self._lock:
            return await self.store.void_result(result_id, by, reason, replay)

    async def correct(self, result: LeagueResult, member_id: int, place: int, by: int,
                      reason: str) -> LeagueResult:
        """``member_id`` finished ``place`` at the result's table (logged); every rating is
        recomputed, in one transaction."""
        places = placed_at(result.places, member_id, place)
        async with self._lock:
            await self.store.correct_places(
                result.id, by, reason, [(p.seat, p.place, p.forfeited) for p in places],
                replay)
        return replace(result, places=places)

    async def _complete_round(self, table_id: int) -> None:
        """The table's round is complete once none of its tables is live."""
        round_ = await self.store.round_of_table(table_id)
        # A round still opening has tables to come (the last one started completes it).
        if round_ is None or not round_.open or round_.opened_at is None:
            return
        tables = await self.store.round_tables(round_.id)
        if all(t.status in (Status.OVER, Status.ABANDONED) for t in tables):
            await self.store.close_round(round_.id)

    async def catch_up(self, owns: Callable[[int | None], bool] | None = None) -> int:
        """Results of league tables that ended while nobody recorded them (after a crash);
        with ``owns``, only those of the servers it accepts (this process's shards)."""
        count = 0
        for table_id in await self.store.tables_awaiting_result():
            if owns is not None:
                table = await self.store.get_table(table_id)
                if table is None or not owns(table.guild_id):
                    continue
            count += await self.record(table_id) is not None
        return count

    async def rebuild(self) -> int:
        """Every rating recomputed from the stored results; returns how many results."""
        async with self._lock:
            return await self.store.rebuild_ratings(replay)

    async def _result_of(self, table: TableRecord) -> LeagueResult | None:
        assert table.league_id is not None and table.guild_id is not None
        recorded = await self.store.forfeits(table.id)
        forfeits = {f.seat: (f.member_id, f.name) for f in recorded if f.reason != WITHDRAWN}
        excused = {f.seat for f in recorded if f.reason == WITHDRAWN}
        seats = {s.position: (None if s.is_computer else s.member_id, s.name)
                 for s in await self.store.seats(table.id) if s.position not in excused}
        if table.status == "over" and table.snapshot is not None:
            game = self.games[table.game_id]
            state = await asyncio.to_thread(game.load, table.snapshot)
            outcome = game.outcome(state)
            if outcome is None:
                return None
            order = [[s for s in group if s not in excused] for group in outcome.ranking]
            scores: tuple[float, ...] = tuple(float(x) for x in outcome.scores)
            abandoned = False
        elif table.status == "abandoned" and table.snapshot is not None and forfeits:
            # Abandoned after a forfeit: whoever stayed shares first place.
            order = [[s for s in seats if s not in forfeits]]
            scores = ()
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
            places=places_from(order, seats, forfeits, scores), season_id=season_id,
            round_id=round_.id if round_ else None, abandoned=abandoned,
        )
