"""Minerva figures: random full games per second, the cost of one step (legal_actions + apply)
and of one picture. Prints figures; asserts nothing.

    python bench/bench_minerva.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rendering import render_png
from rules.core import Action, Rng
from rules.minerva import GAME
from rules.minerva.state import MinervaState


def _builder(rng: Rng, legal: list[Action]) -> Action:
    """Mostly builds and activations, so games run long and reach every effect."""
    busy = [a for a in legal if a["type"] not in ("pass", "sell", "done")]
    if busy and rng.randbelow(12):
        return busy[rng.randbelow(len(busy))]
    return legal[rng.randbelow(len(legal))]


def play(players: int, seed: str, steps: list[float] | None = None) -> MinervaState:
    state: MinervaState = GAME.setup(players, seed)
    rng = Rng(seed + "-moves")
    while True:
        active = GAME.active_seats(state)
        if not active:
            return state
        seat = min(active)
        start = time.perf_counter()
        legal = GAME.legal_actions(state, seat)
        action = _builder(rng, legal)
        state = GAME.apply(state, seat, action).state
        if steps is not None:
            steps.append(time.perf_counter() - start)


def main() -> None:
    games = 0
    began = time.perf_counter()
    steps: list[float] = []
    while time.perf_counter() - began < 8 or games < 8:
        play(1 + games % 4, f"bench{games}", steps)
        games += 1
    elapsed = time.perf_counter() - began
    print(f"random full games (1-4 players, building-minded): {games / elapsed:.1f} games/s")
    steps.sort()
    p99 = steps[min(len(steps) - 1, int(len(steps) * 0.99))]
    print(
        f"legal_actions + apply over {len(steps)} steps: "
        f"median {statistics.median(steps) * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us"
    )

    times: list[float] = []
    sizes: list[int] = []
    for k in range(12):
        state = play(4, f"pic{k}") if k % 3 == 2 else GAME.setup(2 + k % 3, f"pic{k}")
        view = GAME.view(state, None)
        start = time.perf_counter()
        png = render_png("minerva", view)
        times.append(time.perf_counter() - start)
        sizes.append(len(png))
    print(
        f"render + PNG: median {statistics.median(times) * 1e3:.1f} ms, "
        f"median size {statistics.median(sizes) / 1024:.0f} KiB, max {max(sizes) / 1024:.0f} KiB"
    )


if __name__ == "__main__":
    main()
