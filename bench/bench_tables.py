"""Drive N tables through bot.tables, each with one member and computer seats; print moves per
second and the latency of ``act`` (store commits of the member's move and of the computer moves
it sets off included).

    python bench/bench_tables.py [--tables 20] [--acts 30] [--game palatinus] [--players 3]
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
        await tables.add_computer((await tables.table_in(channel)).id, member)
    notice = await tables.start((await tables.table_in(channel)).id, member)
    rng = Rng(f"bench{channel}")
    for _ in range(acts):
        if notice.over:
            break
        legal = await tables.legal_moves(notice.table_id, member)
        start = time.perf_counter()
        notice = await tables.act(notice.table_id, member, rng.choice(legal))
        latencies.append(time.perf_counter() - start)
    return len(await tables.store.actions(notice.table_id))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--acts", type=int, default=30, help="member moves per table")
    parser.add_argument("--game", default="palatinus")
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    rules.GAMES.setdefault(PEBBLES.id, PEBBLES)
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "bench.db")
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
    print(f"game={args.game} players={args.players} (1 member + computers) "
          f"tables={args.tables} moves={total} ({len(ms)} by members) elapsed={elapsed:.2f}s")
    print(f"moves/s (all seats, each committed): {total / elapsed:.0f}")
    print(f"act latency ms: p50={statistics.median(ms):.2f} p99={percentile(ms, 99):.2f} "
          f"max={max(ms):.2f}")


if __name__ == "__main__":
    asyncio.run(main())
