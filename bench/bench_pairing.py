"""League pairing: the cost of a round's plan (repeat meetings × 1000 + rating spread) and the
time to find it, for rounds of 8 to 40 members at tables of 3 or 4, with a share of pairs
that met before; beside it, the plan the pairwise swaps alone settle on (the old pairing).

    python bench/bench_pairing.py [--seed 7] [--density 0.15]
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.leagues.pairing import Entrant, _improve, form_tables, plan_cost, split


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--density", type=float, default=0.15)
    args = parser.parse_args()
    rng = Random(args.seed)
    print("members  swaps-only cost  searched cost  search time")
    for n in (8, 12, 16, 20, 24, 30, 40):
        people = [Entrant(i, rng.uniform(0, 30)) for i in range(n)]
        met = {frozenset(p): 1 for p in combinations(range(n), 2) if rng.random() < args.density}
        ranked = sorted(people, key=lambda e: (-e.rating, e.member_id))
        groups, at = [], 0
        for size in split(n, 3, 4) or []:
            groups.append(ranked[at: at + size])
            at += size
        _improve(groups, met)
        started = time.perf_counter()
        plan = form_tables(people, 3, 4, met)
        took = time.perf_counter() - started
        by_id = {e.member_id: e for e in people}
        searched = plan_cost([[by_id[m] for m in t] for t in plan.tables], met)
        print(f"{n:7}  {plan_cost(groups, met):15.2f}  {searched:13.2f}  {took:9.2f} s")


if __name__ == "__main__":
    main()
