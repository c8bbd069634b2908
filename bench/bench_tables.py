"""The move path's figures, in one run so they can be compared:

- the physical reference: one aiosqlite commit per row, and 20 rows per commit, with the store's
  pragmas (WAL, synchronous=FULL);
- durable moves/s through the table use cases with 1 and with 20 tables, each table one member
  plus computer seats (every move committed before ``act`` returns), with ``act`` p50/p99 and
  the number of transactions (group commit puts several tables' moves in one);
- the memory a live table costs in the in-memory cache.

- with ``--paced``, the same with a daily pace: every change also plans the table's turns
  and deadlines (one more store transaction per commit).

    python bench/bench_tables.py [--tables 20] [--acts 40] [--game palatinus] [--players 3]
                                 [--paced]
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

import rules
from bot.pace.clock import SystemClock
from bot.pace.model import make_timing
from bot.pace.scheduler import Scheduler
from bot.store import SqliteStore
from bot.tables import Tables
from bot.values import Member
from rules.core import Rng


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def raw_commits(path: Path, rows: int, per_commit: int) -> float:
    """Rows/s inserting ``rows`` rows, ``per_commit`` to a transaction, through aiosqlite."""
    db = await aiosqlite.connect(str(path), isolation_level=None)
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


async def drive(tables: Tables, game_id: str, players: int, channel: int, acts: int,
                latencies: list[float], scheduler: Scheduler | None = None) -> int:
    member = Member(channel, f"P{channel}")
    opened = await tables.open(game_id, channel, member, seat_order="join")
    if scheduler is not None:
        await scheduler.set_timing(opened.table_id, make_timing("daily"), member)
    for _ in range(players - 1):
        await tables.add_computer(opened.table_id, member, "random")
    notice = await tables.start(opened.table_id, member)
    rng = Rng(f"bench{channel}")
    for _ in range(acts):
        if notice.over:
            break
        legal = await tables.legal_moves(notice.table_id, member)
        start = time.perf_counter()
        notice = await tables.act(notice.table_id, member, rng.choice(legal))
        latencies.append(time.perf_counter() - start)
    return len(await tables.store.actions(notice.table_id))


async def use_cases(folder: Path, args: argparse.Namespace, count: int) -> None:
    store = await SqliteStore.open(folder / f"bench{count}.db")
    tables = Tables(store)
    scheduler = Scheduler(tables, SystemClock()) if args.paced else None
    latencies: list[float] = []
    start = time.perf_counter()
    moves = await asyncio.gather(*(
        drive(tables, args.game, args.players, 1000 + n, args.acts, latencies, scheduler)
        for n in range(count)
    ))
    elapsed = time.perf_counter() - start
    commits = store.commits
    await store.close()
    total = sum(moves)
    ms = [v * 1000 for v in latencies]
    print(f"{count:>2} table(s): {total / elapsed:7.0f} durable moves/s ({total} moves, "
          f"{commits} move transactions, {total / max(commits, 1):.1f} moves each); "
          f"act p50 {statistics.median(ms):6.2f} ms, p99 {percentile(ms, 99):6.2f} ms")


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
    parser.add_argument("--paced", action="store_true", help="tables with a daily pace")
    args = parser.parse_args()
    print(f"game={args.game}, {args.players} seats (1 member + computers), "
          f"{args.acts} member moves per table")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        one = await raw_commits(folder / "raw1.db", args.rows, 1)
        twenty = await raw_commits(folder / "raw20.db", args.rows, 20)
        print(f"raw aiosqlite, WAL + FULL: {one:7.0f} rows/s one row per commit; "
              f"{twenty:7.0f} rows/s 20 rows per commit")
        await use_cases(folder, args, 1)
        await use_cases(folder, args, args.tables)
    await cache_cost(args.game, args.players, 50)
    print(f"(games registered: {', '.join(sorted(rules.GAMES))})")


if __name__ == "__main__":
    asyncio.run(main())
