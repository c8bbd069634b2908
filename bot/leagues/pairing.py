"""Forming a round's tables from the signed-up members (Swiss-like).

The cost of a plan is the number of repeat meetings (heavily weighted) plus the rating spread
(best minus worst) within each table. Members are first cut into tables best rating first, then
swapped between tables while that helps: a good plan, quickly. Then a branch-and-bound search
over every way to seat the members proves the best plan (or finds it), seating members best
rating first, so a table's spread and repeats only grow as it fills: a partial plan that
already costs as much as the best known one is dropped. Rounds of up to about 16 members are
searched to the end (the plan is optimal; tests compare it with trying every plan); a bigger
round keeps the best plan found within the budget (well under a second), never worse than the
swaps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

REPEAT_COST = 1_000.0  # one repeat meeting outweighs any rating spread
MAX_PASSES = 20
SEARCH_BUDGET = 200_000  # partial plans the exact search may visit


@dataclass(frozen=True)
class Entrant:
    member_id: int
    rating: float
    games: int = 0  # games already played: the busiest sit out first when someone must


@dataclass(frozen=True)
class Plan:
    tables: list[list[int]]  # member ids per table, best rating first
    computers: list[int]  # computer seats to add, per table
    sitting_out: list[int] = field(default_factory=list)


def split(count: int, low: int, high: int) -> list[int] | None:
    """Table sizes for ``count`` players, each from ``low`` to ``high``: the fewest tables,
    as even as possible (sizes differ by one at most), largest first; None if impossible."""
    if count <= 0:
        return None
    for tables in range(-(-count // high), count // low + 1):
        base, extra = divmod(count, tables)
        if low <= base and base + (extra > 0) <= high:
            return [base + 1] * extra + [base] * (tables - extra)
    return None


def form_tables(
    entrants: Sequence[Entrant],
    low: int,
    high: int,
    met: Mapping[frozenset[int], int],
    computers: bool = False,
) -> Plan:
    """Tables of ``low`` to ``high`` seats (``low`` at least 2 members) from ``entrants``.

    ``met`` counts how often two members already sat together. With ``computers``, tables
    that would be short are filled with computer seats up to ``low`` instead of members
    sitting out; a table always has two members at least (a solo game is not rated).
    """
    ranked = sorted(entrants, key=lambda e: (-e.rating, e.member_id))
    low, high = max(low, 1), max(high, low, 2)
    members_low = max(low, 2)
    sizes: list[int] | None = None
    fill: list[int] = []
    out: list[int] = []
    if computers and len(ranked) >= 2:
        count = -(-len(ranked) // high)
        while count > 1 and len(ranked) // count < 2:
            count -= 1
        base, extra = divmod(len(ranked), count)
        sizes = [base + 1] * extra + [base] * (count - extra)
        fill = [max(0, low - s) for s in sizes]
    else:
        seated = len(ranked)
        while seated >= members_low and (sizes := split(seated, members_low, high)) is None:
            seated -= 1
        if sizes is None:
            seated = 0
        # The busiest members sit out first; among equals, the lowest rated.
        busiest = sorted(ranked, key=lambda e: (-e.games, e.rating, -e.member_id))
        out = [e.member_id for e in busiest[: len(ranked) - seated]]
        ranked = [e for e in ranked if e.member_id not in out]
        fill = [0] * len(sizes or [])
    if not sizes:
        return Plan([], [], [e.member_id for e in entrants])
    groups: list[list[Entrant]] = []
    at = 0
    for size in sizes:
        groups.append(ranked[at: at + size])
        at += size
    _improve(groups, met)
    groups = _search(groups, met)
    tables = [[e.member_id for e in sorted(g, key=lambda e: (-e.rating, e.member_id))]
              for g in groups]
    return Plan(tables, fill, sorted(out))


def _cost(group: Sequence[Entrant], met: Mapping[frozenset[int], int]) -> float:
    if not group:
        return 0.0
    repeats = sum(met.get(frozenset((a.member_id, b.member_id)), 0)
                  for a, b in combinations(group, 2))
    ratings = [e.rating for e in group]
    return REPEAT_COST * repeats + (max(ratings) - min(ratings))


def _improve(groups: list[list[Entrant]], met: Mapping[frozenset[int], int]) -> None:
    """Swap members between tables while a swap lowers the total cost (first improvement,
    a bounded number of passes, deterministic)."""
    for _ in range(MAX_PASSES):
        improved = False
        for i, j in combinations(range(len(groups)), 2):
            for a in range(len(groups[i])):
                for b in range(len(groups[j])):
                    before = _cost(groups[i], met) + _cost(groups[j], met)
                    gi, gj = list(groups[i]), list(groups[j])
                    gi[a], gj[b] = gj[b], gi[a]
                    if _cost(gi, met) + _cost(gj, met) < before - 1e-9:
                        groups[i], groups[j] = gi, gj
                        improved = True
        if not improved:
            return


def plan_cost(groups: Sequence[Sequence[Entrant]], met: Mapping[frozenset[int], int]) -> float:
    return sum(_cost(g, met) for g in groups)


def _search(groups: list[list[Entrant]], met: Mapping[frozenset[int], int],
            budget: int = SEARCH_BUDGET) -> list[list[Entrant]]:
    """The cheapest plan with the same table sizes, by branch and bound from ``groups``."""
    people = sorted((e for g in groups for e in g), key=lambda e: (-e.rating, e.member_id))
    sizes = sorted((len(g) for g in groups), reverse=True)
    best_cost = plan_cost(groups, met)
    best: list[list[Entrant]] = [list(g) for g in groups]
    tables: list[list[Entrant]] = []  # open tables, in the order they were opened
    capacity: list[int] = []
    costs: list[float] = []  # each open table's cost so far
    spare = list(sizes)  # sizes of tables not opened yet
    visits = 0

    def add_cost(table: list[Entrant], e: Entrant) -> float:
        repeats = sum(met.get(frozenset((e.member_id, o.member_id)), 0) for o in table)
        return REPEAT_COST * repeats + (table[-1].rating - e.rating)

    def step(i: int, total: float) -> None:
        nonlocal best_cost, best, visits
        visits += 1
        if visits > budget or total >= best_cost - 1e-9:
            return
        if i == len(people):
            best_cost, best = total, [list(t) for t in tables]
            return
        e = people[i]
        options: list[tuple[float, int]] = []
        for k, table in enumerate(tables):
            if len(table) < capacity[k]:
                options.append((add_cost(table, e), k))
        options.sort()
        for extra, k in options:
            tables[k].append(e)
            costs[k] += extra
            step(i + 1, total + extra)
            costs[k] -= extra
            tables[k].pop()
        for size in sorted(set(spare), reverse=True):  # tables of one size are alike
            spare.remove(size)
            tables.append([e])
            capacity.append(size)
            costs.append(0.0)
            step(i + 1, total)
            tables.pop()
            capacity.pop()
            costs.pop()
            spare.append(size)

    step(0, 0.0)
    return best
