"""League use cases with no Discord import: create and close, who runs leagues, sign-ups,
seasons, standings, results and their CSV. Rounds are in ``rounds``, results in ``recording``.

Running a league (creating, closing, seasons, rounds, removing members) is for server managers
and for the league-admin role a server manager names; the front end passes the caller's roles.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime

from bot.leagues.ratings import Rating, carried
from bot.leagues.recording import Recorder
from bot.leagues.reliability import member_events, percent, record_of
from bot.leagues.report import (
    StandingLine,
    rating_moves,
    results_csv,
    safe_name,
    standing_lines,
)
from bot.leagues.results import all_time, placed_at, replay, season_scope
from bot.leagues.tournament import PointsLine, byes_of, parse_points, points_lines
from bot.store import (
    AlreadyExists,
    LeagueRecord,
    LeagueResult,
    LeagueSettings,
    SeasonRecord,
    Store,
)
from bot.values import Member, TableError
from rules import GAMES
from rules.core import Game

NAME_LIMIT = 40
REASON_LIMIT = 200


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Standings:
    league: LeagueRecord
    title: str
    season: SeasonRecord | None  # None: all-time
    lines: list[StandingLine]
    points: list[PointsLine]


class Leagues:
    def __init__(self, store: Store, games: Mapping[str, Game] | None = None,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.games: Mapping[str, Game] = GAMES if games is None else games
        self.clock = clock
        self.recorder = Recorder(store, self.games, clock)

    # -- who runs leagues ------------------------------------------------------------------

    async def may_run(self, guild_id: int, member: Member, roles: Collection[int] = ()) -> bool:
        if member.is_admin:
            return True
        role = await self.store.league_admin_role(guild_id)
        return role is not None and role in roles

    async def require_runner(self, guild_id: int, member: Member, roles: Collection[int],
                             what: str) -> None:
        if not await self.may_run(guild_id, member, roles):
            raise TableError(f"Only a server manager or the server's league-admin role can "
                             f"{what}.")

    async def set_admin_role(self, guild_id: int, member: Member, role_id: int | None) -> None:
        if not member.is_admin:
            raise TableError("Only a server manager can choose the league-admin role.")
        await self.store.set_league_admin_role(guild_id, role_id)

    # -- leagues ---------------------------------------------------------------------------

    async def create(self, guild_id: int, member: Member, name: str, game_id: str, *,
                     roles: Collection[int] = (), settings: LeagueSettings | None = None
                     ) -> LeagueRecord:
        await self.require_runner(guild_id, member, roles, "create a league")
        name = " ".join(name.split())
        if not 1 <= len(name) <= NAME_LIMIT:
            raise TableError(f"A league name has 1 to {NAME_LIMIT} characters.")
        game = self.games.get(game_id)
        if game is None:
            raise TableError("Unknown game.")
        settings = settings or LeagueSettings()
        low = settings.min_seats or max(game.min_players, 2)
        high = settings.max_seats or game.max_players
        if not (game.min_players <= low <= high <= game.max_players and high >= 2):
            raise TableError(f"{game.title} tables seat {max(game.min_players, 2)} to "
                             f"{game.max_players}; the smallest size cannot exceed the largest.")
        if not 0 <= settings.min_reliability <= 1 or not 0 <= settings.carry <= 1:
            raise TableError("Reliability and carry-over are percentages from 0 to 100.")
        try:
            parse_points(settings.points)
        except ValueError:
            raise TableError("Points per place are up to six numbers from 0 to 100, best "
                             "place first, e.g. `3,1,0`.") from None
        try:
            await self.store.create_league(guild_id, name, game_id, member.id, settings)
        except AlreadyExists as exc:
            raise TableError(str(exc)) from None
        league = await self.store.league_named(guild_id, name)
        assert league is not None
        return league

    async def named(self, guild_id: int, name: str) -> LeagueRecord:
        league = await self.store.league_named(guild_id, name)
        if league is None:
            raise TableError("This server has no league of that name. See `/league list`.")
        return league

    async def all(self, guild_id: int) -> list[LeagueRecord]:
        return await self.store.leagues(guild_id)

    async def close(self, guild_id: int, member: Member, name: str,
                    roles: Collection[int] = ()) -> LeagueRecord:
        await self.require_runner(guild_id, member, roles, "close a league")
        league = await self.named(guild_id, name)
        await self.store.close_league(league.id)
        await self.store.end_season(league.id)
        return league

    def seat_range(self, league: LeagueRecord) -> tuple[int, int]:
        game = self.games[league.game_id]
        return (league.min_seats or max(game.min_players, 2),
                league.max_seats or game.max_players)

    # -- sign-ups --------------------------------------------------------------------------

    async def join(self, guild_id: int, member: Member, name: str) -> LeagueRecord:
        league = await self.named(guild_id, name)
        if league.closed:
            raise TableError("That league is closed.")
        if league.min_reliability > 0:
            mine = await self.reliability_of(guild_id, member.id)
            if mine < league.min_reliability:
                raise TableError(
                    f"This league asks for a reliability of {percent(league.min_reliability)}; "
                    f"yours is {percent(mine)} (`/profile`). Finishing games raises it; old "
                    "forfeits fade."
                )
        if not league.signups_open:
            raise TableError(f"Sign-ups for {safe_name(league.name)} are closed.")
        if not await self.store.join_league(league.id, member.id, member.name, league.cap):
            raise TableError(f"{safe_name(league.name)} is full ({league.cap} members).")
        return league

    async def set_signups(self, guild_id: int, member: Member, name: str, *,
                          signups_open: bool | None = None, cap: int | None = None,
                          checkin: bool | None = None, roles: Collection[int] = ()
                          ) -> LeagueRecord:
        """Open or close sign-ups, set a cap (0: none), turn check-in on or off; what is not
        given stays as it was."""
        await self.require_runner(guild_id, member, roles, "change sign-ups")
        league = await self.named(guild_id, name)
        league = replace(
            league,
            signups_open=league.signups_open if signups_open is None else signups_open,
            cap=league.cap if cap is None else (cap or None),
            checkin=league.checkin if checkin is None else checkin)
        await self.store.set_signups(league.id, league.signups_open, league.cap,
                                     league.checkin)
        return league

    async def signed_up(self, league: LeagueRecord) -> int:
        """How many members are signed up now."""
        return len(await self.store.league_members(league.id))

    async def check_in(self, league_id: int, member: Member) -> tuple[LeagueRecord, bool]:
        """The member is present for the league's next round (the check-in button); the
        bool is False when they had checked in already."""
        league = await self.store.get_league(league_id)
        if league is None or league.closed:
            raise TableError("That league is closed.")
        if member.id not in {m.member_id for m in await self.store.league_members(league.id)}:
            raise TableError(f"Sign up for {safe_name(league.name)} first (`/league join`).")
        return league, await self.store.check_in(league.id, member.id)

    async def leave(self, guild_id: int, member: Member, name: str,
                    who: Member | None = None, roles: Collection[int] = ()) -> LeagueRecord:
        """The member leaves; a league runner may name someone else (``who``) to remove."""
        league = await self.named(guild_id, name)
        target = who or member
        if target.id != member.id:
            await self.require_runner(guild_id, member, roles, "remove members")
        if not await self.store.leave_league(league.id, target.id):
            raise TableError("Not signed up to that league.")
        return league

    async def reliability_of(self, guild_id: int, member_id: int) -> float:
        """The member's one reliability figure (as ``/profile`` shows it; every server)."""
        events = member_events(await self.store.member_events(member_id),
                               await self.store.member_league_games(member_id))
        return record_of(events, int(self.clock().timestamp())).score

    # -- seasons ---------------------------------------------------------------------------

    async def start_season(self, guild_id: int, member: Member, name: str, *,
                           ends_on: str | None = None, carry: float | None = None,
                           roles: Collection[int] = ()) -> SeasonRecord:
        await self.require_runner(guild_id, member, roles, "start a season")
        league = await self.named(guild_id, name)
        if league.closed:
            raise TableError("That league is closed.")
        if ends_on is not None:
            try:
                last_day = date.fromisoformat(ends_on.strip())
            except ValueError:
                raise TableError("Give the end date as YYYY-MM-DD, e.g. 2025-03-31.") from None
            if last_day < self.clock().date():
                raise TableError("A season cannot end in the past.")
            ends_on = last_day.isoformat()
        share = league.carry if carry is None else carry
        if not 0 <= share <= 1:
            raise TableError("The carry-over is a percentage from 0 to 100.")
        return await self.store.start_season(league.id, ends_on, share)

    async def end_season(self, guild_id: int, member: Member, name: str,
                         roles: Collection[int] = ()) -> SeasonRecord:
        await self.require_runner(guild_id, member, roles, "end a season")
        league = await self.named(guild_id, name)
        ended = await self.store.end_season(league.id)
        if ended is None:
            raise TableError("That league has no season running.")
        return ended

    async def current_season(self, league: LeagueRecord) -> SeasonRecord | None:
        return next((s for s in await self.store.seasons(league.id) if s.running), None)

    # -- reading ---------------------------------------------------------------------------

    async def standings(self, guild_id: int, name: str, season: int | None = None,
                        all_time_view: bool = False) -> Standings:
        """The running season's standings (or season number ``season``); with no season,
        the league's own games; ``all_time_view``: every game of this game on the server."""
        league = await self.named(guild_id, name)
        seasons = await self.store.seasons(league.id)
        chosen: SeasonRecord | None = None
        if season is not None:
            chosen = next((s for s in seasons if s.number == season), None)
            if chosen is None:
                raise TableError(f"That league has no season {season}.")
        elif not all_time_view:
            chosen = next((s for s in seasons if s.running), None)
        names = await self._names(league, chosen)
        if all_time_view and chosen is None:
            ratings = await self.store.ratings(all_time(guild_id, league.game_id))
            title = f"{league.name}, all of this server's {self.games[league.game_id].title}"
        else:
            ratings = await self.ratings_now(league, chosen, names)
            # Without a season chosen: every game of the league (of all its seasons, if any).
            title = league.name + (f", season {chosen.number}" if chosen
                                   else ", all seasons" if seasons else "")
        # The one figure members see in /profile, not one of this league's games alone.
        reliable = {m: await self.reliability_of(guild_id, m) for m in names}
        rounds = await self.store.rounds(league.id)
        marks = None
        if rounds and rounds[-1].season_id == (chosen.id if chosen else None):
            marks = await self.store.round_marks(rounds[-1].id)
        lines = standing_lines(ratings, names, reliable, marks)
        points = await self._points(league, chosen, names,
                                    {x.member_id: x.rating for x in lines})
        return Standings(league, title, chosen, lines, points)

    async def ratings_now(self, league: LeagueRecord, season: SeasonRecord | None,
                          members: Collection[int] = ()) -> dict[int, Rating]:
        """Ratings as the league stands now, for ``members`` and whoever has one: in a
        season, its ratings, and for a member with no game in it yet the rating carried over
        from their all-time one (what their first game will start from); with no season,
        the league's own games replayed (other leagues of the server do not count)."""
        if season is None:
            scope = all_time(league.guild_id, league.game_id)
            book = replay(await self.store.league_results(league.id), {})
            out = {m: r for (s, m), r in book.items() if s == scope}
        else:
            out = await self.store.ratings(season_scope(season.id))
            base = await self.store.ratings(all_time(league.guild_id, league.game_id))
            for member in members:
                if member not in out:
                    out[member] = carried(base.get(member), season.carry)
        for member in members:
            out.setdefault(member, Rating())
        return out

    async def _points(self, league: LeagueRecord, season: SeasonRecord | None,
                      names: dict[int, str], ratings: dict[int, float]) -> list[PointsLine]:
        results = [r for r in await self.store.league_results(league.id)
                   if season is None or r.season_id == season.id]
        rounds = []
        for round_ in await self.store.rounds(league.id):
            if season is not None and round_.season_id != season.id:
                continue
            # Seated: whoever holds a seat now, and whoever forfeited one (a member replaced
            # by a substitute played the round, and lost it; that is no bye).
            seated: list[int] = []
            for table in await self.store.round_tables(round_.id):
                seated += [s.member_id for s in await self.store.seats(table.id)
                           if s.member_id is not None]
                seated += [f.member_id for f in await self.store.forfeits(table.id)]
            rounds.append((list(await self.store.round_marks(round_.id)), seated))
        return points_lines(results, byes_of(rounds), names, ratings,
                            parse_points(league.points), self.seat_range(league)[1])

    async def correct(self, guild_id: int, member: Member, name: str, result_id: int,
                      who: int, place: int, reason: str, roles: Collection[int] = ()
                      ) -> LeagueResult:
        """An organiser corrects a placing (with a reason, logged): ``who`` finished
        ``place``; every rating is recomputed in the same transaction."""
        await self.require_runner(guild_id, member, roles, "correct a result")
        league = await self.named(guild_id, name)
        reason = self._reason(reason)
        result = await self._result(league, result_id)
        if result.voided is not None:
            raise TableError(f"Result {result_id} is void: it no longer counts, so there is "
                             "no placing to correct.")
        if not any(p.member_id == who for p in result.places):
            raise TableError(f"That member has no seat in result {result_id}.")
        if not 1 <= place <= len(result.places):
            raise TableError(f"Places at that table go from 1 to {len(result.places)}.")
        after = placed_at(result.places, who, place)
        if any(f.forfeited and f.place < p.place for f in after for p in after
               if not p.forfeited):
            raise TableError("A seat that forfeited finishes behind every seat that played on; "
                             "that correction would put one ahead. To lift a forfeit, correct "
                             "the place of the member who forfeited.")
        return await self.recorder.correct(result, who, place, member.id, reason)

    def _reason(self, reason: str) -> str:
        reason = " ".join(reason.split())[:REASON_LIMIT]
        if not reason:
            raise TableError("Give a reason: it is kept with the result.")
        return reason

    async def _result(self, league: LeagueRecord, result_id: int) -> LeagueResult:
        result = next((r for r in await self.store.league_results(league.id)
                       if r.id == result_id), None)
        if result is None:
            raise TableError(f"{safe_name(league.name)} has no result {result_id} "
                             "(`/league results`).")
        return result

    async def void(self, guild_id: int, member: Member, name: str, result_id: int,
                   reason: str, roles: Collection[int] = ()) -> LeagueResult:
        """An organiser voids a result (with a reason, logged); every rating is recomputed
        without it, in the same transaction."""
        await self.require_runner(guild_id, member, roles, "void a result")
        league = await self.named(guild_id, name)
        reason = self._reason(reason)
        result = await self._result(league, result_id)
        if not await self.recorder.void(result_id, member.id, reason):
            raise TableError(f"Result {result_id} was voided before.")
        return result

    async def _names(self, league: LeagueRecord, season: SeasonRecord | None
                     ) -> dict[int, str]:
        """Who appears: members signed up now, and whoever played the league's games (in the
        season, when one is chosen)."""
        names = {m.member_id: m.name for m in await self.store.league_members(league.id)}
        for result in await self.store.league_results(league.id):
            if season is not None and result.season_id != season.id:
                continue
            for p in result.places:
                if p.member_id is not None:
                    names.setdefault(p.member_id, p.name)
        return names

    async def results(self, guild_id: int, name: str) -> tuple[LeagueRecord,
                                                               list[tuple[LeagueResult, int]]]:
        """The league's results, newest first, each with its table's channel (for links)."""
        league = await self.named(guild_id, name)
        out = []
        for result in reversed(await self.store.league_results(league.id)):
            table = await self.store.get_table(result.table_id)
            out.append((result, table.channel_id if table else 0))
        return league, out

    async def export(self, guild_id: int, name: str) -> tuple[LeagueRecord, str]:
        league = await self.named(guild_id, name)
        seasons = {s.id: s.number for s in await self.store.seasons(league.id)}
        rounds = {r.id: r.number for r in await self.store.rounds(league.id)}
        everything = [r for r in await self.store.league_results()
                      if r.guild_id == guild_id and r.game_id == league.game_id]
        moves = rating_moves(everything, await self.store.season_carries())
        mine = [r for r in everything if r.league_id == league.id]
        return league, results_csv(mine, seasons, rounds, moves)
