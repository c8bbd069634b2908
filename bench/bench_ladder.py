"""The computer players' ladder: each level against the next, per game, with 95% intervals.

    python bench/bench_ladder.py [--games 100] [--only GAME] [--pairs hard:easy,...]
                                 [--workers N] [--results FILE] [--check K] [--report]

Levels: random, easy, normal, hard, ``hard4`` (hard with four times its iterations) and
``previous`` (the previous release's hard, frozen in ``bench/previous_hard``). Pairs, by
default: easy:random, normal:easy, hard:normal, hard:easy, hard:previous, hard4:hard. Games
are 2-player (Palermo 3-player: the first level against two of the second), seats rotated, each
game from its own seed. "ahead" is the first level's share of (game, seat pair) comparisons it
won, ties counted half (the win rate with 2 players), with a 95% Wilson interval over games;
"distinct" counts games whose moves differ. CPU per decision is the deciding thread's CPU time
(p50/p95/max), per level. Targets: hard4 ahead of hard at most 60%, hard ahead of previous,
hard ahead of easy at least 70%, hard p95 at most 1 s of CPU.

A full ladder is hours of CPU, so every game played is appended to ``--results`` (one JSON line)
and a later run plays only the games missing: stop it at any time and run it again to go on.
Games are played by ``--workers`` processes. The file holds games of the players as they were
when it was written: delete it when a player changes, and ``--check K`` replays K recorded games
(spread over every game and pair) and says whether each still makes the same moves;
``--report`` only summarizes the games recorded so far. Prints one
JSON line per pair and a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
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
RESULTS = Path(__file__).resolve().parent / "results" / "ladder.jsonl"

Task = tuple[str, str, str, int]  # game, first level, second level, game number


def decide(game: Game, state: Any, seat: int, level: str, seed: str) -> Action:
    if level == "hard4":  # hard with four times its search budget
        return decide_level(game, state, seat, "hard", seed, effort=4).action
    if level == "previous":
        return previous_choose(game, state, seat, seed)
    return choose(game, state, seat, level, seed)


def seats(task: Task) -> list[str]:
    """The levels by seat in game ``n`` of a pair: the first level's seat rotates."""
    game_id, first, second, n = task
    players = 3 if game_id == "palermo" else 2
    base = [first] + [second] * (players - 1)
    return base[n % players:] + base[:n % players]


def play(task: Task) -> dict[str, Any]:
    """One game of the ladder, its decision times in the deciding thread's CPU seconds."""
    game_id, first, second, n = task
    levels = seats(task)
    played = play_game(game_id, len(levels), levels,
                       derive_seed("ladder", game_id, first, second, n), chooser=decide,
                       timer=time.thread_time, tag="ladder")
    cpu: dict[str, list[float]] = {first: [], second: []}
    for seat, level in enumerate(levels):
        cpu[level].extend(round(t, 4) for t in played["times"][seat])
    return {"game": game_id, "first": first, "second": second, "n": n, "levels": levels,
            "scores": played["scores"], "rounds": played["rounds"],
            "moves": played["moves"], "cpu": cpu}


