"""The use cases of a game table, with no Discord import.

Open, join, leave, add a computer seat, start, act, undo, abandon, status, history, export and
views. Each returns a ``Notice`` the front end delivers. Calls for one table are serialized by a
per-table lock; different tables run in parallel. A move is committed before its notice exists,
so nobody is ever told of a move that a crash could lose.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, Protocol

from bot import gamelog
from bot.narration import (
    Loaded,
    describe,
    lobby_notice,
    named_view,
    narrate,
    play_notice,
    private_notices,
    seat_notice,
)
from bot.notices import Notice, SeatNotice
from bot.store import (
    AlreadySeated,
    ChannelBusy,
    DuplicateKey,
    NewAction,
    SeatRecord,
    SqliteStore,
    StaleVersion,
    TableRecord,
)
from bot.values import Member, OutOfDate, Proposal, TableError
from rules import GAMES
from rules.core import (
    Game,
    Rng,
    State,
    Transition,
    derive_seed,
)
from rules.random_player import UniformRandomPlayer

log = logging.getLogger(__name__)

MAX_COMPUTER_STEPS = 5_000  # a bound on computer moves chained after one human move
CACHED_STATES = 256


class TimingHook(Protocol):
    """Plans deadlines and reminders after each commit (``bot.pace.scheduler.Scheduler``);
    returns what the notice shows of them."""

    async def after_commit(
        self, loaded: Loaded, movers: frozenset[int], autopiloted: frozenset[int]
    ) -> dict[str, Any]: ...


class Tables:
    def __init__(self, store: SqliteStore, games: Mapping[str, Game] | None = None) -> None:
        self.store = store
        self.games: Mapping[str, Game] = GAMES if games is None else games
        self._locks: dict[int, asyncio.Lock] = {}
        # Decoded states of recently used tables (a state can be ~100 KiB decoded), keyed by
        # table, tagged with the version they belong to; the least recently used go first.
        self._cache: OrderedDict[int, tuple[int, State]] = OrderedDict()
        self.timing: TimingHook | None = None

    # -- finding tables ----------------------------------------------------------------------

    def _remember(self, table_id: int, version: int, state: State) -> None:
        self._cache[table_id] = (version, state)
        self._cache.move_to_end(table_id)
        while len(self._cache) > CACHED_STATES:
            self._cache.popitem(last=False)

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[TableRecord]:
        """The channel's live table, re-read once its lock is held (it may have moved on)."""
        table = await self.table_in(channel_id)
        async with self._lock(table.id):
            yield await self.table_for(table.id)

    def game(self, game_id: str) -> Game:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games))
            raise TableError(f"Unknown game {game_id!r}. Games: {known}.") from None

    async def table_in(self, channel_id: int) -> TableRecord:
        table = await self.store.live_table(channel_id)
        if table is None:
            raise TableError("There is no game in this channel. Open one with `/game new`.")
        return table

    async def table_for(self, table_id: int) -> TableRecord:
        table = await self.store.get_table(table_id)
        if table is None:
            raise TableError("That game no longer exists.")
        return table

    async def tables_of(self, member_id: int) -> list[TableRecord]:
        return await self.store.tables_of_member(member_id)

    async def _load(self, table: TableRecord) -> Loaded:
        game = self.game(table.game_id)
        seats = await self.store.seats(table.id)
        state: State | None = None
        if table.snapshot is not None:
            cached = self._cache.get(table.id)
            if cached:
                self._cache.move_to_end(table.id)
            if cached and cached[0] == table.version:
                state = cached[1]
            else:
                state = game.load(table.snapshot)
                self._remember(table.id, table.version, state)
        return Loaded(table, seats, game, state)

    # -- lobby -----------------------------------------------------------------------------

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
        game = self.game(game_id)
        league_id = await self._league_for(guild_id, league, game) if league else None
        resolved = game.options(options)  # refuses unknown options now, not at start
        if max_players is not None and not game.min_players <= max_players <= game.max_players:
            raise TableError(
                f"{game.title} takes {game.min_players} to {game.max_players} players."
            )
        if seat_order not in ("shuffled", "join"):
            raise TableError("Seat order is `shuffled` or `join`.")
        seed = seed or secrets.token_hex(16)
        try:
            table_id = await self.store.create_table(
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
        table = await self.table_for(table_id)
        where = f" for the league {league}" if league else ""
        return await self._lobby_notice(
            table, f"{member.name} opened a table of {game.title}{where}."
        )

    async def _league_for(self, guild_id: int | None, name: str, game: Game) -> int:
        record = await self.store.league_named(guild_id or 0, name)
        if record is None:
            raise TableError(f"This server has no league called {name!r}.")
        if record.closed:
            raise TableError(f"The league {record.name} is closed.")
        if record.game_id != game.id:
            raise TableError(f"The league {record.name} plays {self.game(record.game_id).title}.")
        return record.id

    async def join(self, channel_id: int, member: Member) -> Notice:
        async with self._locked(channel_id) as table:
            self._require_lobby(table)
            game = self.game(table.game_id)
            seats = await self.store.seats(table.id)
            limit = table.max_players or game.max_players
            if any(s.member_id == member.id for s in seats):
                raise TableError("You already have a seat at this table.")
            if len(seats) >= limit:
                raise TableError(f"The table is full ({limit} seats).")
            try:
                await self.store.add_seat(table.id, member.id, member.name, table.version)
            except AlreadySeated:
                raise TableError("You already have a seat at this table.") from None
            except StaleVersion:
                raise OutOfDate("The lobby changed meanwhile; try again.") from None
            table = await self.table_for(table.id)
            return await self._lobby_notice(table, f"{member.name} joined.")

    async def add_computer(self, channel_id: int, member: Member) -> Notice:
        async with self._locked(channel_id) as table:
            self._require_lobby(table)
            seats = await self.store.seats(table.id)
            self._require_member_or_admin(table, seats, member, "add a computer player")
            game = self.game(table.game_id)
            limit = table.max_players or game.max_players
            if len(seats) >= limit:
                raise TableError(f"The table is full ({limit} seats).")
            number = 1 + sum(1 for s in seats if s.is_computer)
            name = f"Computer {number}"
            await self.store.add_seat(table.id, None, name, table.version)
            table = await self.table_for(table.id)
            return await self._lobby_notice(table, f"{member.name} added {name} (random moves).")

    async def leave(self, channel_id: int, member: Member) -> Notice:
        async with self._locked(channel_id) as table:
            if table.status != "lobby":
                raise TableError(
                    "The game has started; seats are fixed. The creator or an admin can "
                    "`/game abandon` it."
                )
            seats = await self.store.seats(table.id)
            mine = [s for s in seats if s.member_id == member.id]
            if not mine:
                raise TableError("You do not have a seat at this table.")
            if len([s for s in seats if not s.is_computer]) == 1:
                version = await self.store.set_status(table.id, "abandoned", table.version)
                return Notice(table.id, table.game_id, version, "abandoned",
                              f"{member.name} left; the table is closed.")
            await self.store.remove_seat(table.id, mine[0].position, table.version)
            table = await self.table_for(table.id)
            return await self._lobby_notice(table, f"{member.name} left.")

    async def remove_seat(self, channel_id: int, member: Member, position: int) -> Notice:
        """The creator or an admin removes a lobby seat (a computer, or an absent member)."""
        async with self._locked(channel_id) as table:
            self._require_lobby(table)
            self._require_creator_or_admin(table, member, "remove seats")
            seats = await self.store.seats(table.id)
            if not 0 <= position < len(seats):
                raise TableError(f"Seats are numbered 1 to {len(seats)}.")
            gone = seats[position]
            await self.store.remove_seat(table.id, position, table.version)
            table = await self.table_for(table.id)
            return await self._lobby_notice(table, f"{member.name} removed {gone.name}.")

    async def start(self, channel_id: int, member: Member) -> Notice:
        async with self._locked(channel_id) as table:
            self._require_lobby(table)
            game = self.game(table.game_id)
            seats = await self.store.seats(table.id)
            self._require_member_or_admin(table, seats, member, "start the game")
            if not game.min_players <= len(seats) <= game.max_players:
                raise TableError(
                    f"{game.title} needs {game.min_players} to {game.max_players} players; "
                    f"{len(seats)} seated. Join, or add a computer player."
                )
            order = list(range(len(seats)))
            if table.seat_order == "shuffled":
                # Derived from the secret seed, so the order is part of the provable setup.
                order = Rng(derive_seed(table.seed, "seats")).shuffled(order)
            state = await asyncio.to_thread(game.setup, len(seats), table.seed, table.options)
            snapshot = game.dump(state)
            try:
                version = await self.store.start(table.id, table.version, order, snapshot)
            except StaleVersion:
                raise OutOfDate("The lobby changed meanwhile; try again.") from None
            self._remember(table.id, version, state)
            table = await self.table_for(table.id)
            seats = await self.store.seats(table.id)
            how = "shuffled" if table.seat_order == "shuffled" else "in join order"
            lines = [
                f"{game.title} begins. Seats ({how}): "
                + ", ".join(f"{i + 1}. {s.name}" for i, s in enumerate(seats)) + ".",
                f"Fair setup: SHA-256 of this game's secret seed is `{table.seed_hash}`; "
                "the seed is revealed when the game ends.",
            ]
            loaded = Loaded(table, seats, game, state)
            private = await asyncio.to_thread(
                private_notices, loaded, state, None, (), every_human=True
            )
            notice = await self._run_computers(loaded, lines, private)
            return notice

    async def abandon(self, channel_id: int, member: Member) -> Notice:
        async with self._locked(channel_id) as table:
            self._require_creator_or_admin(table, member, "abandon the game")
            version = await self.store.set_status(table.id, "abandoned", table.version)
            text = f"{member.name} abandoned the game."
            if table.status == "playing":
                text += f" The seed was `{table.seed}` (`/export` gives the replay)."
            await self._timed(Loaded(replace(table, status="abandoned", version=version), [],
                                     self.game(table.game_id), None), frozenset())
            return Notice(table.id, table.game_id, version, "abandoned", text)

    # -- play ------------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        member: Member,
        action: Mapping[str, Any] | str,
        *,
        idem_key: str | None = None,
        expected_version: int | None = None,
    ) -> Notice:
        """Apply one action of the member's seat (text in the game's notation, or its JSON).

        A repeated ``idem_key`` returns a duplicate notice without applying anything again; an
        ``expected_version`` that is no longer current raises ``OutOfDate``.
        """
        async with self._lock(table_id):
            table = await self.table_for(table_id)
            if idem_key is not None:
                seen = await self.store.find_action_by_key(table.id, idem_key)
                if seen is not None:
                    return Notice(table.id, table.game_id, table.version, table.status,
                                  "That move was already made.", duplicate=True)
            if expected_version is not None and expected_version != table.version:
                raise OutOfDate("This board is out of date; use the latest one.")
            loaded = await self._load(table)
            seat = self._playing_seat(loaded, member)
            state = loaded.state
            game = loaded.game
            parsed = (
                game.parse_action(state, seat, action) if isinstance(action, str) else dict(action)
            )
            transition = await asyncio.to_thread(game.apply, state, seat, parsed)
            try:
                await self._commit(loaded, seat, member.id, parsed, transition, idem_key)
            except DuplicateKey:
                return Notice(table.id, table.game_id, table.version, table.status,
                              "That move was already made.", duplicate=True)
            before = state
            loaded.state = transition.state
            lines = [narrate(transition.events, None)]
            private = await asyncio.to_thread(
                private_notices, loaded, transition.state, before, transition.events
            )
            return await self._run_computers(loaded, lines, private, frozenset({seat}))

    async def propose(self, table_id: int, member: Member, text: str) -> Proposal:
        """Check a move and show its mover the result, without committing it.

        The move waits in the store for ``confirm``. The preview is the mover's own view after
        it, except for a move that draws or reveals something: showing that result before the
        move counts would let a player peek at a draw and cancel, so such a preview shows the
        board as it is and says the result comes on Confirm.
        """
        table = await self.table_for(table_id)
        loaded = await self._load(table)
        seat = self._playing_seat(loaded, member)
        game = loaded.game
        action = game.parse_action(loaded.state, seat, text)
        transition = await asyncio.to_thread(game.apply, loaded.state, seat, action)
        notation = game.format_action(loaded.state, action)
        pending = await self.store.add_pending(table.id, member.id, table.version, action,
                                               notation)
        if transition.irreversible:
            view = named_view(loaded, loaded.state, seat)
            note = "This move draws or reveals something: you see the result once it counts."
            return Proposal(pending, table.id, table.version, notation, view,
                            f"{note}\n{describe(loaded, view)}", hidden_result=True)
        view = named_view(loaded, transition.state, seat)
        return Proposal(pending, table.id, table.version, notation, view,
                        describe(loaded, view))

    async def confirm(self, pending_id: int, member: Member, idem_key: str | None = None
                      ) -> Notice:
        """Commit a previewed move, unless the table moved on since the preview."""
        pending = await self.store.take_pending(pending_id)
        if pending is None:
            raise OutOfDate("That preview was already used or replaced by a newer one.")
        if pending.member_id != member.id:
            raise TableError("That preview belongs to another player.")
        return await self.act(pending.table_id, member, pending.action, idem_key=idem_key,
                              expected_version=pending.version)

    async def cancel(self, pending_id: int, member: Member) -> None:
        pending = await self.store.take_pending(pending_id)
        if pending is not None and pending.member_id != member.id:
            raise TableError("That preview belongs to another player.")

    async def undo(self, channel_id: int, member: Member, idem_key: str | None = None) -> Notice:
        async with self._locked(channel_id) as table:
            loaded = await self._load(table)
            seat = self._seat_of(loaded, member)
            if table.status != "playing":
                raise TableError("Only a game in progress can take back a move.")
            played = gamelog.effective(await self.store.actions(table.id))
            if not played:
                raise TableError("There is no move to take back.")
            last = played[-1]
            if last.seat != seat or last.record.member_id != member.id:
                raise TableError(
                    "You can only take back your own last move, before anyone else acts."
                )
            if last.record.irreversible:
                raise TableError(
                    "That move revealed something hidden or drew at random; it cannot be undone."
                )
            game = loaded.game
            state = await asyncio.to_thread(
                gamelog.rebuild, game, table, len(loaded.seats), played[:-1]
            )
            try:
                version = await self.store.record(
                    table.id, table.version, game.dump(state),
                    NewAction("undo", seat, member.id, undoes=last.record.id, idem_key=idem_key),
                )
            except (StaleVersion, DuplicateKey):
                raise OutOfDate("The game changed meanwhile; nothing was undone.") from None
            self._remember(table.id, version, state)
            loaded.table = replace(table, version=version)
            loaded.state = state
            text = f"{member.name} took back a move."
            private = await asyncio.to_thread(
                private_notices, loaded, state, None, (), only_seats={seat}
            )
            notice = play_notice(loaded, [text], private)
            notice.data.update(await self._timed(loaded, frozenset({seat})))
            return notice

    async def run_computers(self, table_id: int) -> Notice | None:
        """Let computer seats that are due act (after a restart, for instance)."""
        async with self._lock(table_id):
            table = await self.table_for(table_id)
            if table.status != "playing":
                return None
            loaded = await self._load(table)
            if not self._due_computers(loaded):
                return None
            return await self._run_computers(loaded, [], [])

    # -- reading ---------------------------------------------------------------------------

    async def status(self, channel_id: int) -> Notice:
        table = await self.table_in(channel_id)
        if table.status == "lobby":
            return await self._lobby_notice(table, "")
        loaded = await self._load(table)
        return play_notice(loaded, [], [])

    async def private_view(self, table_id: int, member: Member) -> SeatNotice:
        table = await self.table_for(table_id)
        loaded = await self._load(table)
        seat = self._seat_of(loaded, member)
        if loaded.state is None:
            raise TableError("The game has not started yet.")
        return seat_notice(loaded, seat, loaded.state, "")

    async def public_view(self, table_id: int) -> tuple[str, dict[str, Any]]:
        table = await self.table_for(table_id)
        loaded = await self._load(table)
        if loaded.state is None:
            raise TableError("The game has not started yet.")
        view = named_view(loaded, loaded.state, None)
        return describe(loaded, view), view

    async def legal_moves(self, table_id: int, member: Member) -> list[str]:
        """The member's legal actions in the game's notation (empty when not their turn)."""
        table = await self.table_for(table_id)
        if table.status != "playing":
            return []
        loaded = await self._load(table)
        seat = next((s.position for s in loaded.seats if s.member_id == member.id), None)
        if seat is None or loaded.state is None:
            return []
        game, state = loaded.game, loaded.state
        # The same text twice (two equal actions) would break a select menu; list it once.
        return list(dict.fromkeys(game.format_action(state, a)
                                  for a in game.legal_actions(state, seat)))

    async def last_notation(self, table_id: int, member: Member) -> str | None:
        """The member's own last move in the game's notation (for a shortlist of moves)."""
        record = await self.store.last_action_of(table_id, member.id)
        return record.notation if record else None

    async def history(self, channel_id: int) -> list[str]:
        table = await self.store.latest_table(channel_id)
        if table is None:
            raise TableError("No game has been played in this channel.")
        seats = await self.store.seats(table.id)
        played = gamelog.effective(await self.store.actions(table.id))
        return gamelog.history_lines([s.name for s in seats], played)

    async def export(self, channel_id: int) -> dict[str, Any]:
        table = await self.store.latest_table(channel_id)
        if table is None:
            raise TableError("No game has been played in this channel.")
        seats = await self.store.seats(table.id)
        played = gamelog.effective(await self.store.actions(table.id))
        return gamelog.replay_file(table, [s.name for s in seats], played)

    async def seats(self, table_id: int) -> list[SeatRecord]:
        return await self.store.seats(table_id)

    async def mark_dm_closed(self, table_id: int, member_id: int, closed: bool = True) -> None:
        await self.store.set_dm_closed(table_id, member_id, closed)

    # -- internals -------------------------------------------------------------------------

    async def _commit(
        self,
        loaded: Loaded,
        seat: int,
        member_id: int | None,
        action: dict[str, Any],
        transition: Transition,
        idem_key: str | None,
    ) -> None:
        game, table = loaded.game, loaded.table
        status = "over" if game.outcome(transition.state) is not None else "playing"
        notation = game.format_action(loaded.state, action)
        entry = NewAction(
            "act", seat, member_id, action=action,
            text=narrate(transition.events, None) or notation,
            irreversible=transition.irreversible, idem_key=idem_key, notation=notation,
        )
        snapshot = await asyncio.to_thread(game.dump, transition.state)
        try:
            version = await self.store.record(table.id, table.version, snapshot, entry, status)
        except StaleVersion:
            raise OutOfDate("This board is out of date; use the latest one.") from None
        self._remember(table.id, version, transition.state)
        # The row now holds what was just written; no need to read it back.
        loaded.table = replace(table, version=version, status=status)

    def _due_computers(self, loaded: Loaded) -> list[int]:
        if loaded.state is None:
            return []
        active = loaded.game.active_seats(loaded.state)
        return sorted(s.position for s in loaded.seats if s.is_computer and s.position in active)

    async def _run_computers(
        self,
        loaded: Loaded,
        lines: list[str],
        private: list[SeatNotice],
        movers: frozenset[int] = frozenset(),
        autopiloted: frozenset[int] = frozenset(),
    ) -> Notice:
        """Computer seats act until a human must act or the game ends; each move is committed."""
        game = loaded.game
        merged = {n.seat: n for n in private}
        for _ in range(MAX_COMPUTER_STEPS):
            due = self._due_computers(loaded)
            if not due or loaded.table.status != "playing":
                break
            seat = due[0]
            player = UniformRandomPlayer(
                derive_seed(loaded.table.seed, loaded.table.version, seat)
            )
            before = loaded.state
            action = player.choose(game, before, seat)
            transition = await asyncio.to_thread(game.apply, before, seat, action)
            await self._commit(loaded, seat, None, action, transition, None)
            loaded.state = transition.state
            said = narrate(transition.events, None)
            if said:
                lines.append(said)
            for n in await asyncio.to_thread(
                private_notices, loaded, transition.state, before, transition.events
            ):
                merged[n.seat] = n
        notice = play_notice(loaded, lines, list(merged.values()))
        notice.data.update(await self._timed(loaded, movers, autopiloted))
        return notice

    async def _timed(
        self, loaded: Loaded, movers: frozenset[int], autopiloted: frozenset[int] = frozenset()
    ) -> dict[str, Any]:
        """After a commit, under the table's lock: one call that updates deadlines."""
        if self.timing is None:
            return {}
        return await self.timing.after_commit(loaded, movers, autopiloted)

    async def _lobby_notice(self, table: TableRecord, headline: str) -> Notice:
        seats = await self.store.seats(table.id)
        return lobby_notice(table, self.game(table.game_id), seats, headline)

    def _require_lobby(self, table: TableRecord) -> None:
        if table.status != "lobby":
            raise TableError("The game has already started.")

    def _require_creator_or_admin(self, table: TableRecord, member: Member, what: str) -> None:
        if member.id != table.creator_id and not member.is_admin:
            raise TableError(f"Only the table's creator or a server manager can {what}.")

    def _require_member_or_admin(
        self, table: TableRecord, seats: list[SeatRecord], member: Member, what: str
    ) -> None:
        seated = any(s.member_id == member.id for s in seats)
        if not seated and member.id != table.creator_id and not member.is_admin:
            raise TableError(f"Only a seated player can {what}.")

    def _seat_of(self, loaded: Loaded, member: Member) -> int:
        for s in loaded.seats:
            if s.member_id == member.id:
                return s.position
        raise TableError("You do not have a seat in this game.")

    def _playing_seat(self, loaded: Loaded, member: Member) -> int:
        if loaded.table.status == "lobby":
            raise TableError("The game has not started yet.")
        if loaded.table.status != "playing":
            raise TableError("This game is over.")
        return self._seat_of(loaded, member)
