"""The long fuzz run of the table use cases: arbitrary member names, league names and typed
moves through open/join/start/act/propose of every game.

    python fuzz/fuzz_tables.py [--examples N]

Prints how many use-case calls ran and the slowest one; exits non-zero on any exception other
than a player's mistake, on a refused call that changed the store, on an over-long notice, or on
a call slower than 2 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.tables.fuzz_tables import Probe, properties

HANG_SECONDS = 2.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2500,
                        help="examples per property (each makes several use-case calls)")
    args = parser.parse_args()
    started = time.perf_counter()
    probe = Probe()
    try:
        checks = properties(args.examples, probe)
        for check in checks:
            check()
    finally:
        probe.close()
    calls, slowest = probe.examples, probe.slowest
    print(f"{len(checks)} properties x {args.examples} examples in "
          f"{time.perf_counter() - started:.0f} s: {calls} calls, slowest {slowest * 1000:.0f} ms "
          f"({probe.slowest_call})")
    if slowest > HANG_SECONDS:
        print(f"FAIL: a call took {slowest:.1f} s (> {HANG_SECONDS} s)")
        return 1
    print(f"ok: {calls} calls, no unexpected exception")
    return 0


if __name__ == "__main__":
    sys.exit(main())
