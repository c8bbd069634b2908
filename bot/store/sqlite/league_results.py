"""League results and ratings in the SQLite store: a result and the ratings it moves, rebuilds,
voids and corrections, each one transaction (``BEGIN IMMEDIATE``: no other writer, in any
process, comes between its reads and its writes)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from bot.store.records import LeaguePlace, LeagueRating, LeagueResult
from bot.store.sqlite.commits import now_text as _now
from bot.store.sqlite.rows import Handoffs

Ratings = dict[tuple[str, int], LeagueRating]
# Every rating from the results (in recorded order) and the seasons' carry-over shares.
Replay = Callable[[list[LeagueResult], dict[int, float]], Ratings]
# The ratings one result changes, from the ratings it reads.
Changes = Callable[[Ratings], Ratings]

RESULTS_SQL = ("SELECT r.*, p.seat, p.member_id, p.name, p.place, p.forfeited, p.score"
               " FROM league_results r JOIN league_places p ON p.result_id = r.id")


class LeagueResultRows(Handoffs):
    """Mixed into ``SqliteStore`` (through ``LeagueRows``), which provides the hand-offs."""

    async def tables_awaiting_result(self) -> list[int]:
        """Finished or abandoned sanctioned league tables whose result is not stored yet."""
        rows = await self._fetch(
            "SELECT t.id FROM game_tables t LEFT JOIN league_results r ON r.table_id = t.id"
            " WHERE t.league_id IS NOT NULL AND t.status IN ('over', 'abandoned')"
            " AND r.id IS NULL AND (t.id IN (SELECT table_id FROM league_round_tables)"
            " OR t.id IN (SELECT table_id FROM league_sanctions)) ORDER BY t.updated_at, t.id"
        )
        return [int(r[0]) for r in rows]

    async def save_result(self, result: LeagueResult, keys: list[tuple[str, int]],
                          changes: Changes) -> int | None:
        """Store a result and the ratings it moves, in one transaction: the ratings at
        ``keys`` are read inside it and ``changes`` turns them into the ratings to write, so
        no rebuild or other result can come between the read and the write. None (and
        nothing written) when the table's result was stored before: recording is
        idempotent."""

        def write(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                "INSERT INTO league_results (league_id, guild_id, game_id, season_id, round_id,"
                " table_id, finished_at, abandoned) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO NOTHING RETURNING id",
                (result.league_id, result.guild_id, result.game_id, result.season_id,
                 result.round_id, result.table_id, result.finished_at, int(result.abandoned)),
            ).fetchone()
            if row is None:
                return None
            db.executemany(
                "INSERT INTO league_places (result_id, seat, member_id, name, place, forfeited,"
                " score) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(row[0], p.seat, p.member_id, p.name, p.place, int(p.forfeited), p.score)
                 for p in result.places],
            )
            book: Ratings = {}
            for scope, member in keys:
                found = db.execute("SELECT * FROM league_ratings WHERE scope = ?"
                                   " AND member_id = ?", (scope, member)).fetchone()
                if found is not None:
                    book[(scope, member)] = _rating(found)
            _put_ratings(db, changes(book))
            return int(row[0])

        return await self._transact(write)

    async def rebuild_ratings(self, replay: Replay) -> int:
        """Every stored rating replaced by a replay of the results, read and written in one
        transaction (no result recorded meanwhile is lost); returns how many results."""

        def write(db: sqlite3.Connection) -> int:
            return _rebuild(db, replay)

        return await self._transact(write)

    async def void_result(self, result_id: int, member_id: int, reason: str,
                          replay: Replay) -> bool:
        """Void a result (logged with who and why) and rebuild every rating, in one
        transaction; False when there is no such result or it was voided before."""

        def write(db: sqlite3.Connection) -> bool:
            now = _now()
            if db.execute("UPDATE league_results SET voided = ? WHERE id = ? AND voided IS NULL",
                          (reason, result_id)).rowcount == 0:
                return False
            db.execute("INSERT INTO league_corrections (result_id, member_id, what, reason, at)"
                       " VALUES (?, ?, 'void', ?, ?)", (result_id, member_id, reason, now))
            _rebuild(db, replay)
            return True

        return await self._transact(write)

    async def correct_places(self, result_id: int, member_id: int, reason: str,
                             places: list[tuple[int, int, bool]], replay: Replay) -> bool:
        """Set each (seat, place, forfeited) of a result (logged with who and why) and
        rebuild every rating, in one transaction; False when there is no such result."""

        def write(db: sqlite3.Connection) -> bool:
            if db.execute("SELECT 1 FROM league_results WHERE id = ?",
                          (result_id,)).fetchone() is None:
                return False
            db.executemany("UPDATE league_places SET place = ?, forfeited = ?"
                           " WHERE result_id = ? AND seat = ?",
                           [(place, int(f), result_id, seat) for seat, place, f in places])
            db.execute("INSERT INTO league_corrections (result_id, member_id, what, reason, at)"
                       " VALUES (?, ?, 'place', ?, ?)", (result_id, member_id, reason, _now()))
            _rebuild(db, replay)
            return True

        return await self._transact(write)

    async def corrections(self, result_id: int) -> list[tuple[str, int, str]]:
        """(what, by whom, why) of each correction of a result, oldest first."""
        rows = await self._fetch("SELECT what, member_id, reason FROM league_corrections"
                                 " WHERE result_id = ? ORDER BY id", (result_id,))
        return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def league_results(self, league_id: int | None = None) -> list[LeagueResult]:
        """Results in the order they were recorded: one league's, or every one (rebuilds)."""
        where = "" if league_id is None else " WHERE r.league_id = ?"
        params = () if league_id is None else (league_id,)
        rows = await self._fetch(RESULTS_SQL + where + " ORDER BY r.id, p.seat", params)
        return _results(rows)

    async def member_finishes(self, guild_id: int, member_ids: list[int]
                              ) -> list[tuple[int, str, bool]]:
        """(member, finished at, forfeited) for the members' league games in the server."""
        marks = ", ".join("?" for _ in member_ids) or "NULL"
        rows = await self._fetch(
            "SELECT p.member_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id"
            f" WHERE r.guild_id = ? AND p.member_id IN ({marks})",
            (guild_id, *member_ids),
        )
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    async def member_league_games(self, member_id: int) -> list[tuple[int, str, bool]]:
        rows = await self._fetch(
            "SELECT r.table_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id WHERE p.member_id = ?",
            (member_id,))
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    async def ratings(self, scope: str) -> dict[int, LeagueRating]:
        rows = await self._fetch("SELECT * FROM league_ratings WHERE scope = ?", (scope,))
        return {int(r["member_id"]): _rating(r) for r in rows}

    async def all_ratings(self) -> dict[tuple[str, int], LeagueRating]:
        rows = await self._fetch("SELECT * FROM league_ratings")
        return {(str(r["scope"]), int(r["member_id"])): _rating(r) for r in rows}


