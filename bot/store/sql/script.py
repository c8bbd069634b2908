"""Statements and the scripts that yield them (see the package's docstring).

SQL uses ``?`` placeholders; the PostgreSQL backend numbers them. It must be SQL both
dialects take: ``TRUE``/``FALSE`` for booleans, ``CASE`` rather than ``MAX(a, b)`` or
``GREATEST``, ``ON CONFLICT ... DO NOTHING`` rather than ``INSERT OR IGNORE``, and a list
spelled out with ``marks(n)`` rather than an array parameter. Row locks (``FOR UPDATE``,
``FOR UPDATE SKIP LOCKED``) and ``lock(table)`` are PostgreSQL's: SQLite's write transactions
hold the whole database, so its driver drops them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from enum import Enum
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


class Want(Enum):
    ROWS = "rows"  # every row
    ROW = "row"  # the first row, or None
    VALUE = "value"  # the first column of the first row, or None
    COUNT = "count"  # how many rows the statement changed
    MANY = "many"  # one statement run for each parameter tuple; no result
    LOCK = "lock"  # the table named is kept from other writers until the commit


class Statement(NamedTuple):  # a tuple: made on every query, so made cheaply
    sql: str
    params: Sequence[Any]
    want: Want


# A store operation: yields statements, is sent their results, returns its own.
Script = Generator[Statement, Any, T]


def rows(sql: str, *params: Any) -> Statement:
    return Statement(sql, params, Want.ROWS)


def row(sql: str, *params: Any) -> Statement:
    return Statement(sql, params, Want.ROW)


def value(sql: str, *params: Any) -> Statement:
    return Statement(sql, params, Want.VALUE)


def count(sql: str, *params: Any) -> Statement:
    return Statement(sql, params, Want.COUNT)


def each(sql: str, params: Iterable[Sequence[Any]]) -> Statement:
    return Statement(sql, [tuple(p) for p in params], Want.MANY)


def lock(table: str) -> Statement:
    """Hold ``table`` against other writers (not readers) until the transaction ends."""
    return Statement(table, (), Want.LOCK)


def marks(n: int) -> str:
    """``?, ?, ?``: a list of ``n`` placeholders (never empty: ``IN ()`` is not SQL)."""
    return ", ".join(["?"] * max(n, 1))


def single(statement: Statement) -> Script[Any]:
    return (yield statement)


async def run_async(script: Script[T], execute: Callable[[Statement], Awaitable[Any]]) -> T:
    """``script`` run to its end on an asynchronous driver's ``execute``."""
    try:
        statement = next(script)
        while True:
            statement = script.send(await execute(statement))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        script.close()
