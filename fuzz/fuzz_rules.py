"""The long fuzz run of the engines: the properties of tests/fuzz_properties.py (move text,
action objects, setup options, replay files, the play command) with a large budget.

Run with ``python fuzz/fuzz_rules.py`` (``--examples N`` per case, ``--seed S`` to repeat a
run, ``--only TEXT`` for the cases whose name contains TEXT). It prints how many inputs each case
ran and the slowest single input, and exits non-zero when a property fails (any exception but a
RulesError, a mutated input, an over-long message) or an input took over 2 seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, seed, settings

from tests.fuzz_properties import SLOW_SECONDS, STATS, cases, warm_up

DEFAULT_EXAMPLES = 800
"""Per case; with 14 cases that is over 11,000 inputs."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=DEFAULT_EXAMPLES,
                        help=f"inputs per case (default {DEFAULT_EXAMPLES})")
    parser.add_argument("--seed", type=int, default=None, help="repeat a run")
    parser.add_argument("--only", default="", help="run only the cases whose name has this")
    args = parser.parse_args()

    warm_up()
    STATS.reset()
    chosen = {name: case for name, case in cases().items() if args.only in name}
    budget = settings(
        max_examples=args.examples, deadline=None, database=None,
        # Generate and run; no shrinking phase, so a failure is reported as found.
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    failures: list[str] = []
    started = time.perf_counter()
    for name, case in sorted(chosen.items()):
        run = budget(case if args.seed is None else seed(args.seed)(case))
        begun = time.perf_counter()
        try:
            run()
        except (Exception, SystemExit):  # each failure is reported; the run goes on
            failures.append(name)
            print(f"FAILED {name}:\n{traceback.format_exc()}", file=sys.stderr)
        print(f"{name:28} {time.perf_counter() - begun:7.1f} s")
    total_time = time.perf_counter() - started

    print()
    for name, count in sorted(STATS.counts.items()):
        print(f"{name:28} {count:7} inputs")
    total = sum(STATS.counts.values())
    took, where, given = STATS.slowest
    print(f"{'total':28} {total:7} inputs in {total_time:.1f} s")
    print(f"slowest input: {took * 1000:.1f} ms in {where}: {given}")
    if took > SLOW_SECONDS:
        failures.append(f"an input took {took:.1f} s (limit {SLOW_SECONDS} s)")
    if failures:
        print("FAILED: " + "; ".join(failures))
        return 1
    print("no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
