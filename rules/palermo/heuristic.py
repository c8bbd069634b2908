"""Palermo's computer-player heuristic (see README, "Computer players").

A pawn's worth is its score plus what its remaining errand will cost: the walk through its
remaining doors and home, in rounds at its allowance, is priced at the waiting bonus a round
(what the players already home earn meanwhile). Each collected chip also counts for a point,
since it raises the allowance for the rest of the game.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from heapq import heappop, heappush

from rules.core import Action
from rules.palermo.collecting import city_graph, own_doors
from rules.palermo.components import CORNERS
from rules.palermo.geometry import Geometry
from rules.palermo.movement import Graph
from rules.palermo.state import BUILD, COLLECT, HOUSE, MOVE, OFF, START_TILE, WALK, PalermoState

SCALE = 25.0
# Rollouts of 12 moves: hard ahead of easy in 67.5% of 120 distinct games (5 moves: 48%).
BUDGETS = {"normal": (16, 12), "hard": (60, 12)}
FAR = 60  # a cell no street reaches (counted as a long way round)
# Past this many rounds (games end in 15 to 22) a pawn still out is caught, most likely by
# stones standing in its way: from then on every stone keeps out of the way of every pawn.
# (The pawns once moved at random from here, which sent a pawn 20 steps from home round the
# city for 190 rounds while the players home scored the waiting bonus.)
LOOPING = 30


@lru_cache(maxsize=4096)
def _cell(geo: Geometry, name: str) -> int | None:
    """A cell by name (cached: the choices name every target, and parsing was a fifth of the
    cost of a search)."""
    return geo.parse_cell(name)


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


@dataclass(frozen=True)
class _Way:
    """A rival's next leg (to its nearest door, or home): steps from its pawn, steps left to
    the target, the length of its shortest walk, and how far it gets in its coming turn."""

    from_here: dict[int, int]
    to_target: dict[int, int]
    whole: int
    reach: int


def _ways(state: PalermoState, g: Graph, rivals: list[int]) -> list[_Way]:
    out = []
    for other in rivals:
        doors = own_doors(state, other)
        targets = frozenset(g.start) if state.all_collected(other) or not doors else doors
        to_target = _dist_to(g, targets)
        where = state.pawns[other]
        here = frozenset(g.start) if where == OFF else frozenset((where,))
        whole = min(to_target.get(h, FAR) for h in here)
        out.append(_Way(_dist_from(g, here), to_target, whole, state.allowance(other) + 1))
    return out


def _blocking(ways: list[_Way], cell: int) -> float:
    """How much a stone on ``cell`` is in the rivals' way: for each rival, 1 when the cell lies
    on one of their shortest walks to their next door (or home) within reach of their coming
    turn, less when it lies further along that walk."""
    value = 0.0
    for way in ways:
        near = way.from_here.get(cell)
        if not near or cell not in way.to_target or near + way.to_target[cell] != way.whole:
            continue
        value += 1.0 if near <= way.reach else 0.3
    return value


def _worth_blocking(state: PalermoState, seat: int) -> list[int]:
    """The rivals still out whom the seat's stone should slow down. A seat still out slows
    every one of them. A seat home only those who could still end ahead of it: slowing a pawn
    that cannot catch up only prolongs the game (every seat home earns the same waiting bonus
    meanwhile, so nobody's rank changes), and several stones chasing one pawn kept it out for
    hundreds of rounds. Late in the game (``LOOPING``) no stone chases anyone any more."""
    out = [s for s in range(state.players) if s != seat and not state.is_home(s)]
    if rounds(state) > LOOPING:
        return []
    if not state.is_home(seat) or not out:
        return out
    values = evaluate(state)
    return [s for s in out if values[s] + SCALE >= values[seat]]


def _police_choice(state: PalermoState, seat: int, actions: list[Action]) -> Action:
    """Put the stone where it slows the most rivals worth slowing, unless it already stands as
    well; a stone in the way of nobody worth slowing steps out of everyone's way."""
    g = city_graph(state)
    geo = state.geo
    keep = next((a for a in actions if a["type"] == "keep"), None)
    rivals = [s for s in range(state.players) if s != seat and not state.is_home(s)]
    chosen = _worth_blocking(state, seat)
    ways = _ways(state, g, chosen)
    now = state.police[seat]
    if not chosen:
        # Out of everyone's way: keep the stone if it is, else the first cell that is.
        everyone = _ways(state, g, rivals)
        if keep is not None and (now == OFF or _blocking(everyone, now) == 0):
            return keep
        for action in actions:
            cell = _cell(geo, str(action.get("to", "")))
            if action["type"] == "police" and cell is not None and not _blocking(everyone, cell):
                return action
        return keep if keep is not None else actions[0]
    standing = _blocking(ways, now) if now != OFF else -1.0
    best, best_value = keep, standing if keep is not None else -1.0
    for action in actions:
        if action["type"] != "police":
            continue
        cell = _cell(geo, str(action["to"]))
        if cell is None:
            continue
        value = _blocking(ways, cell)
        if value > best_value + 0.5 or best is None:  # moving must be clearly better
            best, best_value = action, value
    return best if best is not None else actions[0]


# The police choice of recent positions: (state, seat) -> (the actions offered, the index of
# the one chosen). A search meets the same positions again and again (nothing is hidden).
_PICKED: dict[tuple[PalermoState, int], tuple[list[Action], int]] = {}
PICKED_KEPT = 4096


def _police_pick(state: PalermoState, seat: int, actions: list[Action]) -> Action:
    """``_police_choice``, remembered for the same position and actions."""
    key = (state, seat)
    known = _PICKED.get(key)
    if known is not None and known[0] == actions:
        return actions[known[1]]
    choice = _police_choice(state, seat, actions)
    index = next(i for i, a in enumerate(actions) if a is choice)
    if len(_PICKED) >= PICKED_KEPT:
        _PICKED.clear()
    _PICKED[key] = ([dict(a) for a in actions], index)  # a copy: the caller owns its list
    return actions[index]


@lru_cache(maxsize=4096)
def evaluate(state: PalermoState) -> tuple[float, ...]:
    # Cached: nothing is hidden in Palermo, so every sampled world is the real one and a search
    # meets the same positions again and again.
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
    """While the city is built every score is still zero: nothing for a search to compare.
    Past ``LOOPING`` the pawn still out is far behind, its margin squashed flat: every move
    looks alike to a search, which then wandered (3 of 60 games among normal players were
    still going at round 120), so the pawn plans its way home as the easy level does."""
    return state.phase == COLLECT and rounds(state) <= LOOPING


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
    if "police" in kinds or "keep" in kinds:
        return [_police_pick(state, seat, actions)]
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
            cell = _cell(geo, str(a["to"]))
            return (dist.get(cell, FAR) if cell is not None else FAR, -int(a["cost"]))

        return sorted(actions, key=left)[:6]
    return actions
