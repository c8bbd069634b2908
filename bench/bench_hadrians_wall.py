"""Hadrian's Wall figures: random full games per second, the time of legal_actions + apply per
step, and the render time and PNG size of one player's sheets.

Run: python bench/bench_hadrians_wall.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rendering
from rendering.common import encode_png
from rules.core import Rng
from rules.hadrians_wall import GAME

GAMES_PER_COUNT = 6
RENDERS = 30


def random_game(players: int, seed: str, steps: list[float], busy: bool = False) -> object:
    """One random game; appends the time of each legal_actions + apply to ``steps``.

    Uniform players pass as soon as they draw "pass"; ``busy`` players pass only when nothing
    else is legal, so their games run much longer (closer to real play)."""
    state = GAME.setup(players, seed)
    rng = Rng(seed)
    while True:
        active = sorted(GAME.active_seats(state))
        if not active:
            return state
        seat = active[rng.randbelow(len(active))]
        t0 = time.perf_counter()
        legal = GAME.legal_actions(state, seat)
        if busy:
            legal = [a for a in legal if a["type"] not in ("pass", "defend")] or legal
        state = GAME.apply(state, seat, legal[rng.randbelow(len(legal))]).state
        steps.append(time.perf_counter() - t0)


def main() -> None:
    for busy in (False, True):
        steps: list[float] = []
        games = 0
        start = time.perf_counter()
        for players in range(1, 7):
            for i in range(GAMES_PER_COUNT):
                random_game(players, f"bench-{players}-{i}", steps, busy)
                games += 1
        elapsed = time.perf_counter() - start
        steps.sort()
        p99 = steps[min(len(steps) - 1, int(len(steps) * 0.99))]
        kind = "busy random" if busy else "uniform random"
        print(f"{kind} full games (1-6 players): {games / elapsed:.1f} games/s "
              f"({games} games, {len(steps)} steps, {elapsed:.1f} s)")
        print(f"  legal_actions + apply: median {statistics.median(steps) * 1e3:.3f} ms, "
              f"p99 {p99 * 1e3:.3f} ms")

    state = random_game(4, "bench-render", [], busy=True)
    view = GAME.view(state, 0)
    rendering.render("hadrians-wall", view)  # warm the cached printed layer
    times, sizes = [], []
    for _ in range(RENDERS):
        t0 = time.perf_counter()
        image = rendering.render("hadrians-wall", view)
        times.append(time.perf_counter() - t0)
        sizes.append(len(encode_png(image)))
    print(f"render one player's sheets: median {statistics.median(times) * 1e3:.1f} ms, "
          f"PNG {statistics.median(sizes) / 1024:.0f} KiB ({image.size[0]}x{image.size[1]})")
    public = GAME.view(state, None)
    t0 = time.perf_counter()
    png = rendering.render_png("hadrians-wall", public)
    print(f"render + encode the public summary: {(time.perf_counter() - t0) * 1e3:.1f} ms, "
          f"PNG {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
