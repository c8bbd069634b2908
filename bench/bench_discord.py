"""Latency through the local Discord stand-in: the real bot, 20 tables playing at once.

    python bench/bench_discord.py [--tables 20] [--moves 6] [--game palatinus]

Prints interaction-to-first-reply and interaction-to-board-posted latency (p50/p95/p99) for
``/move confirm:true``, and the event loop's longest stall while the tables play. The stand-in,
the bot and the members all share one process and loop, so stalls are the bot's and theirs.
DMs go out after each board, so the bot's work under way is waited for before it is closed;
then the DMs delivered and the errors logged are counted (both runs should log none).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import finish_in_flight
from rules.core import Rng
from tests.e2e.harness import Table, custom_id, mentioned_ids, running_bot
from tests.standin import StandIn


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def watch_loop(stop: asyncio.Event, stalls: list[float]) -> None:
    """Sleep 5 ms at a time; how late each wake-up is, is how long the loop was stalled."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.005)
        stalls.append(time.perf_counter() - start - 0.005)


async def play_table(t: Table, game: str, moves: int, first: list[float], posted: list[float],
                     seed: int, suggest: list[float], level: str) -> None:
    s = t.standin
    alice, bob = t.members["alice"], t.members["bob"]
    r = await s.slash(alice, t.channel, "game new", {"game": game, "seating": "join"})
    lobby = (await t.reply(r, 1)).message
    assert lobby is not None
    await (await s.click(bob, lobby, custom_id(lobby, "tabula:lobby:join"))).wait_callback(30)
    await (await s.slash(alice, t.channel, "game add-bot", {"level": level})).wait_reply(30)
    lobby = s.channel_messages(t.channel)[0]
    await (await s.click(alice, lobby, custom_id(lobby, "tabula:lobby:start"))).wait_callback(30)
    board = await t.next_board(0)
    rng = Rng(f"bench{seed}")
    by_id = {m.id: m for m in t.members.values()}
    for _ in range(moves):
        if "Game over" in board.content:
            break
        member = by_id[mentioned_ids(board)[0]]
        asked = time.perf_counter()
        choices = await s.autocomplete(member, t.channel, "move", {"action": ""},
                                       focused="action", timeout=30)
        suggest.append(time.perf_counter() - asked)
        before = len(t.boards())
        start = time.perf_counter()
        r = await s.slash(member, t.channel, "move",
                          {"action": choices[rng.randbelow(len(choices))].value, "confirm": True})
        await r.wait_callback(30)
        first.append(time.perf_counter() - start)
        await s.wait_until(lambda b=before: len(t.boards()) > b, 60, "board")
        posted.append(time.perf_counter() - start)
        board = t.boards()[before]


class Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.errors = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.errors += 1


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=6, help="human moves per table")
    parser.add_argument("--game", default="palatinus")
    parser.add_argument("--workers", type=int, default=2, help="render processes (0: thread)")
    parser.add_argument("--level", default="random",
                        help="the computer seat's level (random measures the move path alone)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    errors = Count()
    logging.getLogger().addHandler(errors)
    async with StandIn(rest_rate_limit=10_000) as standin:
        guild = standin.add_guild("Bench")
        tables = []
        with tempfile.TemporaryDirectory() as tmp:
            async with running_bot(standin, Path(tmp) / "bench.db", args.workers) as bot:
                for n in range(args.tables):
                    channel = standin.add_channel(guild, f"t{n}")
                    members = {name: standin.add_member(guild, f"{name}{n}")
                               for name in ("alice", "bob")}
                    tables.append(Table(standin, bot, guild, channel, members))
                first: list[float] = []
                posted: list[float] = []
                stalls: list[float] = []
                suggest: list[float] = []
                stop = asyncio.Event()
                watcher = asyncio.create_task(watch_loop(stop, stalls))
                start = time.perf_counter()
                await asyncio.gather(*(
                    play_table(t, args.game, args.moves, first, posted, i, suggest, args.level)
                    for i, t in enumerate(tables)
                ))
                elapsed = time.perf_counter() - start
                stop.set()
                await watcher
                # The last DMs follow the last boards: let them finish before closing.
                quiet = time.perf_counter()
                bot.stop_scheduling()  # the deadline loop would otherwise never finish
                await finish_in_flight(bot, 60)
                drained = time.perf_counter() - quiet
            dms = sum(len(standin.dms(m)) for t in tables for m in t.members.values())
        print(f"game={args.game} tables={args.tables} moves={len(first)} "
              f"elapsed={elapsed:.1f}s render_workers={args.workers}")
        for label, values in (("autocomplete", suggest), ("first reply", first),
                              ("board posted", posted)):
            ms = [v * 1000 for v in values]
            print(f"{label:>13} ms: p50={statistics.median(ms):.0f} p95={pct(ms, 95):.0f} "
                  f"p99={pct(ms, 99):.0f} max={max(ms):.0f}")
        print(f"event loop longest stall: {max(stalls) * 1000:.0f} ms "
              f"(p99 {pct(stalls, 99) * 1000:.1f} ms)")
        print(f"DMs delivered: {dms} (waited {drained * 1000:.0f} ms for the last after play)")
        print(f"stand-in violations: {len(standin.violations)}; errors logged: {errors.errors}")


if __name__ == "__main__":
    asyncio.run(main())
