"""Palatinus benchmark: random games per second, the cost of a move, the cost of an image.

Run: ``python bench/bench_palatinus.py``. Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rendering import render, render_png
from rendering.common import encode_png
from rules.core import Rng
from rules.palatinus import GAME
from rules.palatinus.state import PalatinusState


def random_game(players: int, seed: str, step_times: list[float] | None = None) -> PalatinusState:
    state = GAME.setup(players, seed)
    rng = Rng(seed + "-moves")
    while GAME.active_seats(state):
        seat = state.turn
        start = time.perf_counter()
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, legal[rng.randbelow(len(legal))]).state
        if step_times is not None:
            step_times.append(time.perf_counter() - start)
    return state


def games_per_second(players: int, seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_game(players, f"g{count}")
        count += 1
    return count / (time.perf_counter() - start)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    for players in (2, 3, 4, 5):
        print(f"random full games, {players} players: {games_per_second(players, 2.0):8.1f} /s")

    steps: list[float] = []
    for n in range(60):
        random_game(2 + n % 4, f"steps{n}", steps)
    print(
        f"legal_actions + apply: median {statistics.median(steps) * 1e6:7.1f} us, "
        f"p99 {percentile(steps, 0.99) * 1e6:7.1f} us over {len(steps)} moves"
    )

    rng = Rng("bench-render")
    state = GAME.setup(3, "render")
    while GAME.active_seats(state) and len(state.pieces) < 18:
        legal = GAME.legal_actions(state, state.turn)
        state = GAME.apply(state, state.turn, legal[rng.randbelow(len(legal))]).state
    finished = random_game(3, "render-end")
    for label, view in (
        ("board, mid-game public", GAME.view(state, None)),
        ("board, mid-game private", GAME.view(state, 0)),
        ("final scoring", GAME.view(finished, None)),
    ):
        render("palatinus", view)  # warm the static-layer cache as a live table would
        draws: list[float] = []
        encodes: list[float] = []
        for _ in range(15):
            start = time.perf_counter()
            image = render("palatinus", view)
            middle = time.perf_counter()
            encode_png(image)
            draws.append(middle - start)
            encodes.append(time.perf_counter() - middle)
        size = len(render_png("palatinus", view))
        print(
            f"render {label}: median {statistics.median(draws) * 1e3:6.1f} ms draw + "
            f"{statistics.median(encodes) * 1e3:6.1f} ms PNG, {size / 1024:6.1f} KiB, "
            f"{image.width}x{image.height}"
        )


if __name__ == "__main__":
    main()