def _rebuild(db: sqlite3.Connection, replay: Replay) -> int:
    results = _results(db.execute(RESULTS_SQL + " ORDER BY r.id, p.seat").fetchall())
    carries = {int(r[0]): float(r[1])
               for r in db.execute("SELECT id, carry FROM league_seasons").fetchall()}
    db.execute("DELETE FROM league_ratings")
    _put_ratings(db, replay(results, carries))
    return len(results)


def _put_ratings(db: sqlite3.Connection,
                 ratings: dict[tuple[str, int], LeagueRating]) -> None:
    db.executemany(
        "INSERT INTO league_ratings (scope, member_id, mu, sigma, games, wins, forfeits)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, member_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " wins = excluded.wins, forfeits = excluded.forfeits",
        [(scope, member, r.mu, r.sigma, r.games, r.wins, r.forfeits)
         for (scope, member), r in ratings.items()],
    )


def _rating(row: sqlite3.Row) -> LeagueRating:
    return LeagueRating(float(row["mu"]), float(row["sigma"]), int(row["games"]),
                        int(row["wins"]), int(row["forfeits"]))


def _results(rows: list[sqlite3.Row]) -> list[LeagueResult]:
    """Results from rows of results joined with their places (ordered by result)."""
    out: list[LeagueResult] = []
    places: list[LeaguePlace] = []
    for i, row in enumerate(rows):
        places.append(LeaguePlace(int(row["seat"]), row["member_id"], str(row["name"]),
                                  int(row["place"]), bool(row["forfeited"]), row["score"]))
        if i + 1 == len(rows) or rows[i + 1]["id"] != row["id"]:
            out.append(LeagueResult(
                league_id=int(row["league_id"]), guild_id=int(row["guild_id"]),
                game_id=str(row["game_id"]), table_id=int(row["table_id"]),
                finished_at=str(row["finished_at"]), places=tuple(places),
                season_id=row["season_id"], round_id=row["round_id"],
                abandoned=bool(row["abandoned"]), id=int(row["id"]), voided=row["voided"],
            ))
            places = []
    return out
