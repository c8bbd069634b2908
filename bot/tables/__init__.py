"""The use cases of a game table, with no Discord import, keyed by table id.

Lobby (open, join, leave, computers, start, abandon), play (act, preview, confirm, undo,
computer seats) and reading (status, views, moves, history, export) stand on one helper,
``Live``, that finds a table, serializes the calls for it and keeps live tables in memory.
Each use case returns a ``Notice`` for the front end to deliver.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor

from bot.store import Store
from bot.tables.live import Live, TimingHook
from bot.tables.lobby import LobbyCases
from bot.tables.play import PlayCases
from bot.tables.reading import ReadingCases
from rules.core import Game


class Tables(LobbyCases, PlayCases, ReadingCases):
    def __init__(self, store: Store, games: Mapping[str, Game] | None = None,
                 thinker: Executor | None = None, timing: TimingHook | None = None,
                 on_over: Callable[[int], Awaitable[object]] | None = None) -> None:
        self.live = Live(store, games, thinker, timing, on_over)

    @property
    def store(self) -> Store:
        return self.live.store

    @property
    def games(self) -> Mapping[str, Game]:
        return self.live.games

    def game(self, game_id: str) -> Game:
        return self.live.game(game_id)


__all__ = ["Tables"]
