"""One helper every table use case stands on: find a table by id, serialize the calls for it,
and keep live tables (record, seats, decoded state) in memory.

The database is the truth: on start, after a conflict (``StaleVersion``) and for a table that
fell out of the bounded cache, the table is read again. A decoded state can be ~100 KiB, so the
cache holds the most recently used tables only (see bench/bench_tables.py for the measured cost).

Reads outside a table's lock race with its moves and with evictions: a copy read before a
commit may arrive after it. The cache therefore never takes a version older than one it holds
or held (the versions of evicted tables are remembered, bounded), and nothing assumes a table
is still cached after an await.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.locks import KeyedLocks
from bot.store import SeatRecord, Store, TableRecord
from bot.store.records import PlanRequest, TurnRecord
from bot.values import OutOfDate, TableError
from rules import GAMES
from rules.core import Game, RulesError, State

CACHED_TABLES = 256
REMEMBERED_VERSIONS = 16 * CACHED_TABLES  # evicted tables whose last version is kept


@dataclass
class Loaded:
    """A table with its seats, its game and its current state, as one use case sees it."""

    table: TableRecord
    seats: list[SeatRecord]
    game: Game
    state: State | None
    # The chain of moves last committed (``bot.tables.moves.Chain``), so computer replies can
    # be told of together with the member's move that they answer.
    chain: object | None = None
    # Human seats whose own move changed what they keep hidden without a DM telling them:
    # they hear as their turn comes (``narration.private_notices``).
    untold: set[int] = field(default_factory=set)
    _views: Views | None = None

    def views(self) -> Views:
        """The views of the current state (built on demand, kept until the state changes)."""
        if self._views is None or self._views.state is not self.state:
            self._views = Views(self.game, self.state)
        return self._views

    def seat_of(self, member_id: int) -> int | None:
        return next((s.position for s in self.seats if s.member_id == member_id), None)

    def waiting(self) -> list[SeatRecord]:
        """The seats the game waits for now (none before it starts)."""
        if self.state is None:
            return []
        active = self.game.active_seats(self.state)
        return [s for s in self.seats if s.position in active]


def private_part(view: Mapping[str, Any], public: Mapping[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the public one."""
    return {k: v for k, v in view.items() if public.get(k) != v}


class Views:
    """The engine's views of one state, each built at most once: telling of a move needs the
    public view, every seat's view, and the views before the move to compare with, and views
    are the costliest part of it."""

    def __init__(self, game: Game, state: State) -> None:
        self.game, self.state = game, state
        self._views: dict[int | None, dict[str, Any]] = {}
        self._moves: dict[int, list[dict[str, Any]]] = {}
        self._texts: dict[int, list[str]] = {}
        self._prints: dict[int, str] = {}

    def of(self, seat: int | None) -> dict[str, Any]:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(self.state, seat)
        return view

    def moves(self, seat: int) -> list[dict[str, Any]]:
        moves = self._moves.get(seat)
        if moves is None:
            moves = self._moves[seat] = self.game.legal_actions(self.state, seat)
        return moves

    def texts(self, seat: int) -> list[str]:
        """The seat's legal moves in the game's notation, each text once (two equal texts
        would break a select menu); autocomplete asks for them on every keystroke."""
        texts = self._texts.get(seat)
        if texts is None:
            found = (self.game.format_action(self.state, a) for a in self.moves(seat))
            texts = self._texts[seat] = list(dict.fromkeys(found))
        return texts

    def built_texts(self, seat: int) -> list[str] | None:
        return self._texts.get(seat)

    def own(self, seat: int) -> dict[str, Any]:
        """What the seat sees beyond the public view."""
        return private_part(self.of(seat), self.of(None))

    def fingerprint(self, seat: int) -> str:
        """The seat's own position: its own part of the view and its legal moves. Equal
        fingerprints mean a preview or menu made for the seat is still right, whatever other
        seats did meanwhile (the move is checked by the rules again when it counts)."""
        found = self._prints.get(seat)
        if found is None:
            # Keys sorted: a state read back from its snapshot may hold them in another order.
            own = {"view": self.own(seat), "moves": self.moves(seat)}
            encoded = json.dumps(own, sort_keys=True, separators=(",", ":"), default=str,
                                 check_circular=False)
            found = self._prints[seat] = hashlib.sha256(encoded.encode()).hexdigest()[:16]
        return found


@dataclass(frozen=True)
class Timed:
    """What planning deadlines after a change tells the notice of it."""

    deadlines: dict[int, int] = field(default_factory=dict)  # member -> deadline (epoch s)
    no_dm: frozenset[int] = frozenset()  # members who turned notices by DM off


