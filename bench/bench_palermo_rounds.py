"""How long Palermo games among computer players last, in rounds.

    python bench/bench_palermo_rounds.py SETTING [--games 300] [--cap 120] [--workers 1]

SETTING is ``easy5`` (five easy players), ``normal5`` (five normal players) or ``mixed`` (3, 4
and 5 players in turn, each seat's level drawn from easy, normal and hard by the game's seed).
A game still going at ``--cap`` rounds is stopped and counted as past the cap. Prints the
distribution of rounds, how many games passed rounds 30 and 60, the longest games' seeds (to
replay them with ``rules.arena.play_game``), the players' final scores there, and the time per
game. Asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import find_game
from rules.core import Rng, derive_seed
from rules.palermo.heuristic import rounds
from rules.players import choose

SETTINGS = ("easy5", "normal5", "mixed")
MIXED_LEVELS = ("easy", "normal", "hard")


def seats_of(setting: str, index: int) -> list[str]:
    if setting == "easy5":
        return ["easy"] * 5
    if setting == "normal5":
        return ["normal"] * 5
    players = 3 + index % 3
    pick = Rng(derive_seed("mixed seats", index))
    return [pick.choice(list(MIXED_LEVELS)) for _ in range(players)]


def play(setting: str, index: int, cap: int) -> dict[str, Any]:
    """One game, stopped once it passes ``cap`` rounds."""
    game = find_game("palermo")
    levels = seats_of(setting, index)
    seed = derive_seed("palermo rounds", setting, index)
    state = game.setup(len(levels), seed)
    began = time.process_time()
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    for step in range(100_000):
        active = game.active_seats(state)
        if not active or rounds(state) > cap:
            break
        seat = min(active)
        start = time.thread_time()
        action = choose(game, state, seat, levels[seat], derive_seed("arena", seed, step))
        cpu[levels[seat]].append(time.thread_time() - start)
        state = game.apply(state, seat, action).state
    outcome = game.outcome(state)
    return {"index": index, "seed": seed, "levels": levels, "rounds": rounds(state),
            "ended": outcome is not None,
            "scores": [state.score(s) for s in range(len(levels))],
            "cpu": time.process_time() - began, "decisions": cpu}


def _play(args: tuple[str, int, int]) -> dict[str, Any]:
    return play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("setting", choices=SETTINGS)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--cap", type=int, default=120)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.setting, i, args.cap) for i in range(args.first, args.first + args.games)]
    began = time.perf_counter()
    results: list[dict[str, Any]] = []
    if args.workers > 1:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(_play, jobs))
    else:
        for job in jobs:
            results.append(_play(job))
            if len(results) % 25 == 0:
                print(f"... {len(results)} games", flush=True)
    lengths = [r["rounds"] for r in results]
    buckets = collections.Counter(min(n // 5 * 5, 60) for n in lengths)
    print(f"Palermo {args.setting}: {len(results)} games, cap {args.cap} rounds, "
          f"{time.perf_counter() - began:.0f} s wall, "
          f"{statistics.fmean(r['cpu'] for r in results):.1f} s CPU a game")
    print(f"rounds: median {statistics.median(lengths)}, worst {max(lengths)}, "
          f"past 30: {sum(n > 30 for n in lengths)}, past 60: {sum(n > 60 for n in lengths)}, "
          f"stopped at the cap: {sum(not r['ended'] for r in results)}")
    for level in sorted({lv for r in results for lv in r["decisions"]}):
        times = sorted(t for r in results for t in r["decisions"].get(level, []))
        if times:
            print(f"CPU per decision, {level}: p50 {times[len(times) // 2]:.3f} s, "
                  f"p95 {times[int(0.95 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s "
                  f"({len(times)} decisions)")
    for low in sorted(buckets):
        label = f"{low}-{low + 4}" if low < 60 else "60+"
        print(f"  {label:>6}: {buckets[low]:4d} {'#' * min(60, buckets[low])}")
    for r in sorted(results, key=lambda r: -r["rounds"])[:5]:
        print(json.dumps({k: r[k] for k in ("index", "seed", "levels", "rounds", "scores")}))


if __name__ == "__main__":
    main()
