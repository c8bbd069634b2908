"""Palermo benchmark: random games per second, the cost of a decision in each phase, the move
search on the ring at full budget, and render time and PNG size.

Run with ``python bench/bench_palermo.py``; it prints figures and asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rendering import render
from rendering.common import encode_png
from rules.core import Rng
from rules.palermo import GAME
from rules.palermo.actions import legal_for
from rules.palermo.collecting import _reach_cached
from rules.palermo.state import COLLECT, MOVE, OFF, PalermoState

GAMES_PER_COUNT = 4
RING_SAMPLES = 200


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def play(players: int, seed: str, timings: dict[str, list[float]] | None) -> PalermoState:
    state = GAME.setup(players, seed)
    pick = Rng(f"bench-{seed}")
    for _ in range(50_000):
        if not GAME.active_seats(state):
            return state
        seat = state.turn
        label = "phase 1 (build)" if state.phase == "build" else f"phase 2 ({state.step})"
        start = time.perf_counter()
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, legal[pick.randbelow(len(legal))]).state
        if timings is not None:
            timings[label].append(time.perf_counter() - start)
    raise RuntimeError("a random game did not end")


def bench_games() -> list[PalermoState]:
    finals: list[PalermoState] = []
    timings: dict[str, list[float]] = defaultdict(list)
    total_games, start = 0, time.perf_counter()
    for players in (3, 4, 5):
        for k in range(GAMES_PER_COUNT):
            finals.append(play(players, f"bench-{players}-{k}", timings))
            total_games += 1
    elapsed = time.perf_counter() - start
    print(f"random full games: {total_games} in {elapsed:.1f} s "
          f"= {total_games / elapsed:.2f} games/s (3, 4 and 5 players)")
    print("legal_actions + apply per decision (first call on each state, no cache):")
    for label in sorted(timings):
        values = timings[label]
        print(f"  {label:22s} n={len(values):6d}  median {ms(statistics.median(values))}"
              f"  p99 {ms(percentile(values, 0.99))}  max {ms(max(values))}")
    return finals


def bench_ring(finals: list[PalermoState]) -> None:
    """The move search from ring cells at the largest budget (3 + 11 chips), caches cleared."""
    state = next(f for f in finals if f.players == 3)
    geo = state.geo
    ring = list(range(geo.city_count, geo.node_count))
    pick = Rng("ring")
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(RING_SAMPLES):
        node = ring[pick.randbelow(len(ring))]
        probe = replace(
            state,
            phase=COLLECT,
            step=MOVE,
            turn=0,
            home_order=(),
            pawns=(node, OFF, OFF),
            collected=(10, 0, 0),
            lost=(0, 0, 0),
            penalty=(0, 0, 0),
        )
        legal_for.cache_clear()
        _reach_cached.cache_clear()
        start = time.perf_counter()
        legal = GAME.legal_actions(probe, 0)
        times.append(time.perf_counter() - start)
        sizes.append(len(legal))
    print("legal_actions from a ring cell, budget 13, no cache:"
          f" median {ms(statistics.median(times))}"
          f"  p99 {ms(percentile(times, 0.99))}  max {ms(max(times))}"
          f"  ({statistics.median(sizes):.0f} actions)")


def bench_render() -> None:
    views = []
    for players in (3, 4, 5):
        state = GAME.setup(players, f"render-{players}")
        pick = Rng(f"render-{players}")
        for _ in range(20_000):
            if not GAME.active_seats(state):
                break
            views.append(GAME.view(state, state.turn))
            legal = GAME.legal_actions(state, state.turn)
            state = GAME.apply(state, state.turn, legal[pick.randbelow(len(legal))]).state
        views.append(GAME.view(state, None))
    sample = views[:: max(1, len(views) // 60)]
    render_times, encode_times, sizes = [], [], []
    for view in sample:
        start = time.perf_counter()
        image = render("palermo", view)
        render_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        sizes.append(len(encode_png(image)))
        encode_times.append(time.perf_counter() - start)
    print(f"render ({len(sample)} views): median {ms(statistics.median(render_times))}"
          f"  p99 {ms(percentile(render_times, 0.99))};"
          f" encode median {ms(statistics.median(encode_times))}")
    print(f"PNG size: median {statistics.median(sizes) / 1024:.0f} KiB,"
          f" max {max(sizes) / 1024:.0f} KiB")


def main() -> None:
    start = time.perf_counter()
    finals = bench_games()
    bench_ring(finals)
    bench_render()
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
