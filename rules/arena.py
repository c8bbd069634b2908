"""The arena: computer players against each other, with figures per level.

    python -m rules arena GAME --players N --games K --seats hard,random,... [--seed S] [--json]

Game ``g`` seats level ``seats[(s + g) % len(seats)]`` at seat ``s``, so every level takes every
seat in turn. Each decision gets its own seed from the arena seed, the game and the step, so a
run repeats exactly. Games are played in up to two worker processes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

from rules import GAMES, find_game
from rules.core import Action, Game, RulesError, derive_seed
from rules.players import LEVELS, choose, parse_level
from rules.players.registry import heuristic_for

MAX_DECISIONS = 50_000


def seat_levels(levels: Sequence[str], players: int, index: int) -> list[str]:
    return [levels[(s + index) % len(levels)] for s in range(players)]


Chooser = Callable[[Game, Any, int, str, str], Action]


def play_game(game_id: str, players: int, levels: Sequence[str], seed: str, *,
              chooser: Chooser = choose, timer: Callable[[], float] = time.perf_counter,
              tag: str = "arena") -> dict[str, Any]:
    """One game; levels[s] plays seat s (as ``chooser`` plays that level). Returns scores,
    ranking, decision times (by ``timer``: wall clock, or a thread's CPU time), rounds."""
    game = find_game(game_id)
    state = game.setup(players, seed)
    times: list[list[float]] = [[] for _ in range(players)]
    moves = hashlib.sha256()  # the game's moves, to count distinct games
    for step in range(MAX_DECISIONS):
        active = game.active_seats(state)
        if not active:
            break
        seat = min(active)
        began = timer()
        action = chooser(game, state, seat, levels[seat], derive_seed(tag, seed, step))
        times[seat].append(timer() - began)
        moves.update(json.dumps([seat, action], sort_keys=True).encode())
        state = game.apply(state, seat, action).state
    outcome = game.outcome(state)
    if outcome is None:
        raise RuntimeError(f"{game_id} game {seed!r} did not end in {MAX_DECISIONS} decisions")
    return {"levels": list(levels), "scores": list(outcome.scores),
            "ranking": [list(g) for g in outcome.ranking], "times": times,
            "rounds": heuristic_for(game_id).rounds(state), "moves": moves.hexdigest()}


def _play(args: tuple[str, int, list[str], str]) -> dict[str, Any]:
    return play_game(*args)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    levels = sorted({lv for r in results for lv in r["levels"]})
    per: dict[str, dict[str, Any]] = {}
    for level in levels:
        scores, wins, times = [], 0.0, []
        for r in results:
            winners = r["ranking"][0] if r["ranking"] else []
            for seat, lv in enumerate(r["levels"]):
                if lv != level:
                    continue
                scores.append(r["scores"][seat])
                wins += (1 / len(winners)) if seat in winners else 0.0
                times.extend(r["times"][seat])
        per[level] = {"seats": len(scores), "mean_score": statistics.fmean(scores),
                      "win_rate": wins / len(scores), "mean_time": statistics.fmean(times or [0]),
                      "p95_time": _p95(times), "max_time": max(times or [0])}
    beats: dict[str, float] = {}
    for a in levels:
        for b in levels:
            if a == b:
                continue
            won = pairs = 0.0
            for r in results:
                for sa, la in enumerate(r["levels"]):
                    for sb, lb in enumerate(r["levels"]):
                        if la == a and lb == b:
                            pairs += 1
                            diff = r["scores"][sa] - r["scores"][sb]
                            won += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            if pairs:
                beats[f"{a}>{b}"] = won / pairs
    out: dict[str, Any] = {"games": len(results), "distinct": len({r["moves"] for r in results}),
                           "levels": per, "beats": beats}
    rounds = [r["rounds"] for r in results if r["rounds"] is not None]
    if rounds:
        out["rounds"] = {"median": statistics.median(rounds), "worst": max(rounds)}
    return out


def run_arena(game_id: str, players: int, games: int, seats: Sequence[str], seed: str = "arena",
              workers: int = 2) -> dict[str, Any]:
    game = find_game(game_id)
    levels = [parse_level(s) for s in seats]
    if not levels:
        raise RulesError("Name at least one level in --seats.")
    if not game.min_players <= players <= game.max_players:
        raise RulesError(f"{game.title} takes {game.min_players}-{game.max_players} players.")
    heuristic_for(game_id)
    jobs = [(game_id, players, seat_levels(levels, players, g), derive_seed(seed, g))
            for g in range(games)]
    if workers > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_play, jobs))
    else:
        results = [_play(j) for j in jobs]
    summary = summarize(results)
    summary.update({"game": game_id, "players": players, "seats": levels, "seed": seed})
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    lines = [f"{summary['game']}, {summary['players']} players, {summary['games']} games "
             f"({summary['distinct']} distinct), "
             f"seats {','.join(summary['seats'])}, seed {summary['seed']!r}",
             f"{'level':8} {'seats':>6} {'mean score':>11} {'win rate':>9} "
             f"{'mean time':>10} {'p95 time':>9} {'max time':>9}"]
    for level, f in summary["levels"].items():
        lines.append(f"{level:8} {f['seats']:>6} {f['mean_score']:>11.1f} {f['win_rate']:>9.1%} "
                     f"{f['mean_time']:>9.3f}s {f['p95_time']:>8.3f}s {f['max_time']:>8.3f}s")
    for pair, rate in summary["beats"].items():
        lines.append(f"{pair.replace('>', ' beats ')}: {rate:.1%} of pairings")
    if "rounds" in summary:
        r = summary["rounds"]
        lines.append(f"rounds: median {r['median']}, worst {r['worst']}")
    return "\n".join(lines)


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    games = ", ".join(sorted(GAMES))
    parser.description = ("Computer players against each other: every level takes every seat "
                          "in turn, and the figures per level are printed.")
    parser.epilog = f"Games: {games}. Levels: {', '.join(LEVELS)}."
    parser.add_argument("game", help=f"the game to play: one of {games}")
    parser.add_argument("--players", type=int, required=True,
                        help="players at each table (within the game's range)")
    parser.add_argument("--games", type=int, required=True, help="how many games to play")
    parser.add_argument("--seats", required=True,
                        help="levels, comma separated (e.g. hard,random); game g seats level "
                        "(s + g) mod the count at seat s, so each level plays every seat")
    parser.add_argument("--seed", default="arena",
                        help="the arena seed (default arena): the same seed repeats a run")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes playing games side by side (default 2)")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as JSON instead of a table")


def run_arena_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        summary = run_arena(args.game, args.players, args.games,
                            [s for s in args.seats.split(",") if s.strip()],
                            args.seed, args.workers)
    except RulesError as exc:
        print(f"error: {exc}", file=stderr)
        return 2
    if args.json:
        json.dump(summary, stdout, indent=1)
        stdout.write("\n")
    else:
        print(format_summary(summary), file=stdout)
    return 0
