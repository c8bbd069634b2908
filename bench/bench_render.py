"""Render and encode a mid-game board of every game; compare PNG settings.

    python bench/bench_render.py [--repeat 15]

Prints, per game, the median draw time and, for PNG level 6 (Pillow's default) and level 1 (what
``encode_png`` uses), the encode time and size, with the ratio between them.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rendering
from rules import GAMES
from rules.random_player import UniformRandomPlayer


def mid_game_view(game_id: str, steps: int = 60) -> dict[str, object]:
    game = GAMES[game_id]
    state = game.setup(max(3, game.min_players), "bench-render")
    player = UniformRandomPlayer("bench-render")
    for _ in range(steps):
        active = sorted(game.active_seats(state))
        if not active:
            break
        state = game.apply(state, active[0], player.choose(game, state, active[0])).state
    return game.view(state, None)


def png(image: object, level: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level)  # type: ignore[attr-defined]
    return buffer.getvalue()


def timed(fn: object, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    for game_id in sorted(g for g in GAMES if rendering.has_renderer(g)):
        view = mid_game_view(game_id)
        draw_ms, image = timed(lambda v=view, g=game_id: rendering.render(g, v), args.repeat)
        rgb = image.convert("RGB")  # type: ignore[attr-defined]
        figures = {}
        for level in (6, 1):
            ms, data = timed(lambda lv=level, im=rgb: png(im, lv), args.repeat)
            figures[level] = (ms, len(data))  # type: ignore[arg-type]
        (t6, s6), (t1, s1) = figures[6], figures[1]
        print(f"{game_id:>14}: {rgb.size[0]}x{rgb.size[1]} draw {draw_ms:.1f} ms | "
              f"PNG6 {t6:.1f} ms {s6 / 1024:.0f} KiB | PNG1 {t1:.1f} ms {s1 / 1024:.0f} KiB | "
              f"level 1 is {t6 / t1:.1f}x faster, {s1 / s6:.2f}x the size")


if __name__ == "__main__":
    main()
