"""Lobby use cases: open a table, join, leave, add a computer, remove a seat, start, abandon."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.notices import Notice
from bot.store import (
    AlreadySeated,
    ChannelBusy,
    SeatRecord,
    StaleVersion,
    Status,
    TableRecord,
)
from bot.tables.computers import DEFAULT_LEVEL, LEVELS, check_level
from bot.tables.live import Live, Loaded
from bot.tables.moves import Chain, computers, timed, told
from bot.tables.narration import lobby_notice
from bot.text import escape
from bot.values import Member, OutOfDate, TableError
from rules.core import Game, Rng, RulesError, derive_seed


class LobbyCases:
    live: Live

    async def open(
        self,
        game_id: str,
        channel_id: int,
        member: Member,
        *,
        guild_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        max_players: int | None = None,
        seat_order: str = "shuffled",
        seed: str | None = None,
        league: str | None = None,
    ) -> Notice:
        """Open a lobby; ``seed`` pins the secret seed (the terminal table's ``--seed``);
        ``league`` names the server's league the finished game counts for."""
        game = self.live.game(game_id)
        league_id = await self._league_for(guild_id, league, game) if league else None
        try:
            resolved = game.options(options)  # refuses unknown options now, not at start
        except RulesError as exc:
            raise TableError(str(exc)) from None
        if max_players is not None and not game.min_players <= max_players <= game.max_players:
            raise TableError(
                f"{game.title} takes {game.min_players} to {game.max_players} players."
            )
        if seat_order not in ("shuffled", "join"):
            raise TableError("Seat order is `shuffled` or `join`.")
        seed = seed or secrets.token_hex(16)
        try:
            table = await self.live.store.create_table(
                guild_id=guild_id, channel_id=channel_id, game_id=game_id,
                creator_id=member.id, creator_name=member.name,
                options={k: v for k, v in (options or {}).items() if resolved.get(k) == v},
                max_players=max_players, seat_order=seat_order, seed=seed,
                seed_hash=hashlib.sha256(seed.encode()).hexdigest(), league_id=league_id,
            )
        except ChannelBusy:
            raise TableError(
                "This channel already has a game. Finish or abandon it, or use another channel."
            ) from None
        seats = [SeatRecord(0, member.id, member.name, False, False)]
        self.live.keep(Loaded(table, seats, game, None))
        where = f" for the league {escape(league)}" if league else ""
        return lobby_notice(table, game, seats,
                            f"{escape(member.name)} opened a table of {game.title}{where}.")

    async def _league_for(self, guild_id: int | None, name: str, game: Game) -> int:
        record = await self.live.store.league_named(guild_id or 0, name)
        if record is None:
            raise TableError("This server has no league of that name (`/league list`).")
        if record.closed:
            raise TableError(f"The league {escape(record.name)} is closed.")
        if record.game_id != game.id:
            raise TableError(f"The league {escape(record.name)} plays "
                             f"{self.live.game(record.game_id).title}.")
        return record.id

    async def join(self, table_id: int, member: Member) -> Notice:
        async with self.live.locked(table_id) as loaded:
            _require_lobby(loaded.table)
            limit = loaded.table.max_players or loaded.game.max_players
            if loaded.seat_of(member.id) is not None:
                raise TableError("You already have a seat at this table.")
            if len(loaded.seats) >= limit:
                raise TableError(f"The table is full ({limit} seats).")
            try:
                seats = await self.live.store.add_seat(table_id, member.id, member.name,
                                                       loaded.table.version)
            except AlreadySeated:
                raise TableError("You already have a seat at this table.") from None
            except StaleVersion:
                raise OutOfDate("The lobby changed meanwhile; try again.") from None
            return self._lobby_changed(loaded, seats, f"{escape(member.name)} joined.")

    async def add_computer(self, table_id: int, member: Member, level: str = DEFAULT_LEVEL
                           ) -> Notice:
        level = check_level(level)
        async with self.live.locked(table_id) as loaded:
            _require_lobby(loaded.table)
            _require_member_or_admin(loaded, member, "add a computer player")
            limit = loaded.table.max_players or loaded.game.max_players
            if len(loaded.seats) >= limit:
                raise TableError(f"The table is full ({limit} seats).")
            number = 1 + sum(1 for s in loaded.seats if s.is_computer)
            name = f"Computer {number}"
            try:
                seats = await self.live.store.add_seat(table_id, None, name,
                                                       loaded.table.version, level=level)
            except StaleVersion:
                raise OutOfDate("The lobby changed meanwhile; try again.") from None
            return self._lobby_changed(
                loaded, seats, f"{escape(member.name)} added {name} ({LEVELS[level]})."
            )

    async def leave(self, table_id: int, member: Member) -> Notice:
        async with self.live.locked(table_id) as loaded:
            table = loaded.table
            if table.status != Status.LOBBY:
                raise TableError(
                    "The game has started; seats are fixed. The creator or an admin can "
                    "`/game abandon` it."
                )
            mine = loaded.seat_of(member.id)
            if mine is None:
                raise TableError("You do not have a seat at this table.")
            if len([s for s in loaded.seats if not s.is_computer]) == 1:
                version = await self.live.store.set_status(table_id, Status.ABANDONED,
                                                           table.version)
                self.live.forget(table_id)
                return Notice(table.id, table.game_id, version, Status.ABANDONED,
                              f"{escape(member.name)} left; the table is closed.",
                              channel_id=table.channel_id)
            seats = await self.live.store.remove_seat(table_id, mine, table.version)
            return self._lobby_changed(loaded, seats, f"{escape(member.name)} left.")

    async def remove_seat(self, table_id: int, member: Member, position: int) -> Notice:
        """The creator or an admin removes a lobby seat (a computer, or an absent member)."""
        async with self.live.locked(table_id) as loaded:
            _require_lobby(loaded.table)
            _require_creator_or_admin(loaded.table, member, "remove seats")
            if not 0 <= position < len(loaded.seats):
                raise TableError(f"Seats are numbered 1 to {len(loaded.seats)}.")
            gone = loaded.seats[position]
            seats = await self.live.store.remove_seat(table_id, position, loaded.table.version)
            return self._lobby_changed(
                loaded, seats, f"{escape(member.name)} removed {escape(gone.name)}."
            )

    async def start(self, table_id: int, member: Member, *, then_computers: bool = True
                    ) -> Notice:
        async with self.live.locked(table_id) as loaded:
            table, game = loaded.table, loaded.game
            _require_lobby(table)
            _require_member_or_admin(loaded, member, "start the game")
            count = len(loaded.seats)
            if not game.min_players <= count <= game.max_players:
                raise TableError(
                    f"{game.title} needs {game.min_players} to {game.max_players} players; "
                    f"{count} seated. Join, or add a computer player."
                )
            order = list(range(count))
            if table.seat_order == "shuffled":
                # Derived from the secret seed, so the order is part of the provable setup.
                order = Rng(derive_seed(table.seed, "seats")).shuffled(order)
            state = await asyncio.to_thread(game.setup, count, table.seed, table.options)
            snapshot = game.dump(state)
            try:
                seats = await self.live.store.start(table_id, table.version, order, snapshot)
            except StaleVersion:
                raise OutOfDate("The lobby changed meanwhile; try again.") from None
            loaded.table = replace(table, version=table.version + 1, status=Status.PLAYING,
                                   snapshot=None)
            loaded.seats, loaded.state = seats, state
            how = "shuffled" if table.seat_order == "shuffled" else "in join order"
            chain = Chain(table.version, None, lines=[
                f"{game.title} begins. Seats ({how}): "
                + ", ".join(f"{i + 1}. {{p{i}}}" for i in range(count)) + ".",
                f"Fair setup: SHA-256 of this game's secret seed is `{table.seed_hash}`; "
                "the seed is revealed when the game ends.",
            ])
            loaded.chain = chain  # computer seats' first moves are told with the start
            chain.timed = await timed(self.live, loaded)
            if then_computers:
                await computers(self.live, loaded, chain)
            return await told(self.live, loaded, chain, every_human=True)

    async def abandon(self, table_id: int, member: Member) -> Notice:
        async with self.live.locked(table_id) as loaded:
            table = loaded.table
            if not table.live:
                raise TableError("This game has already ended.")
            # A league game's own players may walk out: that is their forfeit.
            if table.league_id is None or loaded.seat_of(member.id) is None:
                _require_creator_or_admin(table, member, "abandon the game")
            version = await self.live.store.set_status(table_id, Status.ABANDONED,
                                                       table.version)
            loaded.table = replace(table, version=version, status=Status.ABANDONED)
            await timed(self.live, loaded)
            self.live.forget(table_id)
            text = f"{escape(member.name)} abandoned the game."
            if table.status == Status.PLAYING:
                text += f" The seed was `{table.seed}` (`/export` gives the replay)."
            return Notice(table.id, table.game_id, version, Status.ABANDONED, text,
                          channel_id=table.channel_id)

    def _lobby_changed(self, loaded: Loaded, seats: list[SeatRecord], headline: str
                       ) -> Notice:
        loaded.table = replace(loaded.table, version=loaded.table.version + 1)
        loaded.seats = seats
        return lobby_notice(loaded.table, loaded.game, seats, headline)


def _require_lobby(table: TableRecord) -> None:
    if table.status != Status.LOBBY:
        raise TableError("The game has already started.")


def _require_creator_or_admin(table: TableRecord, member: Member, what: str) -> None:
    if member.id != table.creator_id and not member.is_admin:
        raise TableError(f"Only the table's creator or a server manager can {what}.")


def _require_member_or_admin(loaded: Loaded, member: Member, what: str) -> None:
    seated = loaded.seat_of(member.id) is not None
    if not seated and member.id != loaded.table.creator_id and not member.is_admin:
        raise TableError(f"Only a seated player can {what}.")
