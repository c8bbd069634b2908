"""Leagues: a server's series of games of one kind, with Elo standings. No Discord import.

Server managers create and close leagues; a table opened "in" a league counts towards it once it
is over. Standings are computed from those finished tables every time they are asked for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass

from bot.ratings import rate
from bot.store import AlreadyExists, LeagueRecord, Store, TableRecord
from bot.values import Member, TableError
from rules import GAMES
from rules.core import Game

NAME_LIMIT = 40


@dataclass(frozen=True)
class StandingLine:
    member_id: int
    name: str
    rating: int
    games: int
    wins: int


class Leagues:
    def __init__(self, store: Store, games: Mapping[str, Game] | None = None) -> None:
        self.store = store
        self.games: Mapping[str, Game] = GAMES if games is None else games

    async def create(self, guild_id: int, member: Member, name: str, game_id: str
                     ) -> LeagueRecord:
        if not member.is_admin:
            raise TableError("Only a server manager can create a league.")
        name = " ".join(name.split())
        if not 1 <= len(name) <= NAME_LIMIT:
            raise TableError(f"A league name has 1 to {NAME_LIMIT} characters.")
        if game_id not in self.games:
            raise TableError(f"Unknown game {game_id!r}.")
        try:
            await self.store.create_league(guild_id, name, game_id, member.id)
        except AlreadyExists as exc:
            raise TableError(str(exc)) from None
        league = await self.store.league_named(guild_id, name)
        assert league is not None
        return league

    async def named(self, guild_id: int, name: str) -> LeagueRecord:
        league = await self.store.league_named(guild_id, name)
        if league is None:
            raise TableError(f"This server has no league called {name!r}. See `/league list`.")
        return league

    async def all(self, guild_id: int) -> list[LeagueRecord]:
        return await self.store.leagues(guild_id)

    async def close(self, guild_id: int, member: Member, name: str) -> LeagueRecord:
        if not member.is_admin:
            raise TableError("Only a server manager can close a league.")
        league = await self.named(guild_id, name)
        await self.store.close_league(league.id)
        return league

    async def standings(self, guild_id: int, name: str) -> tuple[LeagueRecord, list[StandingLine]]:
        """Ratings from the league's finished tables, best first (computer seats not rated)."""
        league = await self.named(guild_id, name)
        game = self.games[league.game_id]
        rankings: list[list[list[int]]] = []
        names: dict[int, str] = {}
        for table in await self.store.league_tables(league.id):
            ranking = await self._ranking(game, table, names)
            if ranking:
                rankings.append(ranking)
        lines = [
            StandingLine(member, names[member], round(s.rating), s.games, s.wins)
            for member, s in rate(rankings).items()
        ]
        lines.sort(key=lambda line: (-line.rating, -line.wins, line.name.lower()))
        return league, lines

    async def _ranking(
        self, game: Game, table: TableRecord, names: dict[int, str]
    ) -> list[list[int]]:
        if table.snapshot is None:
            return []
        state = await asyncio.to_thread(game.load, table.snapshot)
        outcome = game.outcome(state)
        if outcome is None:
            return []
        seats = await self.store.seats(table.id)
        member_of = {s.position: s.member_id for s in seats if s.member_id is not None}
        for s in seats:
            if s.member_id is not None:
                names[s.member_id] = s.name
        ranking: list[list[int]] = []
        for group in outcome.ranking:
            humans = [member_of[seat] for seat in group if seat in member_of]
            if humans:
                ranking.append(humans)
        return ranking
