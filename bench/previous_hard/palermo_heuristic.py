"""The previous release's Palermo heuristic, frozen for the ladder's ``previous`` level (a
copy of rules/palermo/heuristic.py as it was released; do not edit).

A pawn's worth is its score plus what its remaining errand will cost: the walk through its
remaining doors and home, in rounds at its allowance, is priced at the waiting bonus a round
(what the players already home earn meanwhile). Each collected chip also counts for a point,
since it raises the allowance for the rest of the game.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from heapq import heappop, heappush

from rules.core import Action, Rng, derive_seed
from rules.palermo.collecting import city_graph, own_doors
from rules.palermo.components import CORNERS
from rules.palermo.movement import Graph
from rules.palermo.state import BUILD, COLLECT, HOUSE, MOVE, OFF, START_TILE, WALK, PalermoState

SCALE = 25.0
# Rollouts of 12 moves: hard ahead of easy in 67.5% of 120 distinct games (5 moves: 48%).
BUDGETS = {"normal": (16, 12), "hard": (40, 12)}
FAR = 60  # a cell no street reaches (counted as a long way round)
# Past this many rounds (games end in 15 to 22) a pawn is caught in a loop: the stones of the
# players home keep stepping into its way (its being out pays them the waiting bonus), or its
# exact moves go round a few cells. From then on stones and pawn move at random, picked by the
# turn count (which everyone sees), which breaks the loop.
LOOPING = 30


@lru_cache(maxsize=8)
def _reverse(g: Graph) -> tuple[tuple[int, ...], ...]:
    back: list[list[int]] = [[] for _ in g.edges]
    for node, edges in enumerate(g.edges):
        for target, _ in edges:
            back[target].append(node)
    return tuple(tuple(b) for b in back)


@lru_cache(maxsize=1024)  # a dict of about 130 cells each (5 KiB): 5 MiB at most
def _cost_to(g: Graph, targets: frozenset[int], police: frozenset[int]) -> dict[int, int]:
    """Points from every node to the nearest target: a step or a jump costs one, entering a
    cell with a rival's police stone one more (spec 7.3). Counting steps alone, a pawn kept
    choosing ways through stones it could not pay for, and circled."""
    if not police:
        return _dist_to(g, targets)
    back = _reverse(g)
    dist = dict.fromkeys(targets, 0)
    heap = [(0, t) for t in sorted(targets)]
    while heap:
        d, node = heappop(heap)
        if d > dist[node]:
            continue
        entering = d + 1 + (node in police)
        for prev in back[node]:
            if entering < dist.get(prev, entering + 1):
                dist[prev] = entering
                heappush(heap, (entering, prev))
    return dist


def _rival_police(state: PalermoState, seat: int) -> frozenset[int]:
    return frozenset(p for s, p in enumerate(state.police) if s != seat and p != OFF)


@lru_cache(maxsize=512)
def _dist_to(g: Graph, targets: frozenset[int]) -> dict[int, int]:
    """Steps from every node to the nearest target (each step or jump counts one)."""
    back = _reverse(g)
    dist = dict.fromkeys(targets, 0)
    queue = deque(targets)
    while queue:
        node = queue.popleft()
        for prev in back[node]:
            if prev not in dist:
                dist[prev] = dist[node] + 1
                queue.append(prev)
    return dist


def _errand(state: PalermoState, g: Graph, seat: int) -> int:
    """Points of a nearest-first walk through the seat's remaining doors, then home."""
    where = state.pawns[seat]
    here = frozenset(g.start) if where == OFF else frozenset((where,))
    doors = set(own_doors(state, seat))
    police = _rival_police(state, seat)
    steps = 0
    while doors:
        best = min(sorted(doors), key=lambda d: min(
            _cost_to(g, frozenset((d,)), police).get(h, FAR) for h in here))
        steps += min(_cost_to(g, frozenset((best,)), police).get(h, FAR) for h in here)
        doors.discard(best)
        here = frozenset((best,))
    home = _cost_to(g, frozenset(g.start), police)
    return steps + min(home.get(h, FAR) for h in here)


@lru_cache(maxsize=512)
def _dist_from(g: Graph, sources: frozenset[int]) -> dict[int, int]:
    """Steps from the nearest source to every node (each step or jump counts one)."""
    dist = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        node = queue.popleft()
        for target, _ in g.edges[node]:
            if target not in dist:
                dist[target] = dist[node] + 1
                queue.append(target)
    return dist


def _blocking(state: PalermoState, g: Graph, seat: int, cell: int) -> float:
    """How much a stone on ``cell`` is in the rivals' way: for each rival still out, 1 when the
    cell lies on one of their shortest walks to their next door (or home) within reach of their
    coming turn, less when it lies further along that walk."""
    value = 0.0
    for other in range(state.players):
        if other == seat or state.is_home(other):
            continue
        doors = own_doors(state, other)
        targets = frozenset(g.start) if state.all_collected(other) or not doors else doors
        to_target = _dist_to(g, targets)
        where = state.pawns[other]
        here = frozenset(g.start) if where == OFF else frozenset((where,))
        from_here = _dist_from(g, here)
        if cell not in from_here or cell not in to_target:
            continue
        whole = min(to_target.get(h, FAR) for h in here)
        if from_here[cell] + to_target[cell] != whole or from_here[cell] == 0:
            continue
        value += 1.0 if from_here[cell] <= state.allowance(other) + 1 else 0.3
    return value