@dataclass(frozen=True)
class Planning:
    """Planning a table's turns after a change: what the store writes in the change's own
    transaction, and what the notice is told from the open turns it returns."""

    request: PlanRequest
    told: Callable[[dict[int, TurnRecord]], Timed]


class TimingHook(Protocol):
    """Plans deadlines and reminders after each change of a table, under its lock
    (``bot.pace.scheduler.Scheduler``)."""

    async def after_commit(
        self, loaded: Loaded, movers: frozenset[int], autopiloted: frozenset[int]
    ) -> Timed: ...

    def planning(self, loaded: Loaded, movers: frozenset[int], autopiloted: frozenset[int]
                 ) -> Planning:
        """The same for the store to write inside a move's own transaction."""
        ...


class Live:
    def __init__(self, store: Store, games: Mapping[str, Game] | None = None,
                 thinker: Executor | None = None, timing: TimingHook | None = None,
                 on_over: Callable[[int], Awaitable[object]] | None = None) -> None:
        self.store = store
        self.thinker = thinker  # a process pool for computer players that search
        self.games: Mapping[str, Game] = GAMES if games is None else games
        self.locks = KeyedLocks()
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._evicted: OrderedDict[int, int] = OrderedDict()  # table -> version when evicted
        self.timing = timing  # plans turns after each change (asynchronous play)
        # Called with a table's id once a commit ends its game (a league stores the result).
        self.on_over = on_over

    def game(self, game_id: str) -> Game:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games))
            raise TableError(f"Unknown game. Games: {known}.") from None

    async def record(self, table_id: int) -> TableRecord:
        cached = await self._cached(table_id)
        if cached is not None:
            return cached.table
        table = await self.store.get_table(table_id)
        if table is None:
            raise TableError("That game no longer exists.")
        return table

    async def load(self, table_id: int) -> Loaded:
        """The table as it is now, from memory when it is cached."""
        cached = await self._cached(table_id)
        if cached is not None:
            if self._cache.get(table_id) is cached:  # it may have left during the await
                self._cache.move_to_end(table_id)
            return cached
        table = await self.store.get_table(table_id)
        if table is None:
            raise TableError("That game no longer exists.")
        seats = await self.store.seats(table_id)
        game = self.game(table.game_id)
        state = None if table.snapshot is None else game.load(table.snapshot)
        # The snapshot is decoded once; the record need not carry it around as well.
        loaded = Loaded(replace(table, snapshot=None), seats, game, state)
        return self.keep(loaded)

    async def _cached(self, table_id: int) -> Loaded | None:
        """The cached table, if it is still the latest. A store that other processes write
        (``shared``) is asked for the table's version first, one small read: another bot
        process may have moved the table since (a DM interaction, a second shard)."""
        cached = self._cache.get(table_id)
        if cached is None or not self.store.shared:
            return cached
        if await self.store.table_version(table_id) != cached.table.version:
            if self._cache.get(table_id) is cached:  # not a newer copy kept meanwhile
                del self._cache[table_id]
            return None
        return cached

    @asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[Loaded]:
        """The table, with its lock held for the whole use case."""
        async with self.locks.hold(table_id):
            try:
                loaded = await self.load(table_id)
                yield loaded
                # Changed in place under the lock: kept again when it was evicted meanwhile
                # (or an older read took its place), not when the use case forgot it.
                held = self._cache.get(table_id)
                if (held is not None and held is not loaded) or table_id in self._evicted:
                    self.keep(loaded)
            except OutOfDate:
                self.forget(table_id)  # the database moved on: read it again next time
                raise
            except RulesError:
                raise  # a player's mistake changes nothing
            except BaseException:
                # A failed use case may have left the in-memory copy half-changed.
                self.forget(table_id)
                raise

    def keep(self, loaded: Loaded) -> Loaded:
        """Cache ``loaded`` unless a copy as new or newer is (or was) cached; returns the
        copy that is kept, the newest."""
        table_id, version = loaded.table.id, loaded.table.version
        held = self._cache.get(table_id)
        if held is not None and held is not loaded and held.table.version >= version:
            self._cache.move_to_end(table_id)
            return held
        if held is None and self._evicted.get(table_id, -1) > version:
            return loaded  # read before a commit this process made since: not kept
        self._evicted.pop(table_id, None)
        self._cache[table_id] = loaded
        self._cache.move_to_end(table_id)
        while len(self._cache) > CACHED_TABLES:
            gone_id, gone = self._cache.popitem(last=False)
            self._evicted[gone_id] = gone.table.version
            while len(self._evicted) > REMEMBERED_VERSIONS:
                self._evicted.popitem(last=False)
        return loaded

    def forget(self, table_id: int) -> None:
        self._cache.pop(table_id, None)

    def cached(self) -> int:
        return len(self._cache)
