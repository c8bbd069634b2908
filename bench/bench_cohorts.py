"""Do Hadrian's Wall computer players man the cohorts the Picts attack? Prints, per level and
side, how often a sheet facing arrows from that side had a shield there, and in how many games
a seat filled that side at all.

    python bench/bench_cohorts.py [--games 20] [--seats hard,easy] [--workers 2]
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import find_game
from rules.arena import seat_levels
from rules.core import derive_seed
from rules.hadrians_wall.components import COHORTS, FATE_CARDS
from rules.players import choose

GAME = "hadrians-wall"


def play(args: tuple[str, list[str]]) -> list[dict[str, Any]]:
    """Per seat: its level, the attacks it faced (arrows per side, its shields per side) and
    its cohorts at the end."""
    seed, levels = args
    game = find_game(GAME)
    state = game.setup(len(levels), seed)
    faced: list[list[tuple[list[int], list[int]]]] = [[] for _ in levels]
    seen: set[int] = set()
    for step in range(50_000):
        active = sorted(game.active_seats(state))
        if not active:
            break
        if state.phase == "attack" and state.year not in seen:
            seen.add(state.year)
            arrows = [sum(FATE_CARDS[c].attack == side for c in state.attack) for side in COHORTS]
            for seat, sheet in enumerate(state.sheets):
                faced[seat].append((arrows, [int(n) for n in sheet["cohorts"]]))
        seat = active[0]
        state = game.apply(state, seat, choose(game, state, seat, levels[seat],
                                               derive_seed("cohorts", seed, step))).state
    return [{"level": lv, "faced": faced[s], "end": [int(n) for n in state.sheets[s]["cohorts"]]}
            for s, lv in enumerate(levels)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", default="hard,easy")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    levels = args.seats.split(",")
    jobs = [(f"cohorts-{g}", seat_levels(levels, len(levels), g)) for g in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        seats = [s for game in pool.map(play, jobs) for s in game]
    print(f"{GAME}, {len(levels)} players, seats {args.seats}, {args.games} games")
    for level in sorted(set(levels)):
        mine = [s for s in seats if s["level"] == level]
        for i, side in enumerate(COHORTS):
            hit = [shields[i] > 0 for s in mine for arrows, shields in s["faced"] if arrows[i]]
            ever = sum(s["end"][i] > 0 for s in mine)
            share = f"{sum(hit) / len(hit):.0%}" if hit else "-"
            print(f"{level:6} {side:6}: attacked in {len(hit)} sheet-Years, a shield there in "
                  f"{share}; filled by the end in {ever} of {len(mine)} sheets")


if __name__ == "__main__":
    main()
