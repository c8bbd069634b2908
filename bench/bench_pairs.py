"""The move path of this checkout against another's (an older release, main before a change),
in alternated pairs: base, this, base, this... so that the machine's drift (other work,
thermal state) falls on both alike. Each run is ``bench/bench_tables.py`` of its own checkout
in a process of its own; the figures are its durable moves/s and CPU per move, and the ratio
this / base of each pair.

    python bench/bench_pairs.py --base ../old-checkout [--pairs 5] [-- bench_tables args...]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LINE = re.compile(r"(\d+) table\(s\):\s+(\d+) durable moves/s.*CPU per move ([\d.]+) ms")


def run(checkout: Path, extra: list[str]) -> dict[int, tuple[float, float]]:
    """{tables: (moves/s, CPU ms per move)} of one bench run in ``checkout``."""
    done = subprocess.run([sys.executable, "bench/bench_tables.py", *extra], cwd=checkout,
                          capture_output=True, text=True, timeout=900, check=True)
    found = {int(m[1]): (float(m[2]), float(m[3])) for m in LINE.finditer(done.stdout)}
    if not found:
        raise SystemExit(f"no figures from {checkout}:\n{done.stdout}\n{done.stderr}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("extra", nargs="*", help="arguments for bench_tables.py (after --)")
    args = parser.parse_args()
    ratios: dict[int, list[tuple[float, float]]] = {}
    for n in range(args.pairs):
        base = run(args.base.resolve(), args.extra)
        this = run(HERE, args.extra)
        for tables in sorted(this):
            b, t = base[tables], this[tables]
            ratios.setdefault(tables, []).append((t[0] / b[0], t[1] / b[1]))
            print(f"pair {n + 1}, {tables:>2} table(s): base {b[0]:6.0f} moves/s "
                  f"{b[1]:.3f} ms CPU; this {t[0]:6.0f} moves/s {t[1]:.3f} ms CPU; "
                  f"speed x{t[0] / b[0]:.2f}, CPU x{t[1] / b[1]:.2f}", flush=True)
    for tables, pairs in sorted(ratios.items()):
        speed = statistics.median(p[0] for p in pairs)
        cpu = statistics.median(p[1] for p in pairs)
        print(f"median of {len(pairs)} pairs, {tables:>2} table(s): this/base moves/s "
              f"x{speed:.3f}, CPU per move x{cpu:.3f}")


if __name__ == "__main__":
    main()
