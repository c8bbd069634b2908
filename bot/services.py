"""The one place that builds the bot's services, each with its collaborators as arguments:
the store, the table use cases and the scheduler that plans and fires their turns, leagues
with their rounds and referee, the renderer, and the process pools behind them."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar, cast

from bot.config import Settings
from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.rounds import Rounds
from bot.pace.clock import Clock
from bot.pace.scheduler import Scheduler, paced
from bot.render_pool import RenderPool
from bot.store import Store, open_store
from bot.tables import Tables
from bot.tables.outbox import Outbox, Poster

T = TypeVar("T")


@dataclass
class Services:
    store: Store
    tables: Tables
    scheduler: Scheduler
    leagues: Leagues
    rounds: Rounds
    referee: Referee
    renderer: RenderPool
    thinker: ProcessPoolExecutor | None
    outbox: Outbox  # every committed change reaches the poster through it

    def close_pools(self) -> None:
        self.renderer.close()
        if self.thinker is not None:
            self.thinker.shutdown(wait=False, cancel_futures=True)


class Served(Generic[T]):
    """A service of the bot's (its ``services``, once built), read as an attribute."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, bot: Any, owner: type | None = None) -> T:
        built = bot.services
        assert built is not None, "the services are built in setup_hook"
        return cast(T, getattr(built, self.name))


def spawned_pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


async def build(settings: Settings, clock: Clock, render_workers: int, poster: Poster
                ) -> Services:
    """Everything the cogs, the web pages and the background work use, built once;
    ``poster`` tells players of what is committed (Discord's delivery)."""
    store = await open_store(settings.db_path)
    # Computer players that search get a process of their own: a search holds the CPU for
    # up to two seconds, which neither the loop nor the renders should feel.
    thinker = spawned_pool() if render_workers > 0 else None

    def league_now() -> datetime:
        # League time is the scheduler's: round deadlines fall due on its clock.
        return scheduler.clock.now()

    leagues = Leagues(store, clock=league_now)

    async def absent_for_time(table_id: int, seat: int) -> None:
        # A seat out of time too often is absent: in a league, that is its forfeit.
        await leagues.recorder.forfeit(table_id, seat, "time")

    # A league game's ranking is stored as its last move commits (idempotent; the catch-up
    # at start covers a crash in between).
    tables, scheduler = paced(store, clock, thinker=thinker, on_over=leagues.recorder.record,
                              owns=settings.sharding.owns, on_absent=absent_for_time)
    rounds = Rounds(leagues, tables)
    renderer = RenderPool(render_workers, processes=render_workers > 0)
    return Services(store, tables, scheduler, leagues, rounds, Referee(rounds), renderer,
                    thinker,
                    Outbox(tables, poster, settings.sharding.name, scheduler.now))
