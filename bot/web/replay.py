"""A table as the public sees it, rebuilt from the store: every public view from the setup to
now (the replay), the history in sentences, who is on the move, the outcome.

Pages are served from this alone. It is read from the database each time the table's version
moves (never from the bot's in-memory tables: a page process beside the bots must see their
moves), and the states are replayed from the seed and the log in force; only public views
(``view(state, None)``) leave this module. A table whose log only grew since it was last read
is replayed on from its last state (a long Palermo game from the start costs ~2 s of CPU);
an undo or a seat changing hands replays it from the start. The replays and images run in
the site's ``WorkQueue`` (worker processes, bounded; each image made once per table version).
"""

from __future__ import annotations

import json
import zlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import rendering
from bot.store import SeatRecord, Store, TableRecord
from bot.tables import gamelog
from bot.web.renders import WorkQueue
from bot.web.scores import Scores, scores_of
from rules import GAMES
from rules.core import Game, Outcome

KEPT = 32  # tables whose replay is kept in memory, most recently read first


@dataclass(frozen=True)
class PublicTable:
    table: TableRecord  # without its snapshot (and, while it is live, its seed)
    public_id: str
    names: list[str]  # the seats' names now, as members gave them
    seats: list[SeatRecord]
    # The public view after each step (0 is the setup), JSON compressed: a long game's views
    # take megabytes as dicts, a tenth of that packed.
    packed: list[bytes]
    history: list[tuple[int | None, str]]  # (step it led to, or None: a seat changed hands)
    scores: list[Scores | None]  # each seat's score after each step (None: none to show)
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


@dataclass(frozen=True)
class Replayed:
    """What a replay produced: the new steps' packed public views, and the last state (kept
    here, never shown) to go on from."""

    packed: list[bytes]
    scores: list[Scores | None]
    state: dict[str, Any]  # the game's dump of the last state
    active: list[int]
    outcome: Outcome | None


def _pack(view: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(view, separators=(",", ":")).encode(), 6)


def replay(game: Game | str, players: int, seed: str, options: dict[str, Any],
           names: list[str], actions: Sequence[tuple[int, dict[str, Any]]],
           start: dict[str, Any] | None) -> Replayed:
    """The public views after each of ``actions``, from ``start`` (a dumped state) or else
    from the setup (whose view comes first). A game id is looked up here: in a worker
    process only plain data crosses."""
    game = GAMES[game] if isinstance(game, str) else game
    packed, scores = [], []

    def keep(view: dict[str, Any]) -> None:
        packed.append(_pack({**view, "names": names}))
        scores.append(scores_of(game.id, view))

    if start is None:
        state = game.setup(players, seed, options)
        keep(game.view(state, None))
    else:
        state = game.load(start)
    for seat, action in actions:
        state = game.apply(state, seat, action).state
        keep(game.view(state, None))
    outcome = game.outcome(state)
    if outcome is not None and scores:
        scores[-1] = scores_of(game.id, {}, outcome.scores)
    return Replayed(packed, scores, game.dump(state), sorted(game.active_seats(state)),
                    outcome)


@dataclass(frozen=True)
class _Kept:
    version: int
    names: tuple[str, ...]
    played: tuple[int, ...]  # the ids of the log entries in force, in order
    replayed: Replayed | None  # None before the game started
    public: PublicTable


class Replays:
    """Public tables by id, replayed when the table's version moved on, and the images of
    their views."""

    def __init__(self, store: Store, games: Mapping[str, Game], work: WorkQueue,
                 in_process: bool = False) -> None:
        self.store = store
        self.games = games
        self.work = work
        self.in_process = in_process  # the games' objects may go to the workers (threads)
        self._kept: OrderedDict[int, _Kept] = OrderedDict()

    async def table(self, table_id: int, public_id: str, client: str = ""
                    ) -> PublicTable | None:
        # The version first (one small read): a table kept at that version and with the same
        # names is served without reading its record (its snapshot is large).
        kept = self._kept.get(table_id)
        seats = await self.store.seats(table_id)
        names = [s.name for s in seats]
        if kept is not None and (kept.version, kept.names) == (
                await self.store.table_version(table_id), tuple(names)):
            self._kept.move_to_end(table_id)
            return kept.public
        record = await self.store.get_table(table_id)
        if record is None or record.game_id not in self.games:
            return None
        played = gamelog.effective(await self.store.actions(table_id))
        ids = tuple(p.record.id for p in played)
        replayed = None
        if record.snapshot is not None:
            replayed = await self._replay(record, names, played, kept, client)
        changes = await self.store.seat_changes(table_id)
        history = _numbered(gamelog.history_lines(names, played, changes))
        ended = record.status in ("over", "abandoned")
        public = PublicTable(
            replace(record, snapshot=None, seed=record.seed if ended else ""), public_id,
            names, seats, replayed.packed if replayed else [], history,
            replayed.scores if replayed else [],
            replayed.active if replayed else [], replayed.outcome if replayed else None,
            gamelog.replay_file(record, names, played) if ended else None)
        self._kept[table_id] = _Kept(record.version, tuple(names), ids, replayed, public)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return public

    async def _replay(self, record: TableRecord, names: list[str],
                      played: list[gamelog.Played], kept: _Kept | None, client: str
                      ) -> Replayed:
        game: Game | str = self.games[record.game_id]
        if not self.in_process:
            game = record.game_id  # the worker process finds the game itself
        ids = tuple(p.record.id for p in played)
        grown = (kept is not None and kept.replayed is not None
                 and kept.names == tuple(names) and ids[:len(kept.played)] == kept.played)
        start = kept.replayed if grown and kept is not None else None
        new = played[len(kept.played):] if grown and kept is not None else played
        more = await self.work.run(
            client, replay, game, len(names), record.seed, record.options, names,
            [(p.seat, p.action) for p in new], start.state if start else None, render=False)
        if start is None:
            return more
        return replace(more, packed=[*start.packed, *more.packed],
                       scores=[*start.scores, *more.scores])

    async def images(self, game_id: str, view: Mapping[str, Any], key: str,
                     client: str = "") -> list[tuple[bytes, str]]:
        """The PNGs of a view with their alt texts, each made once (``key`` names the view
        for the cache: table, version, step, or a seat's view)."""
        if not rendering.has_renderer(game_id):
            return []
        found: list[tuple[bytes, str]] = await self.work.get(
            ("images", game_id, key), client, render_view, game_id, dict(view))
        return found


def _numbered(lines: list[str]) -> list[tuple[int | None, str]]:
    """Each line of the history with the replay step its move led to."""
    out: list[tuple[int | None, str]] = []
    step = 0
    for line in lines:
        if line.startswith("- "):  # a seat changing hands: no step of its own
            out.append((None, line[2:]))
        elif line.startswith(" "):  # a move told in several lines: the same step
            out.append((step, line.strip()))
        else:
            step += 1
            out.append((step, line))
    return out


def render_view(game_id: str, view: Mapping[str, Any]) -> list[tuple[bytes, str]]:
    """Every picture of a view for a page: the post's image, then each detail image a
    Discord reader would open by a button (a page has room to show them all)."""
    if not rendering.has_renderer(game_id):
        return []
    return rendering.render_described(game_id, view) + [
        rendering.render_detail_png(game_id, view, key)
        for key, _label in rendering.detail_parts(game_id, view)]
