"""Forming a round's tables from the signed-up members (Swiss-like).

The cost of a plan is the number of repeat meetings (heavily weighted) plus the rating spread
(best minus worst) within each table. Members are first cut into tables best rating first, then
swapped between tables while that helps: a good plan, quickly. Then two branch-and-bound
searches over every way to seat the members improve it or prove it best; both drop a partial
plan that already costs as much as the best known one:

- seat by seat, best rating first (a table's spread and repeats only grow as it fills);
- table by table: the best member left and the companions chosen for them, the plan's cost so
  far plus a bound on the rest (the tables still to form are intervals of ratings covering every
  member left: at least their range minus the largest gaps the tables can leave between them).

Rounds of up to about 16 to 20 members are searched to the end (the plan is optimal; tests
compare it with trying every plan); a bigger round keeps the best plan the budgets found, in a
second or two, never worse than the swaps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise

REPEAT_COST = 1_000.0  # one repeat meeting outweighs any rating spread
MAX_PASSES = 20
SEAT_BUDGET = 100_000  # partial plans the seat-by-seat search may visit
TABLE_BUDGET = 20_000  # partial plans the table-by-table search may visit


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
    groups = _by_table(_by_seat(groups, met), met)
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


def _by_seat(groups: list[list[Entrant]], met: Mapping[frozenset[int], int],
             budget: int = SEAT_BUDGET) -> list[list[Entrant]]:
    """The cheapest plan with the same table sizes, seating members one by one from
    ``groups`` (the best known plan)."""
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


def _cover(ratings: Sequence[float], tables: int) -> float:
    """The least total spread of ``tables`` tables seating players of these ratings (best
    first): the range, less the largest gaps the tables can leave between them."""
    if len(ratings) < 2 or tables <= 0:
        return 0.0
    gaps = sorted((a - b for a, b in pairwise(ratings)), reverse=True)
    return ratings[0] - ratings[-1] - sum(gaps[: tables - 1])


def _by_table(groups: list[list[Entrant]], met: Mapping[frozenset[int], int],
              budget: int = TABLE_BUDGET) -> list[list[Entrant]]:
    """The cheapest plan with the same table sizes, forming tables one by one from
    ``groups`` (the best known plan): the best member left, with companions of the lowest
    rating first (so the table's spread grows as the choices go on)."""
    people = sorted((e for g in groups for e in g), key=lambda e: (-e.rating, e.member_id))
    best_cost = plan_cost(groups, met)
    best = [list(g) for g in groups]
    chosen: list[list[Entrant]] = []
    visits = 0

    def repeats(table: Sequence[Entrant]) -> int:
        return sum(met.get(frozenset((a.member_id, b.member_id)), 0)
                   for a, b in combinations(table, 2))

    def options(top: Entrant, others: Sequence[Entrant], size: int, total: float
                ) -> list[tuple[float, tuple[int, ...]]]:
        """Companions for ``top`` (indices into ``others``) with the table's cost."""
        found: list[tuple[float, tuple[int, ...]]] = []
        if size == 1:
            return [(0.0, ())]
        for low in range(size - 2, len(others)):
            spread = top.rating - others[low].rating
            if total + spread >= best_cost - 1e-9:
                break
            for rest in combinations(range(low), size - 2):
                picked = (*rest, low)
                table = [top, *(others[k] for k in picked)]
                found.append((REPEAT_COST * repeats(table) + spread, picked))
        found.sort()
        return found

    def form(left: list[Entrant], sizes: list[int], total: float) -> None:
        nonlocal best_cost, best, visits
        visits += 1
        if visits > budget:
            return
        if not left:
            if total < best_cost - 1e-9:
                best_cost, best = total, [list(t) for t in chosen]
            return
        if total + _cover([e.rating for e in left], len(sizes)) >= best_cost - 1e-9:
            return
        top, others = left[0], left[1:]
        for size in sorted(set(sizes)):
            remaining_sizes = list(sizes)
            remaining_sizes.remove(size)
            for cost, picked in options(top, others, size, total):
                if total + cost >= best_cost - 1e-9:
                    break
                taken = set(picked)
                chosen.append([top, *(others[k] for k in picked)])
                form([e for k, e in enumerate(others) if k not in taken], remaining_sizes,
                     total + cost)
                chosen.pop()

    form(people, sorted((len(g) for g in groups), reverse=True), 0.0)
    return best