def wilson(share: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (share + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(share * (1 - share) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def load(path: Path) -> dict[Task, dict[str, Any]]:
    """The games recorded so far, by task (a line cut short by a stop is skipped)."""
    out: dict[Task, dict[str, Any]] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[(r["game"], r["first"], r["second"], r["n"])] = r
    return out


def summary(game_id: str, first: str, second: str,
            records: list[dict[str, Any]]) -> dict[str, Any]:
    shares: list[float] = []
    margins: list[float] = []
    cpu: dict[str, list[float]] = {first: [], second: []}
    rounds = [r["rounds"] for r in records if r["rounds"] is not None]
    for r in records:
        scores = r["scores"]
        mine = r["levels"].index(first)
        others = [s for s in range(len(scores)) if s != mine]
        shares.append(statistics.fmean(
            1.0 if scores[mine] > scores[s] else 0.5 if scores[mine] == scores[s] else 0.0
            for s in others))
        margins.append(scores[mine] - statistics.fmean(scores[s] for s in others))
        for level in (first, second):
            cpu[level].extend(r["cpu"][level])
    games = len(records)
    ahead = statistics.fmean(shares) if shares else 0.0
    low, high = wilson(ahead, games)
    row: dict[str, Any] = {
        "game": game_id, "pair": f"{first} vs {second}", "games": games,
        "distinct": len({r["moves"] for r in records}), "ahead": round(ahead, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "mean_margin": round(statistics.fmean(margins), 2) if margins else 0.0,
        "cpu": {lv: {"decisions": len(v), "p50": round(_pct(v, 0.5), 3),
                     "p95": round(_pct(v, 0.95), 3), "max": round(max(v or [0.0]), 3)}
                for lv, v in cpu.items()}}
    if rounds:
        row["rounds"] = {"median": statistics.median(rounds), "worst": max(rounds)}
    return row


def run(tasks: list[Task], workers: int, path: Path) -> None:
    """Play ``tasks``, appending each game to ``path`` as it ends, in whatever order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    cut = False
    if path.exists() and path.stat().st_size:
        with path.open("rb") as tail:
            tail.seek(-1, 2)
            cut = tail.read(1) != b"\n"
    with path.open("a") as out, ProcessPoolExecutor(workers) as pool:
        if cut:  # a stop in mid-line: end that line, so it spoils no other
            out.write("\n")
        for record in pool.map(play, tasks, chunksize=1):
            out.write(json.dumps(record) + "\n")
            out.flush()


def check(recorded: dict[Task, dict[str, Any]], k: int, workers: int) -> bool:
    """Replay ``k`` recorded games, spread over every (game, pair), and compare their moves."""
    by_pair: dict[tuple[str, str, str], list[Task]] = {}
    for task in sorted(recorded):
        by_pair.setdefault(task[:3], []).append(task)
    picked: list[Task] = []
    while len(picked) < k and any(by_pair.values()):
        for tasks in by_pair.values():
            if tasks and len(picked) < k:
                picked.append(tasks.pop(0))
    same = True
    with ProcessPoolExecutor(workers) as pool:
        for task, again in zip(picked, pool.map(play, picked, chunksize=1), strict=True):
            ok = again["moves"] == recorded[task]["moves"]
            same &= ok
            print(json.dumps({"task": list(task), "same_moves": ok}), flush=True)
    print(f"{'all' if same else 'NOT all'} of {len(picked)} replayed games made the same moves")
    return same


def table(rows: Iterable[dict[str, Any]]) -> None:
    print("| game | pair | games (distinct) | first ahead | 95% interval | mean margin "
          "| CPU p50 / p95 / max of the first |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        c = r["cpu"][r["pair"].split(" vs ")[0]]
        print(f"| {r['game']} | {r['pair']} | {r['games']} ({r['distinct']}) | "
              f"{r['ahead']:.0%} | {r['ci95'][0]:.0%}–{r['ci95'][1]:.0%} | "
              f"{r['mean_margin']:+.1f} | {c['p50']:.2f} / {c['p95']:.2f} / {c['max']:.2f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--only", choices=games_with_players(), action="append")
    parser.add_argument("--pairs", help="comma-separated first:second pairs")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--check", type=int, metavar="K", help="replay K recorded games")
    parser.add_argument("--report", action="store_true",
                        help="only summarize the games recorded so far")
    args = parser.parse_args()
    if args.check:
        sys.exit(0 if check(load(args.results), args.check, args.workers) else 1)
    pairs = ([tuple(p.split(":")) for p in args.pairs.split(",")] if args.pairs else PAIRS)
    game_ids = args.only or games_with_players()
    wanted = [(g, a, b, n) for a, b in pairs for g in game_ids for n in range(args.games)]
    done = load(args.results)
    if not args.report:
        run([t for t in wanted if t not in done], args.workers, args.results)
        done = load(args.results)
    rows = []
    for game_id in game_ids:
        for first, second in pairs:
            records = [done[(game_id, first, second, n)] for n in range(args.games)
                       if (game_id, first, second, n) in done]
            rows.append(summary(game_id, first, second, records))
            print(json.dumps(rows[-1]), flush=True)
    table(rows)


if __name__ == "__main__":
    main()
