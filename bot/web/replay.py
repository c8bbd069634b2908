"""A table as the public sees it, rebuilt from the store: every public view from the setup to
now (the replay), the history in sentences, who is on the move, the outcome.

Pages are served from this alone. It is read from the database each time the table's version
moves (never from the bot's in-memory tables: a page process beside the bots must see their
moves), and the states are replayed from the seed and the log in force; only public views
(``view(state, None)``) leave this module.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import rendering
from bot.store import SeatRecord, Store, TableRecord
from bot.store.timing_records import SeatChange
from bot.tables import gamelog
from bot.web.metrics import RENDER_SECONDS, RENDERS
from rules.core import Game, Outcome

KEPT = 32  # tables whose replay is kept in memory, most recently read first
IMAGES_KEPT = 256  # PNG lists, ~100 KiB each


@dataclass(frozen=True)
class PublicTable:
    table: TableRecord  # without its snapshot
    public_id: str
    names: list[str]  # the seats' names now, as members gave them
    seats: list[SeatRecord]
    # The public view after each step (0 is the setup), JSON compressed: a long game's views
    # take megabytes as dicts, a tenth of that packed.
    packed: list[bytes]
    history: list[tuple[int | None, str]]  # (step it led to, or None: a seat changed hands)
    active: list[int]  # seats on the move now
    outcome: Outcome | None
    replay_file: dict[str, Any] | None  # once the game is over or abandoned

    @property
    def started(self) -> bool:
        return bool(self.packed)

    @property
    def last(self) -> int:
        return len(self.packed) - 1

    def view(self, step: int) -> dict[str, Any]:
        view: dict[str, Any] = json.loads(zlib.decompress(self.packed[step]))
        return view


def _pack(view: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(view, separators=(",", ":")).encode(), 6)


def build(game: Game, table: TableRecord, public_id: str, seats: list[SeatRecord],
          played: list[gamelog.Played], changes: list[SeatChange]) -> PublicTable:
    """Replays the log in force from the seed (CPU work: run it off the loop)."""
    names = [s.name for s in seats]
    views: list[bytes] = []
    active: list[int] = []
    outcome = None
    if table.snapshot is not None:
        state = game.setup(len(seats), table.seed, table.options)
        views.append(_pack({**game.view(state, None), "names": names}))
        for entry in played:
            state = game.apply(state, entry.seat, entry.action).state
            views.append(_pack({**game.view(state, None), "names": names}))
        active = sorted(game.active_seats(state))
        outcome = game.outcome(state)
    history = _numbered(gamelog.history_lines(names, played, changes))
    ended = table.status in ("over", "abandoned")
    return PublicTable(
        replace(table, snapshot=None, seed="" if not ended else table.seed), public_id, names,
        seats, views, history, active, outcome,
        gamelog.replay_file(table, names, played) if ended else None)


def _numbered(lines: list[str]) -> list[tuple[int | None, str]]:
    """Each line of the history with the replay step its move led to."""
    out: list[tuple[int | None, str]] = []
    step = 0
    for line in lines:
        if line.startswith("- "):  # a seat changing hands: no step of its own
            out.append((None, line[2:]))
        else:
            step += 1
            out.append((step, line))
    return out


class Replays:
    """Public tables by id, rebuilt when the table's version (or its seats) moved on, and the
    images of their views."""

    def __init__(self, store: Store, games: Mapping[str, Game]) -> None:
        self.store = store
        self.games = games
        self._kept: OrderedDict[int, tuple[tuple[int, tuple[str, ...]], PublicTable]] = \
            OrderedDict()
        self._images: OrderedDict[tuple[str, str], list[bytes]] = OrderedDict()

    async def table(self, table_id: int, public_id: str) -> PublicTable | None:
        record = await self.store.get_table(table_id)
        if record is None or record.game_id not in self.games:
            return None
        seats = await self.store.seats(table_id)
        key = (record.version, tuple(s.name for s in seats))
        kept = self._kept.get(table_id)
        if kept is not None and kept[0] == key:
            self._kept.move_to_end(table_id)
            return kept[1]
        played = gamelog.effective(await self.store.actions(table_id))
        changes = await self.store.seat_changes(table_id)
        built = await asyncio.to_thread(build, self.games[record.game_id], record, public_id,
                                        seats, played, changes)
        self._kept[table_id] = (key, built)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return built

    async def images(self, game_id: str, view: Mapping[str, Any], key: str) -> list[bytes]:
        """The PNGs of a view (``key`` names it for the cache: table, version, step)."""
        found = self._images.get((game_id, key))
        if found is None:
            found = await asyncio.to_thread(render_view, game_id, view)
            self._images[(game_id, key)] = found
            while len(self._images) > IMAGES_KEPT:
                self._images.popitem(last=False)
        return found


def render_view(game_id: str, view: Mapping[str, Any]) -> list[bytes]:
    if not rendering.has_renderer(game_id):
        return []
    with RENDER_SECONDS.time():
        pngs = rendering.render_pngs(game_id, view)
    RENDERS.inc()
    return pngs
