"""``Store``: every repository of the store over one ``Database``, and what each backend
adds (opening, closing, checks, backups).

The repositories are classes of their own, by what they hold (``Tables``, ``Timing``,
``Seats``, ``Announcing``, ``WebIds``, ``Leagues``, ``LeagueResults``): code that needs one
kind of row can be typed against that class alone. ``SqliteStore`` and ``PostgresStore``
subclass ``Store`` and give it their ``Database``; neither adds a public method.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.sql.announcing import Announcing
from bot.store.sql.database import Database
from bot.store.sql.league_results import LeagueResults
from bot.store.sql.leagues import Leagues
from bot.store.sql.seats import Seats
from bot.store.sql.tables import Tables
from bot.store.sql.timing import Timing
from bot.store.sql.web import WebIds


class Store(Tables, Timing, Seats, Announcing, WebIds, Leagues, LeagueResults):
    # True when other processes may write the same tables (PostgreSQL): the table use cases
    # then check a cached table's version before trusting it.
    shared: bool

    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def commits(self) -> int:
        """Transactions that wrote moves (the benches read it)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def check_integrity(self) -> None:
        """``IntegrityFailure`` when the database is unfit to serve (checked at open)."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        raise NotImplementedError

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the database, as a SQLite file."""
        raise NotImplementedError
