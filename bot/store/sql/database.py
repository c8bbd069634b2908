"""What a backend gives the store's SQL: somewhere to run scripts (``script.py``).

Reads see committed data; a write is all or nothing; a change of a table's moves is
version-checked and, with its follow-up (``then``: planning turns, the announced mark), one
commit, however the backend does it (the SQLite group commit, the PostgreSQL pool).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from bot.store.records import Step
from bot.store.sql.rows import Row
from bot.store.sql.script import Script, Statement

T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")
Repo = TypeVar("Repo", bound="Repository")


class Database(Protocol):
    async def query(self, statement: Statement) -> Any:
        """One statement's result, on committed data."""

    async def read(self, script: Script[T]) -> T:
        """A script of reads, on committed data."""

    async def execute(self, statement: Statement) -> Any:
        """One statement as a write of its own (a round trip, where the backend can)."""

    async def write(self, script: Script[T]) -> T:
        """A script in one transaction: durable once this returns, undone if it raises."""

    async def change(self, table_id: int, expected_version: int, steps: Sequence[Step],
                     then: Script[T] | None) -> tuple[int, T | None]:
        """A table's steps (``StaleVersion`` unless it is at ``expected_version``), then
        ``then`` in the same commit. A failure of ``then`` undoes only its own writes (its
        result is None then), never the steps."""


class Repository:
    """A group of the store's operations, on ``self._db``. Most reads are one statement on
    committed data whose rows become records (``_one``, ``_many``); a write of several
    statements is a method written as a script (``transaction``)."""

    _db: Database

    async def _one(self, build: Callable[[Any], R], statement: Statement) -> R | None:
        """``build`` of the statement's row (or value); None when there is none."""
        found = await self._db.query(statement)
        return None if found is None else build(found)

    async def _many(self, build: Callable[[Row], R], statement: Statement) -> list[R]:
        return [build(r) for r in await self._db.query(statement)]


def transaction(script: Callable[Concatenate[Repo, P], Script[T]]
                ) -> Callable[Concatenate[Repo, P], Coroutine[Any, Any, T]]:
    """A repository method written as a script (its body yields the statements), run as one
    write: all or nothing, durable once it returns (``Database.write``)."""

    @functools.wraps(script)
    async def write(self: Repo, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._db.write(script(self, *args, **kwargs))

    return write
