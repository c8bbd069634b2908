"""The model (hypothesis stateful) tests of time and of leagues, searched deeper than CI does:
many more examples, new ones each run (not derandomized), shrunk when one fails. Prints what
it ran, how long each took, and what the pace model reached (bank deadlines, the holiday
allowance used up, a vote at its one-day cap, a substitute taken or not, ...).

    nice -n 19 python bench/bench_models.py [--examples 200] [--steps 50] [--seed N]
                                            [--only pace|leagues] [--policy P] [--shrink]

A find is printed with its steps, unshrunk unless ``--shrink``; ``--seed`` repeats a run.

The leagues run on SQLite (the PostgreSQL one needs the test server: ``TABULA_DEEP=10
./run-tests tests/bot/leagues/test_leagues_stateful.py``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.bot.leagues.test_leagues_stateful import LeagueMachine
from tests.bot.pace.test_model import REACHED, PaceMachine

POLICIES = ["autopilot", "skip", "vote", "wait"]


def timed(name: str, examples: int, steps: int, run: Callable[[], None]) -> bool:
    started = time.perf_counter()
    try:
        run()
        verdict = "ok"
    except Exception as exc:  # a find: shown with its steps, the others still run
        verdict = f"FAILED: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
        found = exc.exceptions if isinstance(exc, ExceptionGroup) else [exc]
        for one in found:
            print(f"--- {type(one).__name__}: {one}", *getattr(one, "__notes__", []),
                  sep="\n", flush=True)
    took = time.perf_counter() - started
    print(f"{name:<28} {examples:>6} examples x {steps:>3} steps  {took:8.1f} s  {verdict}",
          flush=True)
    return verdict == "ok"


def searched(machine: type, chosen: settings, at: int | None) -> Callable[[], None]:
    def test() -> None:
        run_state_machine_as_test(machine, settings=chosen)

    return test if at is None else seed(at)(test)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--only", choices=["pace", "leagues"], default=None)
    parser.add_argument("--policy", choices=POLICIES, default=None)
    parser.add_argument("--shrink", action="store_true",
                        help="shrink a find (can take minutes on a loaded machine)")
    args = parser.parse_args()
    deep = settings(max_examples=args.examples, stateful_step_count=args.steps, deadline=None,
                    derandomize=False, suppress_health_check=list(HealthCheck),
                    phases=[Phase.explicit, Phase.reuse, Phase.generate,
                            *([Phase.shrink] if args.shrink else [])])
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        if args.only in (None, "pace"):
            for policy in [args.policy] if args.policy else POLICIES:
                machine = type(f"Pace_{policy}", (PaceMachine,),
                               {"folder": folder, "policy": policy})
                ok &= timed(f"pace model, {policy}", args.examples, args.steps,
                            searched(machine, deep, args.seed))
            print("\nwhat the pace model reached (checks made, over every run):")
            for what, times in sorted(REACHED.items()):
                print(f"  {what:<40} {times:>8}")
        if args.only in (None, "leagues"):
            names = iter(range(1_000_000))
            league = type("Leagues_sqlite", (LeagueMachine,), {
                "new_target": staticmethod(lambda: str(Path(folder) / f"l{next(names)}.db")),
                "drop_target": staticmethod(lambda target: Path(target).unlink()),
            })
            steps = max(30, args.steps * 3 // 5)
            ok &= timed("league model, sqlite", args.examples, steps,
                        searched(league, settings(deep, stateful_step_count=steps), args.seed))
    print("\nall passed" if ok else "\nSOME FAILED (see above)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
