"""The PostgreSQL store's league results and ratings, method for method as in the SQLite store:
a result and the ratings it moves, rebuilds, voids and corrections, each in one transaction
under one lock, so no writer of ratings interleaves with another (in any process)."""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from bot.store.postgres import rows
from bot.store.postgres.tables import PostgresTables, now
from bot.store.records import LeagueRating, LeagueResult

Ratings = dict[tuple[str, int], LeagueRating]
Replay = Callable[[list[LeagueResult], dict[int, float]], Ratings]
Changes = Callable[[Ratings], Ratings]

RESULTS_SQL = ("SELECT r.*, p.seat, p.member_id, p.name, p.place, p.forfeited, p.score"
               " FROM league_results r JOIN league_places p ON p.result_id = r.id")
# Every writer of ratings takes this lock first: a rebuild, a void and a result recorded at
# the same moment (in any process) run one after the other, never interleaved.
LOCK_RATINGS = "LOCK TABLE league_ratings IN SHARE ROW EXCLUSIVE MODE"


def stamp() -> str:
    """League times as text, exactly as the SQLite store writes them."""
    return rows.iso(now())


class PostgresLeagueResults(PostgresTables):
    async def tables_awaiting_result(self) -> list[int]:
        """Finished or abandoned sanctioned league tables whose result is not stored yet."""
        found = await self._pool.fetch(
            "SELECT t.id FROM game_tables t LEFT JOIN league_results r ON r.table_id = t.id"
            " WHERE t.league_id IS NOT NULL AND t.status IN ('over', 'abandoned')"
            " AND r.id IS NULL AND (t.id IN (SELECT table_id FROM league_round_tables)"
            " OR t.id IN (SELECT table_id FROM league_sanctions)) ORDER BY t.updated_at, t.id"
        )
        return [r[0] for r in found]

    async def save_result(self, result: LeagueResult, keys: list[tuple[str, int]],
                          changes: Changes) -> int | None:
        """Store a result and the ratings it moves, in one transaction: the ratings at
        ``keys`` are read inside it, under the ratings lock, and ``changes`` turns them into
        the ratings to write. None (and nothing written) when the table's result was stored
        before: recording is idempotent, in any process (the unique table id decides). The
        NOT EXISTS spares a repeat an id from the sequence, so result numbers shown to
        members stay 1, 2, 3 as in SQLite."""
        places = result.places
        async with self._write() as db:
            await db.execute(LOCK_RATINGS)
            result_id = await db.fetchval(
                "WITH made AS (INSERT INTO league_results (league_id, guild_id, game_id,"
                " season_id, round_id, table_id, finished_at, abandoned)"
                " SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE NOT EXISTS"
                " (SELECT 1 FROM league_results WHERE table_id = $6)"
                " ON CONFLICT (table_id) DO NOTHING RETURNING id),"
                " placed AS (INSERT INTO league_places (result_id, seat, member_id, name,"
                " place, forfeited, score) SELECT made.id, p.seat, p.member_id, p.name,"
                " p.place, p.forfeited, p.score FROM made, unnest($9::int[], $10::bigint[],"
                " $11::text[], $12::int[], $13::bool[], $14::float8[])"
                " AS p(seat, member_id, name, place, forfeited, score))"
                " SELECT id FROM made",
                result.league_id, result.guild_id, result.game_id, result.season_id,
                result.round_id, result.table_id, result.finished_at, result.abandoned,
                [p.seat for p in places], [p.member_id for p in places],
                [p.name for p in places], [p.place for p in places],
                [p.forfeited for p in places], [p.score for p in places],
            )
            if result_id is None:
                return None
            found = await db.fetch(
                "SELECT r.* FROM league_ratings r JOIN unnest($1::text[], $2::bigint[])"
                " AS k(scope, member_id) ON r.scope = k.scope AND r.member_id = k.member_id",
                [k[0] for k in keys], [k[1] for k in keys])
            book = {(r["scope"], r["member_id"]): rows.rating(r) for r in found}
            await _put_ratings(db, changes(book))
        return int(result_id)

    async def rebuild_ratings(self, replay: Replay) -> int:
        """Every stored rating replaced by a replay of the results, read and written in one
        transaction under the ratings lock (no result recorded meanwhile is lost); returns
        how many results."""
        async with self._write() as db:
            return await _rebuild(db, replay)

    async def void_result(self, result_id: int, member_id: int, reason: str,
                          replay: Replay) -> bool:
        """Void a result (logged with who and why) and rebuild every rating, in one
        transaction; False when there is no such result or it was voided before."""
        async with self._write() as db:
            await db.execute(LOCK_RATINGS)
            voided = await db.fetchval(
                "UPDATE league_results SET voided = $2 WHERE id = $1 AND voided IS NULL"
                " RETURNING id", result_id, reason)
            if voided is None:
                return False
            await db.execute(
                "INSERT INTO league_corrections (result_id, member_id, what, reason, at)"
                " VALUES ($1, $2, 'void', $3, $4)", result_id, member_id, reason, stamp())
            await _rebuild(db, replay)
            return True

    async def correct_places(self, result_id: int, member_id: int, reason: str,
                             places: list[tuple[int, int, bool]], replay: Replay) -> bool:
        """Set each (seat, place, forfeited) of a result (logged with who and why) and
        rebuild every rating, in one transaction; False when there is no such result."""
        async with self._write() as db:
            await db.execute(LOCK_RATINGS)
            if not await db.fetchval("SELECT 1 FROM league_results WHERE id = $1", result_id):
                return False
            await db.executemany("UPDATE league_places SET place = $1, forfeited = $2"
                                 " WHERE result_id = $3 AND seat = $4",
                                 [(place, f, result_id, seat) for seat, place, f in places])
            await db.execute(
                "INSERT INTO league_corrections (result_id, member_id, what, reason, at)"
                " VALUES ($1, $2, 'place', $3, $4)", result_id, member_id, reason, stamp())
            await _rebuild(db, replay)
            return True

    async def corrections(self, result_id: int) -> list[tuple[str, int, str]]:
        """(what, by whom, why) of each correction of a result, oldest first."""
        found = await self._pool.fetch("SELECT what, member_id, reason FROM league_corrections"
                                       " WHERE result_id = $1 ORDER BY id", result_id)
        return [(r[0], r[1], r[2]) for r in found]

    async def league_results(self, league_id: int | None = None) -> list[LeagueResult]:
        """Results in the order they were recorded: one league's, or every one (rebuilds)."""
        found = await self._pool.fetch(
            RESULTS_SQL + " WHERE $1::bigint IS NULL OR r.league_id = $1 ORDER BY r.id, p.seat",
            league_id,
        )
        return rows.results(found)

    async def member_finishes(self, guild_id: int, member_ids: list[int]
                              ) -> list[tuple[int, str, bool]]:
        """(member, finished at, forfeited) for the members' league games in the server."""
        found = await self._pool.fetch(
            "SELECT p.member_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id"
            " WHERE r.guild_id = $1 AND p.member_id = ANY($2::bigint[])",
            guild_id, member_ids,
        )
        return [(r[0], r[1], r[2]) for r in found]

    async def member_league_games(self, member_id: int) -> list[tuple[int, str, bool]]:
        found = await self._pool.fetch(
            "SELECT r.table_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id WHERE p.member_id = $1",
            member_id)
        return [(r[0], r[1], r[2]) for r in found]

    async def ratings(self, scope: str) -> dict[int, LeagueRating]:
        found = await self._pool.fetch("SELECT * FROM league_ratings WHERE scope = $1", scope)
        return {r["member_id"]: rows.rating(r) for r in found}

    async def all_ratings(self) -> Ratings:
        found = await self._pool.fetch("SELECT * FROM league_ratings")
        return {(r["scope"], r["member_id"]): rows.rating(r) for r in found}


async def _rebuild(db: asyncpg.Connection, replay: Replay) -> int:
    await db.execute(LOCK_RATINGS)
    results = rows.results(await db.fetch(RESULTS_SQL + " ORDER BY r.id, p.seat"))
    carries = {r["id"]: r["carry"] for r in await db.fetch("SELECT id, carry FROM league_seasons")}
    await db.execute("DELETE FROM league_ratings")
    await _put_ratings(db, replay(results, carries))
    return len(results)


async def _put_ratings(db: asyncpg.Connection, ratings: Ratings) -> None:
    if not ratings:
        return
    items = list(ratings.items())
    await db.execute(
        "INSERT INTO league_ratings (scope, member_id, mu, sigma, games, wins, forfeits)"
        " SELECT * FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::float8[],"
        " $5::int[], $6::int[], $7::int[])"
        " ON CONFLICT (scope, member_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
        " forfeits = excluded.forfeits",
        [s for (s, _), _ in items], [m for (_, m), _ in items],
        [r.mu for _, r in items], [r.sigma for _, r in items],
        [r.games for _, r in items], [r.wins for _, r in items],
        [r.forfeits for _, r in items],
    )
