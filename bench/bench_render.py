"""Render and encode every kind of image of every game; compare PNG encodings.

    python bench/bench_render.py [--repeat 20]

For each game, at the start, mid-game and the end, public and private (seat 1), prints the
draw time of the post's one image (p50 and p95 over the repeats, milliseconds) and its PNG
size, then the same for each detail image the view offers (``rendering.detail_parts``), and
for the private view the DM sent after a move (the view of the stage before as the one last
sent). Then, over all those images in the same run, compares RGB PNG at level 1 with a
256-colour palette PNG (``rendering.common.encode_png``): encode time, size, and the mean
difference per channel (0-255) the palette introduces.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops, ImageStat

import rendering
from rendering.common import quantized
from rules import GAMES
from rules.random_player import UniformRandomPlayer


def views(game_id: str) -> dict[str, tuple[Any, ...]]:
    """Start, mid and end states of a seeded random game: {stage: (public, private)}."""
    game = GAMES[game_id]
    state = game.setup(max(3, game.min_players), "bench-render")
    player = UniformRandomPlayer("bench-render")
    stages: dict[str, tuple[Any, ...]] = {"start": (state,)}
    for step in range(20_000):
        active = sorted(game.active_seats(state))
        if not active:
            break
        if step == 20:
            stages["mid"] = (state,)
        state = game.apply(state, active[0], player.choose(game, state, active[0])).state
    stages["end"] = (state,)
    return {k: (game.view(s[0], None), game.view(s[0], 0)) for k, s in stages.items()}


def percentiles(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]


def png_rgb(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def png_palette(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    quantized(image).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    every: list[Image.Image] = []
    worst = 0.0
    print(f"{'image':<36} {'size':>10} {'p50 ms':>7} {'p95 ms':>7} {'PNG KiB':>8}")
    for game_id in sorted(g for g in GAMES if rendering.has_renderer(g)):
        before: Any = None
        for stage, pair in views(game_id).items():
            for who, view in zip(("public", "private"), pair, strict=True):
                [image] = rendering.render_all(game_id, view)
                p50, p95 = percentiles(lambda v=view, g=game_id: rendering.render_all(g, v),
                                       args.repeat)
                worst = max(worst, p95)
                every.append(image)
                kib = len(rendering.encode_png(image)) / 1024
                print(f"{f'{game_id} {stage} {who}':<36} {image.width}x{image.height:<5} "
                      f"{p50:7.1f} {p95:7.1f} {kib:8.0f}")
                for key, _ in rendering.detail_parts(game_id, view):
                    detail, _ = rendering.render_detail(game_id, view, key)
                    p50, p95 = percentiles(
                        lambda v=view, g=game_id, k=key: rendering.render_detail(g, v, k),
                        args.repeat)
                    every.append(detail)
                    kib = len(rendering.encode_png(detail)) / 1024
                    print(f"{f'  detail {key}':<36} {detail.width}x{detail.height:<5} "
                          f"{p50:7.1f} {p95:7.1f} {kib:8.0f}")
                if who == "private":
                    # A DM after a move: what changed since the view before it, or asks for
                    # a decision now (only some games draw it differently).
                    p50, p95 = percentiles(
                        lambda v=view, g=game_id, b=before: rendering.render_all(
                            g, v, update=True, previous=b), args.repeat)
                    worst = max(worst, p95)
                    print(f"{game_id + ' ' + stage + ' DM update':<36} {'':10} "
                          f"{p50:7.1f} {p95:7.1f}")
                    before = view
    print(f"worst p95 of a post's image: {worst:.1f} ms")
    rgb_t = sum(percentiles(lambda im=im: png_rgb(im), 5)[0] for im in every)
    pal_t = sum(percentiles(lambda im=im: png_palette(im), 5)[0] for im in every)
    rgb_b = sum(len(png_rgb(im)) for im in every)
    pal_b = sum(len(png_palette(im)) for im in every)
    diffs = [sum(ImageStat.Stat(ImageChops.difference(im.convert("RGB"),
                                                      quantized(im).convert("RGB"))).mean) / 3
             for im in every]
    print(f"{len(every)} images. RGB PNG level 1: {rgb_t:.0f} ms, {rgb_b / 1024:.0f} KiB | "
          f"palette PNG (quantize + encode): {pal_t:.0f} ms, {pal_b / 1024:.0f} KiB | "
          f"time x{pal_t / rgb_t:.2f}, size x{pal_b / rgb_b:.2f} | mean difference "
          f"{statistics.mean(diffs):.2f}, worst {max(diffs):.2f} (0-255)")


if __name__ == "__main__":
    main()