def _police_choice(state: PalermoState, seat: int, actions: list[Action]) -> Action:
    """Put the stone where it slows the most rivals, unless it already stands as well."""
    g = city_graph(state)
    geo = state.geo
    keep = next((a for a in actions if a["type"] == "keep"), None)
    now = state.police[seat]
    standing = _blocking(state, g, seat, now) if now != OFF else -1.0
    best, best_value = keep, standing if keep is not None else -1.0
    for action in actions:
        if action["type"] != "police":
            continue
        cell = geo.parse_cell(str(action["to"]))
        if cell is None:
            continue
        value = _blocking(state, g, seat, cell)
        if value > best_value + 0.5 or best is None:  # moving must be clearly better
            best, best_value = action, value
    return best if best is not None else actions[0]


def evaluate(state: PalermoState) -> tuple[float, ...]:
    n = state.players
    if state.phase != COLLECT:
        return tuple(float(state.score(s)) for s in range(n))
    g = city_graph(state)
    rate = state.config.bonus(n)
    out = []
    for seat in range(n):
        value = float(state.score(seat) + state.collected[seat])
        if not state.is_home(seat):
            left = state.chips_total() - state.collected[seat] - state.lost[seat]
            speed = state.allowance(seat) + left / 2
            value -= rate * _errand(state, g, seat) / speed
        out.append(value)
    return tuple(out)


def searchable(state: PalermoState) -> bool:
    """While the city is built every score is still zero: nothing for a search to compare."""
    return state.phase == COLLECT


def rounds(state: PalermoState) -> int:
    return -(-state.turns // state.players)


def _door_cell(state: PalermoState, action: Action) -> int:
    geo = state.geo
    space = geo.parse_space(str(action["space"]))
    assert space is not None
    return geo.space_cells(space)[CORNERS.index(str(action["door"]).upper())]


def _manhattan(state: PalermoState, a: int, b: int) -> int:
    (ax, ay), (bx, by) = state.geo.xy(a), state.geo.xy(b)
    return abs(ax - bx) + abs(ay - by)


def _build_order(state: PalermoState, seat: int, actions: list[Action]) -> list[Action]:
    """Doors close to Start/Finish and to one's other doors, and on the bypass if possible."""
    geo = state.geo
    start = [i for i, t in enumerate(state.tiles) if t is not None and t.kind == "SF"]
    sf = geo.space_cells(start[0]) if start else ()
    mine = list(own_doors(state, seat))
    edge = geo.cells - 1

    def cost(action: Action) -> float:
        door = _door_cell(state, action)
        x, y = geo.xy(door)
        c = float(min((_manhattan(state, door, s) for s in sf), default=0))
        c += 0.7 * min((_manhattan(state, door, m) for m in mine), default=0)
        if x in (0, edge) or y in (0, edge):
            c -= 2  # a door on the bypass: fast to reach from anywhere
        return c

    return sorted(actions, key=cost)[:6]


def _start_order(state: PalermoState, actions: list[Action]) -> list[Action]:
    """Start/Finish in the middle: every door is built round it."""
    geo = state.geo
    mid = (geo.grid - 1) / 2

    def off(action: Action) -> float:
        space = geo.parse_space(str(action["space"]))
        assert space is not None
        return abs(space % geo.grid - mid) + abs(space // geo.grid - mid)

    return sorted(actions, key=off)[:4]


def candidates(state: PalermoState, seat: int, actions: list[Action]) -> list[Action]:
    if len(actions) <= 1:
        return actions
    if state.phase == BUILD:
        return (_start_order(state, actions) if state.step == START_TILE
                else _build_order(state, seat, actions) if state.step == HOUSE else actions)
    kinds = {a["type"] for a in actions}
    if ("police" in kinds or "keep" in kinds) and rounds(state) > LOOPING:
        # A pawn still out this late is caught: chased by the stones of players home (its
        # being out pays them), or going round a few cells its exact moves cannot leave. The
        # stones then stand anywhere, which changes what its moves cost, and it gets out.
        return [Rng(derive_seed("loop police", state.turns, seat)).choice(actions)]
    if "police" in kinds or "keep" in kinds:
        return [_police_choice(state, seat, actions)]
    if state.step in (MOVE, WALK) and rounds(state) > LOOPING:
        return [Rng(derive_seed("loop", state.turns)).choice(actions)]
    if state.step == MOVE and any(a.get("end") in ("home", "business") for a in actions):
        # Stop whenever possible: home first, then the business that leaves the most points.
        stops = [a for a in actions if a.get("end") in ("home", "business")]
        stops.sort(key=lambda a: (a["end"] != "home", a["cost"]))
        return stops[:3] + [a for a in actions if a["type"] == "walk_on"]
    if state.step in (MOVE, WALK):
        g = city_graph(state)
        doors = own_doors(state, seat)
        targets = frozenset(g.start) if state.all_collected(seat) or not doors else doors
        dist = _cost_to(g, targets, _rival_police(state, seat))
        geo = state.geo

        def left(a: Action) -> tuple[int, int]:
            cell = geo.parse_cell(str(a["to"]))
            return (dist.get(cell, FAR) if cell is not None else FAR, -int(a["cost"]))

        return sorted(actions, key=left)[:6]
    return actions
