"""League results and ratings: a result and the ratings it moves, rebuilds, voids and
corrections, each one transaction that first takes the ratings lock (``lock``), so no
writer of ratings interleaves with another, in any process."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.store.records import LeaguePlace, LeagueRating, LeagueResult
from bot.store.sql.database import Repository, transaction
from bot.store.sql.rows import Row, iso, record
from bot.store.sql.script import Script, count, each, lock, marks, rows, value
from bot.store.sql.tables import now

Ratings = dict[tuple[str, int], LeagueRating]
# Every rating from the results (in recorded order) and the seasons' carry-over shares.
Replay = Callable[[list[LeagueResult], dict[int, float]], Ratings]
# The ratings one result changes, from the ratings it reads.
Changes = Callable[[Ratings], Ratings]

RESULTS_SQL = ("SELECT r.*, p.seat, p.member_id, p.name, p.place, p.forfeited, p.score"
               " FROM league_results r JOIN league_places p ON p.result_id = r.id")
# Every writer of ratings takes this lock first: writes at the same moment, in any process,
# run one after the other (readers, the standings, never wait).
RATINGS = "league_ratings"


def stamp() -> str:
    """A league time as stored: ISO text (UTC, milliseconds) in both backends' TEXT columns."""
    return iso(now())


def results(found: Sequence[Row]) -> list[LeagueResult]:
    """Results from rows of results joined with their places (ordered by result)."""
    out: list[LeagueResult] = []
    places: list[LeaguePlace] = []
    for i, r in enumerate(found):
        places.append(record(LeaguePlace, r))
        if i + 1 == len(found) or found[i + 1]["id"] != r["id"]:
            out.append(record(LeagueResult, r, places=tuple(places)))
            places = []
    return out


def put_ratings(ratings: Ratings) -> Script[None]:
    if ratings:
        yield each(
            "INSERT INTO league_ratings (scope, member_id, mu, sigma, games, wins, forfeits)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, member_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
            " wins = excluded.wins, forfeits = excluded.forfeits",
            [(scope, member, r.mu, r.sigma, r.games, r.wins, r.forfeits)
             for (scope, member), r in ratings.items()])


def season_carries() -> Script[dict[int, float]]:
    found = yield rows("SELECT id, carry FROM league_seasons")
    return {int(r["id"]): float(r["carry"]) for r in found}


def rebuild(replay: Replay) -> Script[int]:
    """Every rating replaced by a replay of the results (under the ratings lock)."""
    yield lock(RATINGS)
    done = results((yield rows(RESULTS_SQL + " ORDER BY r.id, p.seat")))
    carries = yield from season_carries()
    yield count("DELETE FROM league_ratings")
    yield from put_ratings(replay(done, carries))
    return len(done)


def read_ratings(keys: list[tuple[str, int]]) -> Script[Ratings]:
    if not keys:
        return {}
    scopes = sorted({s for s, _ in keys})
    members = sorted({m for _, m in keys})
    found = yield rows(
        f"SELECT * FROM league_ratings WHERE scope IN ({marks(len(scopes))})"
        f" AND member_id IN ({marks(len(members))})", *scopes, *members)
    wanted = set(keys)
    book: Ratings = {}
    for r in found:
        key = (str(r["scope"]), int(r["member_id"]))
        if key in wanted:
            book[key] = record(LeagueRating, r)
    return book


