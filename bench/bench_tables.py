"""Drive N tables through bot.tables with random moves; print moves/s and act latency.

    python bench/bench_tables.py [--tables 20] [--moves 2000] [--game pebbles]

Every act includes its store commit (WAL, synchronous=FULL, BEGIN IMMEDIATE).
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
from bot.store import SqliteStore
from bot.tables import Member, Tables
from rules.core import Rng
from tests.pebbles import GAME as PEBBLES


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def drive(tables: Tables, game_id: str, channel: int, budget: int,
                latencies: list[float]) -> int:
    game = rules.GAMES[game_id]
    members = [Member(channel * 10 + i, f"P{i}") for i in range(game.min_players)]
    opts = {"turns": 1_000_000} if game_id == "pebbles" else None
    await tables.open(game_id, channel, members[0], options=opts, seat_order="join")
    for m in members[1:]:
        await tables.join(channel, m)
    notice = await tables.start(channel, members[0])
    rng = Rng(f"bench{channel}")
    moves = 0
    by_id = {m.id: m for m in members}
    while moves < budget and not notice.over:
        mover = by_id[notice.next_members[0]]
        legal = await tables.legal_moves(notice.table_id, mover)
        start = time.perf_counter()
        notice = await tables.act(notice.table_id, mover, rng.choice(legal))
        latencies.append(time.perf_counter() - start)
        moves += 1
    return moves


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=2000, help="moves in all")
    parser.add_argument("--game", default="pebbles")
    args = parser.parse_args()
    rules.GAMES.setdefault(PEBBLES.id, PEBBLES)
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "bench.db")
        tables = Tables(store)
        latencies: list[float] = []
        per_table = max(1, args.moves // args.tables)
        start = time.perf_counter()
        done = await asyncio.gather(*(
            drive(tables, args.game, 1000 + n, per_table, latencies) for n in range(args.tables)
        ))
        elapsed = time.perf_counter() - start
        await store.close()
    total = sum(done)
    ms = [v * 1000 for v in latencies]
    print(f"game={args.game} tables={args.tables} moves={total} elapsed={elapsed:.2f}s")
    print(f"moves/s: {total / elapsed:.0f}")
    print(f"act latency ms: p50={statistics.median(ms):.2f} p99={percentile(ms, 99):.2f} "
          f"max={max(ms):.2f}")


if __name__ == "__main__":
    asyncio.run(main())
