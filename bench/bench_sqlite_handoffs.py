"""What aiosqlite's public API alone would cost the move path.

The SQLite store hands aiosqlite whole functions (a group commit, a read of several
statements) through its one private call, ``Connection._execute``: one hand-off to the
connection's thread per commit. aiosqlite's public methods take one statement each, so a store
on them alone hands off every statement, the group commit's ``BEGIN``, savepoints and ``COMMIT``
included, from the event loop. This bench runs the move path of ``bench_tables.py`` twice in
alternation, on the store as it is and on the same store with a database that uses only the
public API (``PublicApiDatabase`` below: the same scripts and group commit, statement by
statement), and prints each pair's figures and their ratio.

    python bench/bench_sqlite_handoffs.py [--pairs 5] [--tables 20] [--acts 20]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from bench.bench_tables import drive
from bot import gc_tuning
from bot.store import SqliteStore
from bot.store.records import Step
from bot.store.sql.script import Script, Statement, Want, run_async
from bot.store.sql.tables import write_steps
from bot.store.sqlite.commits import Failed
from bot.store.sqlite.driver import dialect
from bot.tables import Tables

T = TypeVar("T")


async def execute(conn: aiosqlite.Connection, statement: Statement) -> Any:
    sql, want = dialect(statement.sql), statement.want
    if want is Want.LOCK:
        return None
    if want is Want.MANY:
        await conn.executemany(sql, statement.params)
        return None
    if want is Want.COUNT:
        return (await conn.execute(sql, statement.params)).rowcount
    found = list(await conn.execute_fetchall(sql, statement.params))
    if want is Want.ROWS:
        return found
    first = found[0] if found else None
    return first if want is Want.ROW or first is None else first[0]


async def run(conn: aiosqlite.Connection, script: Script[T]) -> T:
    return await run_async(script, functools.partial(execute, conn))


class PublicApiDatabase:
    """The SQLite store's database on aiosqlite's public methods only: scripts and the group
    commit run on the event loop, one hand-off per statement."""

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self._writer, self._reader = writer, reader
        self._waiting: list[tuple[Script[Any], asyncio.Future[Any]]] = []
        self._draining = False
        self._task: asyncio.Future[None] | None = None
        self.commits = 0

    async def query(self, statement: Statement) -> Any:
        return await execute(self._reader, statement)

    async def read(self, script: Script[T]) -> T:
        return await run(self._reader, script)

    async def execute(self, statement: Statement) -> Any:
        return await self.write(_one(statement))

    async def write(self, script: Script[T]) -> T:
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append((script, done))
        if not self._draining:
            self._draining = True
            self._task = asyncio.ensure_future(self._drain())
        return await done

    async def change(self, table_id: int, expected_version: int, steps: Sequence[Step],
                     then: Script[T] | None) -> tuple[int, T | None]:
        assert then is None  # the bench's tables have no pace
        return await self.write(write_steps(table_id, expected_version, steps)), None

    async def _drain(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            results: list[Any] = []
            await self._writer.execute("BEGIN IMMEDIATE")
            for script, _ in batch:
                await self._writer.execute("SAVEPOINT move")
                try:
                    results.append(await run(self._writer, script))
                except Exception as exc:
                    await self._writer.execute("ROLLBACK TO move")
                    results.append(Failed(exc))
                await self._writer.execute("RELEASE move")
            await self._writer.execute("COMMIT")
            self.commits += 1
            for (_, done), result in zip(batch, results, strict=True):
                if isinstance(result, Failed):
                    done.set_exception(result.error)
                else:
                    done.set_result(result)
        self._draining = False


def _one(statement: Statement) -> Script[Any]:
    return (yield statement)


async def move_path(path: str, tables: int, acts: int, public: bool) -> tuple[float, float]:
    """(durable moves/s, CPU ms per move) of the bench's move path on one store."""
    store = await SqliteStore.open(path)
    extra: list[aiosqlite.Connection] = []
    if public:
        writer = await aiosqlite.connect(path, isolation_level=None)
        reader = await aiosqlite.connect(path, isolation_level=None)
        for conn in (writer, reader):
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA busy_timeout = 5000")
            await conn.execute("PRAGMA synchronous = FULL")
        extra = [writer, reader]
        store._db = PublicApiDatabase(writer, reader)
    gc_tuning.settle()
    use = Tables(store)
    latencies: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    moves = await asyncio.gather(*(drive(use, "palatinus", 3, 1000 + n, acts, latencies)
                                   for n in range(tables)))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    for conn in extra:
        await conn.close()
    await store.close()
    return sum(moves) / elapsed, cpu / sum(moves) * 1000


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--acts", type=int, default=20)
    args = parser.parse_args()
    for tables in (1, args.tables):
        ratios = []
        for n in range(args.pairs):
            with tempfile.TemporaryDirectory() as tmp:
                now = await move_path(f"{tmp}/a.db", tables, args.acts, public=False)
                only = await move_path(f"{tmp}/b.db", tables, args.acts, public=True)
            ratios.append((only[0] / now[0], only[1] / now[1]))
            print(f"{tables:>2} table(s), pair {n + 1}: store {now[0]:6.0f} moves/s "
                  f"{now[1]:.3f} ms CPU; public API only {only[0]:6.0f} moves/s "
                  f"{only[1]:.3f} ms CPU", flush=True)
        print(f"{tables:>2} table(s), median: public API only / store: moves/s "
              f"x{statistics.median(r[0] for r in ratios):.3f}, CPU per move "
              f"x{statistics.median(r[1] for r in ratios):.3f}")


if __name__ == "__main__":
    asyncio.run(main())