class LeagueResults(Repository):
    async def tables_awaiting_result(self) -> list[int]:
        """Finished or abandoned sanctioned league tables whose result is not stored yet."""
        return await self._many(lambda r: int(r["id"]), rows(
            "SELECT t.id FROM game_tables t LEFT JOIN league_results r ON r.table_id = t.id"
            " WHERE t.league_id IS NOT NULL AND t.status IN ('over', 'abandoned')"
            " AND r.id IS NULL AND (t.id IN (SELECT table_id FROM league_round_tables)"
            " OR t.id IN (SELECT table_id FROM league_sanctions)) ORDER BY t.updated_at, t.id"))

    @transaction
    def save_result(self, result: LeagueResult, keys: list[tuple[str, int]],
                    changes: Changes) -> Script[int | None]:
        """Store a result and the ratings it moves, in one transaction: the ratings at ``keys`` are
        read inside it, under the ratings lock, and ``changes`` turns them into the ratings to
        write, so no rebuild or other result can come between the read and the write. None (and
        nothing written) when the table's result was stored before: recording is idempotent, in any
        process (the unique table id decides). The NOT EXISTS spares a repeat an id from a
        PostgreSQL sequence, so result numbers shown to members stay 1, 2, 3."""
        yield lock(RATINGS)
        made = yield value(
            "INSERT INTO league_results (league_id, guild_id, game_id, season_id,"
            " round_id, table_id, finished_at, abandoned)"
            " SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
            " (SELECT 1 FROM league_results WHERE table_id = ?)"
            " ON CONFLICT (table_id) DO NOTHING RETURNING id",
            result.league_id, result.guild_id, result.game_id, result.season_id,
            result.round_id, result.table_id, result.finished_at, result.abandoned,
            result.table_id)
        if made is None:
            return None
        if result.places:
            yield each(
                "INSERT INTO league_places (result_id, seat, member_id, name, place,"
                " forfeited, score) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(made, p.seat, p.member_id, p.name, p.place, p.forfeited, p.score)
                 for p in result.places])
        book = yield from read_ratings(keys)
        yield from put_ratings(changes(book))
        return int(made)

    async def rebuild_ratings(self, replay: Replay) -> int:
        """Every stored rating replaced by a replay of the results, read and written in one
        transaction under the ratings lock (no result recorded meanwhile is lost); returns
        how many results."""
        return await self._db.write(rebuild(replay))

    @transaction
    def void_result(self, result_id: int, member_id: int, reason: str,
                    replay: Replay) -> Script[bool]:
        """Void a result (logged with who and why) and rebuild every rating, in one
        transaction; False when there is no such result or it was voided before."""
        yield lock(RATINGS)
        if (yield count("UPDATE league_results SET voided = ? WHERE id = ?"
                        " AND voided IS NULL", reason, result_id)) == 0:
            return False
        yield count("INSERT INTO league_corrections (result_id, member_id, what, reason,"
                    " at) VALUES (?, ?, 'void', ?, ?)", result_id, member_id, reason,
                    stamp())
        yield from rebuild(replay)
        return True

    @transaction
    def correct_places(self, result_id: int, member_id: int, reason: str,
                       places: list[tuple[int, int, bool]], replay: Replay) -> Script[bool]:
        """Set each (seat, place, forfeited) of a result (logged with who and why) and
        rebuild every rating, in one transaction; False when there is no such result."""
        yield lock(RATINGS)
        if (yield value("SELECT 1 FROM league_results WHERE id = ?", result_id)) is None:
            return False
        if places:
            yield each("UPDATE league_places SET place = ?, forfeited = ?"
                       " WHERE result_id = ? AND seat = ?",
                       [(place, f, result_id, seat) for seat, place, f in places])
        yield count("INSERT INTO league_corrections (result_id, member_id, what, reason,"
                    " at) VALUES (?, ?, 'place', ?, ?)", result_id, member_id, reason,
                    stamp())
        yield from rebuild(replay)
        return True

    async def corrections(self, result_id: int) -> list[tuple[str, int, str]]:
        """(what, by whom, why) of each correction of a result, oldest first."""
        return await self._many(lambda r: (str(r["what"]), int(r["member_id"]), str(r["reason"])),
                                rows("SELECT what, member_id, reason FROM league_corrections"
                                     " WHERE result_id = ? ORDER BY id", result_id))

    async def league_results(self, league_id: int | None = None) -> list[LeagueResult]:
        """Results in the order they were recorded: one league's, or every one (rebuilds)."""
        if league_id is None:
            found = await self._db.query(rows(RESULTS_SQL + " ORDER BY r.id, p.seat"))
        else:
            found = await self._db.query(rows(
                RESULTS_SQL + " WHERE r.league_id = ? ORDER BY r.id, p.seat", league_id))
        return results(found)

    async def member_finishes(self, guild_id: int, member_ids: list[int]
                              ) -> list[tuple[int, str, bool]]:
        """(member, finished at, forfeited) for the members' league games in the server."""
        if not member_ids:
            return []
        found = await self._db.query(rows(
            "SELECT p.member_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id"
            f" WHERE r.guild_id = ? AND p.member_id IN ({marks(len(member_ids))})",
            guild_id, *member_ids))
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in found]

    async def member_league_games(self, member_id: int) -> list[tuple[int, str, bool]]:
        found = await self._db.query(rows(
            "SELECT r.table_id, r.finished_at, p.forfeited FROM league_places p"
            " JOIN league_results r ON r.id = p.result_id WHERE p.member_id = ?", member_id))
        return [(int(r[0]), str(r[1]), bool(r[2])) for r in found]

    async def ratings(self, scope: str) -> dict[int, LeagueRating]:
        found = await self._db.query(rows("SELECT * FROM league_ratings WHERE scope = ?",
                                          scope))
        return {int(r["member_id"]): record(LeagueRating, r) for r in found}

    async def all_ratings(self) -> Ratings:
        found = await self._db.query(rows("SELECT * FROM league_ratings"))
        return {(str(r["scope"]), int(r["member_id"])): record(LeagueRating, r) for r in found}
