"""Does acting first in Hadrian's Wall's simultaneous phases pay? Prints the seat effect.

    python bench/bench_seat_effect.py [--games 60] [--level easy] [--players 2] [--workers 2]

Each game is played twice from the same seed by two computer players of one level: once with
seat 0 always acting first whenever both may act, once with seat 1 first. For each order it
prints the mean of (seat 0's score - seat 1's score) with its 95% confidence interval; with no
advantage in acting first, both intervals include 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import find_game
from rules.core import derive_seed
from rules.players import choose

GAME = "hadrians-wall"


def play(args: tuple[str, int, str, int]) -> tuple[float, list[int]]:
    seed, players, level, first = args
    game = find_game(GAME)
    state = game.setup(players, seed)
    for step in range(50_000):
        active = sorted(game.active_seats(state))
        if not active:
            break
        seat = active[0] if first == 0 else active[-1]
        action = choose(game, state, seat, level, derive_seed("seat-effect", seed, step))
        state = game.apply(state, seat, action).state
    outcome = game.outcome(state)
    assert outcome is not None
    scores = [int(s) for s in outcome.scores]
    return float(scores[0] - scores[1]), scores


def interval(diffs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{GAME}, {args.players} players, {args.level} against {args.level}, "
          f"{args.games} games per order")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for first in (0, 1):
            jobs = [(f"seat-effect-{g}", args.players, args.level, first)
                    for g in range(args.games)]
            results = list(pool.map(play, jobs))
            diffs = [d for d, _ in results]
            mean, low, high = interval(diffs)
            wins = sum(1 for d in diffs if d > 0)
            scores = statistics.fmean(s for _, ss in results for s in ss)
            print(f"seat {first} acts first: seat 0 - seat 1 = {mean:+.2f} "
                  f"(95% CI {low:+.2f} .. {high:+.2f}); seat 0 ahead in {wins} of "
                  f"{len(diffs)}; mean score {scores:.1f}")


if __name__ == "__main__":
    main()
