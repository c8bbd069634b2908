"""Strength and speed of the computer players, per game, through the arena.

    python bench/bench_players.py [--games 200] [--solo-games 200] [--only GAME] [--workers 2]

Per game, at 2 players (Palermo at 3, the fewest it takes), seats rotated:
  easy vs random   (Palermo: easy, random, random)   target: easy ahead in >= 80% of games
  hard vs easy     (Palermo: hard, easy, easy)       target: hard ahead in >= 60%, p95 <= 2 s
"Ahead" is the pairwise share: in how many (game, seat pair) the first level scored more, ties
counted half; with 2 players it is the win rate. Solo (Hadrian's Wall, Minerva at 1 player): the
mean score of every level. Palermo also prints the median and worst number of rounds.
Budgets are iterations, so the strength figures do not depend on the machine; the times do.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.arena import run_arena
from rules.players import LEVELS
from rules.players.registry import games_with_players

SOLO = ("hadrians-wall", "minerva")


def _duel(game: str, first: str, second: str, games: int, workers: int) -> dict[str, Any]:
    players = 3 if game == "palermo" else 2
    seats = [first] + [second] * (players - 1)
    began = time.perf_counter()
    s = run_arena(game, players, games, seats, seed=f"bench-{first}-{second}", workers=workers)
    row = {"game": game, "duel": f"{first} vs {second}", "games": games,
           "distinct": s["distinct"],
           "ahead": s["beats"][f"{first}>{second}"],
           "win_rate": s["levels"][first]["win_rate"],
           "mean_scores": {lv: round(s["levels"][lv]["mean_score"], 2) for lv in (first, second)},
           "p95_time": s["levels"][first]["p95_time"],
           "max_time": s["levels"][first]["max_time"],
           "wall_seconds": round(time.perf_counter() - began, 1)}
    if "rounds" in s:
        row["rounds"] = s["rounds"]
    return row


def _solo(game: str, games: int, workers: int) -> dict[str, Any]:
    means = {}
    for level in LEVELS:
        s = run_arena(game, 1, games, [level], seed=f"bench-solo-{level}", workers=workers)
        means[level] = round(s["levels"][level]["mean_score"], 2)
    return {"game": game, "solo": means, "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--solo-games", type=int, default=200)
    parser.add_argument("--only", choices=games_with_players())
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-solo", action="store_true")
    args = parser.parse_args()
    for game in [args.only] if args.only else games_with_players():
        for first, second in (("easy", "random"), ("hard", "easy")):
            print(json.dumps(_duel(game, first, second, args.games, args.workers)), flush=True)
        if game in SOLO and not args.skip_solo:
            print(json.dumps(_solo(game, args.solo_games, args.workers)), flush=True)


if __name__ == "__main__":
    main()
