"""Phase 2 movement (spec 7.3, 7.4): the street graph and the search for legal moves.

A move is offered as a destination, the cost it is reached at and how it ends. Different paths
can reach one cell at different costs (police stones add +1), so the search answers, for each
(cell, cost) pair asked for, whether some path allowed by the rules ends there at that cost.

With ``simple_paths`` (the default) no cell is entered twice in a turn. The search walks simple
paths depth first and merges partial paths that agree on the cell, the cost so far and the
visited cells the rest of the move could still enter (the others cannot matter any more). It
stops as soon as every pair asked for is settled, and leaves a branch early once nothing still
open lies within its reach. Pairs no walk at all reaches (cells may repeat, the start excluded)
are settled at once. Without ``simple_paths`` the walks themselves are the answer.
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
    enter: tuple[int, ...],
    skip_cost: tuple[int, ...] | None,
    stop_at: frozenset[int],
    wanted: tuple[int, ...],
    simple: bool,
) -> frozenset[tuple[int, int]]:
    """The (node, cost) pairs a move can end on, among those asked for.

    ``wanted[c]`` is a bitmask of the nodes asked for at cost ``c`` (0 < c <= budget);
    ``enter[n]`` is what entering ``n`` costs (1, or 2 on an opponent's police stone);
    ``skip_cost[n]`` is charged for each ring cell a jump passes over (None: jumps ignore them);
    entering a node of ``stop_at`` ends the move there (a pawn arriving home).
    """
    if not simple:
        walks = _walks(g, origins, budget, enter, skip_cost, stop_at, enter_origins=True)
        return frozenset(
            (n, c) for c in range(1, budget + 1) for n in _bits(walks[c] & wanted[c])
        )
    walks = _walks(g, origins, budget, enter, skip_cost, stop_at, enter_origins=False)
    return _simple(g, origins, budget, enter, skip_cost, stop_at, walks, wanted)


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _edge_cost(
    v: int, skipped: tuple[int, ...], enter: tuple[int, ...], skip_cost: tuple[int, ...] | None
) -> int:
    cost = enter[v]
    if skip_cost is not None:
        for s in skipped:
            cost += skip_cost[s]
    return cost


def _walks(
    g: Graph,
    origins: tuple[int, ...],
    budget: int,
    enter: tuple[int, ...],
    skip_cost: tuple[int, ...] | None,
    stop_at: frozenset[int],
    enter_origins: bool,
) -> list[int]:
    """``out[c]``: bitmask of the nodes some walk (cells may repeat) ends on at cost ``c``.

    Without ``enter_origins`` the walks never come back to a single start: still a superset of
    the simple paths, and a much tighter one.
    """
    out = [0] * (budget + 1)
    frontier = [(o, 0) for o in origins]
    # With several possible starts a path may well cross another start, so only a single
    # start can be left out.
    banned = frozenset(origins) if not enter_origins and len(origins) == 1 else frozenset()
    links = _links(g, budget)
    while frontier:
        nxt: list[tuple[int, int]] = []
        for u, cost in frontier:
            for v, bit, skipped, _ in links[u]:
                if v in banned:
                    continue
                step = enter[v] if skip_cost is None else _edge_cost(v, skipped, enter, skip_cost)
                nc = cost + step
                # ``out`` doubles as the set of (node, cost) pairs already reached.
                if nc > budget or out[nc] & bit:
                    continue
                out[nc] |= bit
                if nc < budget and v not in stop_at:
                    nxt.append((v, nc))
        frontier = nxt
    return out


def _simple(
    g: Graph,
    origins: tuple[int, ...],
    budget: int,
    enter: tuple[int, ...],
    skip_cost: tuple[int, ...] | None,
    stop_at: frozenset[int],
    walks: list[int],
    wanted: tuple[int, ...],
) -> frozenset[tuple[int, int]]:
    # Pairs still to confirm: asked for, and reached by some walk (else no path reaches them).
    pending = [w & r for w, r in zip(wanted, walks, strict=True)]
    left = sum(p.bit_count() for p in pending)
    found: list[tuple[int, int]] = []
    seen: set[tuple[int, int, int]] = set()
    balls = balls_of(g, budget)
    links = _links(g, budget)
    stack: list[tuple[int, int, int]] = [(o, 1 << o, 0) for o in origins]
    while stack and left:
        u, mask, cost = stack.pop()
        ball = balls[u]
        rest = budget - cost
        # Go on only while something still pending lies within reach of this partial path and
        # off it (a simple path enters no cell twice); full-length endings first: they are
        # most of what is pending.
        if not pending[budget] & ball[rest] & ~mask:
            for k in range(1, rest):
                if pending[cost + k] & ball[k] & ~mask:
                    break
            else:
                continue
        for v, bit, skipped, v_balls in links[u]:
            if mask & bit:
                continue
            step = enter[v] if skip_cost is None else _edge_cost(v, skipped, enter, skip_cost)
            nc = cost + step
            if nc > budget:
                continue
            if pending[nc] & bit:
                pending[nc] ^= bit
                found.append((v, nc))
                left -= 1
            if nc == budget or v in stop_at:
                continue
            # Only visited cells the rest of the move could still enter matter from here on.
            nmask = (mask | bit) & v_balls[budget - nc]
            key = (v, nc, nmask)
            if key in seen:
                continue
            seen.add(key)
            stack.append((v, nmask | bit, nc))
    return frozenset(found)


Link = tuple[int, int, tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=64)
def _links(g: Graph, budget: int) -> tuple[tuple[Link, ...], ...]:
    """Each node's edges as (target, its bit, ring cells skipped, the target's balls): looked up
    once per city and budget instead of at every visit of an edge."""
    balls = balls_of(g, budget)
    return tuple(tuple((v, 1 << v, skipped, balls[v]) for v, skipped in out) for out in g.edges)


@lru_cache(maxsize=64)
def balls_of(g: Graph, radius: int) -> tuple[tuple[int, ...], ...]:
    """``balls_of(g, R)[n][r]``: bitmask of the nodes reachable from ``n`` in at most ``r``
    moves, for ``r`` from 0 to ``R``."""
    out: list[tuple[int, ...]] = []
    for n in range(len(g.edges)):
        masks = [1 << n]
        frontier = [n]
        mask = 1 << n
        while len(masks) <= radius:
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
