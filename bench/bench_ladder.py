"""The computer players' ladder: each level against the next, per game, with 95% intervals.

    python bench/bench_ladder.py [--games 100] [--only GAME] [--pairs hard:easy,...]

Levels: random, easy, normal, hard, ``hard4`` (hard with four times its iterations) and
``previous`` (the previous release's hard, frozen in ``bench/previous_hard``). Pairs, by
default: easy:random, normal:easy, hard:normal, hard:easy, hard:previous, hard4:hard. Games
are 2-player (Palermo 3-player: the first level against two of the second), seats rotated, each
game from its own seed. "ahead" is the first level's share of (game, seat pair) comparisons it
won, ties counted half (the win rate with 2 players), with a 95% Wilson interval over games;
"distinct" counts games whose moves differ. CPU per decision is the deciding thread's CPU time
(p50/p95/max), per level. Targets: hard4 ahead of hard at most 60%, hard ahead of previous,
hard ahead of easy at least 70%, hard p95 at most 1 s of CPU. Prints one JSON line per pair and
a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.previous_hard import choose as previous_choose
from rules.arena import play_game
from rules.core import Action, Game, derive_seed
from rules.players import choose
from rules.players import decide as decide_level
from rules.players.registry import games_with_players

PAIRS = (("easy", "random"), ("normal", "easy"), ("hard", "normal"), ("hard", "easy"),
         ("hard", "previous"), ("hard4", "hard"))
Z = 1.96


def decide(game: Game, state: Any, seat: int, level: str, seed: str) -> Action:
    if level == "hard4":  # hard with four times its search budget
        return decide_level(game, state, seat, "hard", seed, effort=4).action
    if level == "previous":
        return previous_choose(game, state, seat, seed)
    return choose(game, state, seat, level, seed)


def play(game_id: str, levels: list[str], seed: str) -> dict[str, Any]:
    """One game of the ladder, its decision times in the deciding thread's CPU seconds."""
    return play_game(game_id, len(levels), levels, seed, chooser=decide, timer=time.thread_time,
                     tag="ladder")


def wilson(share: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (share + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(share * (1 - share) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def duel(game_id: str, first: str, second: str, games: int) -> dict[str, Any]:
    players = 3 if game_id == "palermo" else 2
    base = [first] + [second] * (players - 1)
    shares: list[float] = []
    margins: list[float] = []
    cpu: dict[str, list[float]] = {first: [], second: []}
    hashes: set[str] = set()
    rounds: list[int] = []
    began = time.perf_counter()
    for g in range(games):
        levels = base[g % players:] + base[:g % players]
        played = play(game_id, levels, derive_seed("ladder", game_id, first, second, g))
        hashes.add(played["moves"])
        if played["rounds"] is not None:
            rounds.append(played["rounds"])
        mine = levels.index(first)
        others = [s for s in range(players) if s != mine]
        won = [1.0 if played["scores"][mine] > played["scores"][s]
               else 0.5 if played["scores"][mine] == played["scores"][s] else 0.0
               for s in others]
        shares.append(statistics.fmean(won))
        margins.append(played["scores"][mine]
                       - statistics.fmean(played["scores"][s] for s in others))
        for seat, level in enumerate(levels):
            cpu[level].extend(played["times"][seat])
    ahead = statistics.fmean(shares)
    low, high = wilson(ahead, games)
    row: dict[str, Any] = {
        "game": game_id, "pair": f"{first} vs {second}", "players": players, "games": games,
        "distinct": len(hashes), "ahead": round(ahead, 3), "ci95": [round(low, 3), round(high, 3)],
        "mean_margin": round(statistics.fmean(margins), 2),
        "cpu": {lv: {"decisions": len(v), "p50": round(_pct(v, 0.5), 3),
                     "p95": round(_pct(v, 0.95), 3), "max": round(max(v or [0.0]), 3)}
                for lv, v in cpu.items()},
        "wall_seconds": round(time.perf_counter() - began)}
    if rounds:
        row["rounds"] = {"median": statistics.median(rounds), "worst": max(rounds)}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--only", choices=games_with_players(), action="append")
    parser.add_argument("--pairs", help="comma-separated first:second pairs")
    args = parser.parse_args()
    pairs = ([tuple(p.split(":")) for p in args.pairs.split(",")] if args.pairs else PAIRS)
    rows = []
    for game_id in args.only or games_with_players():
        for first, second in pairs:
            row = duel(game_id, first, second, args.games)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("| game | pair | games (distinct) | first ahead | 95% interval | mean margin |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['pair']} | {r['games']} ({r['distinct']}) | "
              f"{r['ahead']:.0%} | {r['ci95'][0]:.0%}-{r['ci95'][1]:.0%} | "
              f"{r['mean_margin']:+.1f} |")


if __name__ == "__main__":
    main()
