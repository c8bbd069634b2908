"""Phase 2 movement (spec 7.3, 7.4): the street graph and the search for every legal move.

A move is offered as a destination, the cost it is reached at and how it ends. Different paths
can reach one cell at different costs (police stones add +1), so every (cell, cost) pair that a
path allowed by the rules reaches is found.

With ``simple_paths`` (the default) no cell is entered twice in a turn. The search then walks
simple paths depth first, and merges two partial paths that end on the same cell having visited
the same set of cells: their cost is the same (it depends only on the cells entered, unless jumps
charge for the stones they pass over, in which case the cost is part of the key) and so are
their continuations. Without ``simple_paths`` it is a breadth-first search over (cell, cost).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.palermo.city import LayoutKey, city
from rules.palermo.components import Config
from rules.palermo.geometry import Geometry

Edge = tuple[int, tuple[int, ...]]  # target node, ring cells skipped by a jump


@dataclass(frozen=True, eq=False)
class Graph:
    """The movement graph of a finished city (directed: a corner is not a jump back).

    Compared and hashed by identity: one object per city layout, shared through a cache.
    """

    nodes: tuple[int, ...]  # every street node: city street cells and ring cells
    edges: tuple[tuple[Edge, ...], ...]  # indexed by node id; empty for roof cells
    steps: tuple[frozenset[int], ...]  # step neighbours (orthogonal), indexed by node id
    jumps: tuple[frozenset[int], ...]  # jump neighbours either way, for police spacing
    start: frozenset[int]


@lru_cache(maxsize=64)
def graph(cfg: Config, geo: Geometry, key: LayoutKey) -> Graph:
    built = city(cfg, geo, key)
    c = geo.cells
    steps: list[set[int]] = [set() for _ in range(geo.node_count)]
    jumps: list[set[int]] = [set() for _ in range(geo.node_count)]
    edges: list[list[Edge]] = [[] for _ in range(geo.node_count)]

    def link(a: int, b: int) -> None:
        if b not in steps[a]:
            steps[a].add(b)
            steps[b].add(a)

    for cell in sorted(built.street):
        x, y = cell % c, cell // c
        if x + 1 < c and cell + 1 in built.street:
            link(cell, cell + 1)
        if y + 1 < c and cell + c in built.street:
            link(cell, cell + c)
    for cell, ring in geo.edge_links:
        if cell in built.street:
            link(cell, ring)
    ring_nodes = range(geo.city_count, geo.node_count)
    for ring in ring_nodes:
        for other in geo.ring_steps(ring):
            link(ring, other)
    for node in range(geo.node_count):
        for other in sorted(steps[node]):
            edges[node].append((other, ()))
    for ring in ring_nodes:
        for corner, skipped in geo.ring_jumps(ring):
            if corner in steps[ring]:
                continue  # next to the corner: the jump is the ordinary step
            edges[ring].append((corner, skipped))
            jumps[ring].add(corner)
            jumps[corner].add(ring)
    nodes = tuple(sorted(built.street)) + tuple(ring_nodes)
    return Graph(
        nodes=nodes,
        edges=tuple(tuple(e) for e in edges),
        steps=tuple(frozenset(s) for s in steps),
        jumps=tuple(frozenset(s) for s in jumps),
        start=built.start,
    )


def reach(
    g: Graph,
    origins: tuple[int, ...],
    budget: int,
    enter_cost: tuple[int, ...],
    skip_cost: tuple[int, ...] | None,
    stop_at: frozenset[int],
    simple: bool,
) -> frozenset[tuple[int, int]]:
    """Every (node, cost) with 0 < cost <= budget that a move can end on.

    ``enter_cost[n]`` is what entering ``n`` costs (1, or 2 on an opponent's police stone);
    ``skip_cost[n]`` is charged for each ring cell a jump passes over (None: jumps ignore them);
    entering a node of ``stop_at`` ends the move there (a pawn arriving home).
    """
    if simple:
        return _reach_simple(g, origins, budget, enter_cost, skip_cost, stop_at)
    return _reach_walks(g, origins, budget, enter_cost, skip_cost, stop_at)


def _edge_cost(v: int, skipped: tuple[int, ...], enter: tuple[int, ...],
               skip_cost: tuple[int, ...] | None) -> int:
    cost = enter[v]
    if skip_cost is not None:
        for s in skipped:
            cost += skip_cost[s]
    return cost


def _reach_simple(
    g: Graph,
    origins: tuple[int, ...],
    budget: int,
    enter: tuple[int, ...],
    skip_cost: tuple[int, ...] | None,
    stop_at: frozenset[int],
) -> frozenset[tuple[int, int]]:
    found: set[tuple[int, int]] = set()
    seen: set[tuple[int, int, int]] = set()
    edges = g.edges
    balls = balls_of(g)
    stack: list[tuple[int, int, int]] = [(o, 1 << o, 0) for o in origins]
    while stack:
        u, mask, cost = stack.pop()
        for v, skipped in edges[u]:
            bit = 1 << v
            if mask & bit:
                continue
            nc = cost + (enter[v] if skip_cost is None else _edge_cost(v, skipped, enter, skip_cost))
            if nc > budget:
                continue
            found.add((v, nc))
            if nc == budget or v in stop_at:
                continue
            # Only visited cells the rest of the move could still enter matter from here on.
            ball = balls[v]
            nmask = (mask | bit) & ball[min(budget - nc, len(ball) - 1)]
            key = (v, nc, nmask)
            if key in seen:
                continue
            seen.add(key)
            stack.append((v, nmask | bit, nc))
    return frozenset(found)


@lru_cache(maxsize=64)
def balls_of(g: Graph) -> tuple[tuple[int, ...], ...]:
    """``balls_of(g)[n][r]``: bitmask of the nodes reachable from ``n`` in at most ``r`` moves
    (the last entry holds everything reachable)."""
    out: list[tuple[int, ...]] = []
    for n in range(len(g.edges)):
        masks = [1 << n]
        frontier = [n]
        mask = 1 << n
        while frontier:
            nxt: list[int] = []
            for u in frontier:
                for v, _ in g.edges[u]:
                    if not mask >> v & 1:
                        mask |= 1 << v
                        nxt.append(v)
            frontier = nxt
            masks.append(mask)
        out.append(tuple(masks))
    return tuple(out)


def _reach_walks(
    g: Graph,
    origins: tuple[int, ...],
    budget: int,
    enter: tuple[int, ...],
    skip_cost: tuple[int, ...] | None,
    stop_at: frozenset[int],
) -> frozenset[tuple[int, int]]:
    found: set[tuple[int, int]] = set()
    frontier = [(o, 0) for o in origins]
    seen = set(frontier)
    while frontier:
        nxt: list[tuple[int, int]] = []
        for u, cost in frontier:
            for v, skipped in g.edges[u]:
                nc = cost + _edge_cost(v, skipped, enter, skip_cost)
                if nc > budget or (v, nc) in seen:
                    continue
                seen.add((v, nc))
                found.add((v, nc))
                if nc < budget and v not in stop_at:
                    nxt.append((v, nc))
        frontier = nxt
    return frozenset(found)
