"""The score chart: each seat's score over the game as an SVG drawn here (no script, no
library), a line per seat in its colour and dash with its name at the line's end, the steps
along the bottom, and a marker at the step the replay shows (the script moves it)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.text import clean_name
from bot.web.templates import esc

# The seats' colours of the boards (rendering.palette), as CSS; dashes tell the lines apart
# where colours do not.
COLOURS = ("#0072b2", "#e69f00", "#2d2d2d", "#50c8f0", "#643c00", "#a0a0a0")
DASHES = ("", "8 4", "2 3", "10 3 2 3", "4 4", "1 2")
WIDTH, HEIGHT = 480, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 150, 12, 28
NAME_CHARS = 10


def _ticks(low: int, high: int, count: int = 5) -> list[int]:
    span = max(1, high - low)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9)
                if span / s <= count)
    first = low - low % step if low >= 0 else -((-low + step - 1) // step) * step
    return list(range(first, high + step, step))


def score_chart(names: Sequence[str], scores: Sequence[Sequence[float] | None],
                step: int) -> str:
    """The chart of ``scores`` (per step; None where a step has none), with the marker at
    ``step``; "" when fewer than two steps have scores."""
    known = [(n, s) for n, s in enumerate(scores) if s is not None]
    if len(known) < 2 or not names:
        return ""
    last = max(len(scores) - 1, 1)
    values = [v for _, s in known for v in s]
    ticks = _ticks(math.floor(min(0, *values)), math.ceil(max(1, *values)))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: int) -> float:
        return LEFT + plot_w * n / last

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / max(1, high - low)

    out = [f"<svg id=\"chart-svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\""
           f" aria-labelledby=\"chart-title chart-desc\" data-left=\"{LEFT}\""
           f" data-width=\"{plot_w}\" data-last=\"{last}\">"]
    final = known[-1][1]
    said = "; ".join(f"{clean_name(names[seat], 64)} {final[seat]:g}"
                     for seat in range(min(len(names), len(final))))
    out.append(f"<title id=\"chart-title\">Scores over the game</title>"
               f"<desc id=\"chart-desc\">Each player's score from step 0 to step {last}."
               f" At step {known[-1][0]}: {esc(said)}.</desc>")
    for t in ticks:
        out.append(f"<line class=\"grid\" x1=\"{LEFT}\" x2=\"{LEFT + plot_w}\" y1=\"{y(t):.1f}\""
                   f" y2=\"{y(t):.1f}\"/><text class=\"tick\" x=\"{LEFT - 6}\" y=\"{y(t) + 4:.1f}\""
                   f" text-anchor=\"end\">{t}</text>")
    for n in sorted({0, last, *range(0, last, max(1, _ticks(0, last, 6)[1]))}):
        out.append(f"<text class=\"tick\" x=\"{x(n):.1f}\" y=\"{HEIGHT - 10}\""
                   f" text-anchor=\"middle\">{n}</text>")
    ends: list[tuple[float, int]] = []  # (height of the line's end, seat)
    for seat in range(len(names)):
        points = " ".join(f"{x(n):.1f},{y(s[seat]):.1f}" for n, s in known if seat < len(s))
        colour, dash = COLOURS[seat % len(COLOURS)], DASHES[seat % len(DASHES)]
        dashed = f" stroke-dasharray=\"{dash}\"" if dash else ""
        out.append(f"<polyline class=\"seat\" points=\"{points}\" fill=\"none\""
                   f" stroke=\"{colour}\" stroke-width=\"2.5\"{dashed}/>")
        if seat < len(final):
            ends.append((y(final[seat]), seat))
    # Names at the lines' ends, nudged apart where scores are close.
    placed: list[float] = []
    for at, seat in sorted(ends):
        at = max(at, placed[-1] + 17) if placed else at
        placed.append(at)
        label = f"{clean_name(names[seat], NAME_CHARS)} {final[seat]:g}"
        # A long label (wide letters, a long score) is squeezed into the margin, never cut.
        fit = (f" textLength=\"{RIGHT - 12}\" lengthAdjust=\"spacingAndGlyphs\""
               if len(label) > 12 else "")
        out.append(f"<text class=\"who\" x=\"{LEFT + plot_w + 6}\" y=\"{at + 4:.1f}\""
                   f" fill=\"{COLOURS[seat % len(COLOURS)]}\"{fit}>{esc(label)}</text>")
    out.append(f"<line id=\"chart-step\" x1=\"{x(step):.1f}\" x2=\"{x(step):.1f}\" y1=\"{TOP}\""
               f" y2=\"{TOP + plot_h}\"/></svg>")
    return "".join(out)
