"""Phase 2 decisions (spec 7): where a police stone may go and which moves a pawn has.

A turn is up to two decisions by the same player: first the police stone ("police X" or
"keep"), offered only when the stone may move and has somewhere to go; then the pawn's move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.palermo.city import layout_key
from rules.palermo.components import Config
from rules.palermo.geometry import Geometry
from rules.palermo.movement import Graph, graph, reach
from rules.palermo.state import OFF, PalermoState

BUSINESS, HOME, EXACT, BLOCKED = "business", "home", "exact", "blocked"
ENDINGS = (BUSINESS, HOME, EXACT, BLOCKED)


@dataclass(frozen=True)
class Move:
    to: int
    cost: int
    end: str


def city_graph(state: PalermoState) -> Graph:
    return graph(state.config, state.geo, layout_key(state.tiles))


def budget(state: PalermoState, seat: int) -> int:
    return state.allowance(seat) - state.penalty[seat]


def own_doors(state: PalermoState, seat: int) -> frozenset[int]:
    """Door cells of the seat's businesses whose chip is still on the board."""
    geo, cfg = state.geo, state.config
    out: set[int] = set()
    for space, tile in enumerate(state.tiles):
        if tile is not None and tile.owner == seat and tile.chip:
            kind = cfg.house(tile.kind)
            out.add(geo.space_cells(space)[kind.door_at(tile.rotation)])
    return frozenset(out)


def pawn_cells(state: PalermoState, g: Graph) -> dict[int, set[int]]:
    """Cells holding pawns -> seats there; a pawn that has not moved yet sits on Start/Finish."""
    out: dict[int, set[int]] = {}
    for seat, node in enumerate(state.pawns):
        for cell in (node,) if node != OFF else tuple(g.start):
            out.setdefault(cell, set()).add(seat)
    return out


def legal_moves(state: PalermoState, seat: int) -> tuple[Move, ...]:
    g = city_graph(state)
    return _moves(state, seat, g)


def _moves(state: PalermoState, seat: int, g: Graph) -> tuple[Move, ...]:
    cfg, geo = state.config, state.geo
    total = budget(state, seat)
    origin = state.pawns[seat]
    origins = (origin,) if origin != OFF else tuple(sorted(g.start))
    stones = frozenset(p for s, p in enumerate(state.police) if s != seat and p != OFF)
    going_home = state.all_collected(seat)
    stop_at = g.start if going_home else frozenset()
    found = _reach_cached(cfg, geo, g, origins, total, stones, stop_at)
    doors = own_doors(state, seat)
    occupied = {
        p for s, p in enumerate(state.pawns) if s != seat and p != OFF and p not in g.start
    }
    moves: list[Move] = []
    for node, cost in found:
        if node in stop_at:
            moves.append(Move(node, cost, HOME))
        elif node in occupied:
            continue
        elif node in doors:
            moves.append(Move(node, cost, BUSINESS))
        elif cost == total:
            moves.append(Move(node, cost, EXACT))
    if not moves:
        free = [(n, c) for n, c in found if c < total and n not in occupied]
        if free and cfg.blocked_stop == "largest_cost":
            top = max(c for _, c in free)
            free = [(n, c) for n, c in free if c == top]
        moves = [Move(n, c, BLOCKED) for n, c in free]
        if not moves:
            moves = [Move(origins[0], 0, BLOCKED)]  # hemmed in: the pawn stays put
    rank = {e: i for i, e in enumerate(ENDINGS)}
    return tuple(sorted(moves, key=lambda m: (rank[m.end], m.to, m.cost)))


@lru_cache(maxsize=256)
def _reach_cached(
    cfg: Config,
    geo: Geometry,
    g: Graph,
    origins: tuple[int, ...],
    total: int,
    stones: frozenset[int],
    stop_at: frozenset[int],
) -> frozenset[tuple[int, int]]:
    enter = tuple(2 if n in stones else 1 for n in range(geo.node_count))
    skip = (
        tuple(1 if n in stones else 0 for n in range(geo.node_count))
        if cfg.jumps_pass_over
        else None
    )
    return reach(g, origins, total, enter, skip, stop_at, cfg.simple_paths)


# -------------------------------------------------------------------------------- police


def police_may_move(state: PalermoState, seat: int) -> bool:
    """The stone is neither blocked this turn nor under a pawn (spec 7.5)."""
    if state.frozen[seat]:
        return False
    where = state.police[seat]
    return where == OFF or where not in pawn_cells(state, city_graph(state))


def police_targets(state: PalermoState, seat: int) -> tuple[int, ...]:
    if not police_may_move(state, seat):
        return ()
    return _targets(state, seat, city_graph(state))


def _targets(state: PalermoState, seat: int, g: Graph) -> tuple[int, ...]:
    cfg = state.config
    taken = set(pawn_cells(state, g)) | {p for p in state.police if p != OFF}
    others = [p for s, p in enumerate(state.police) if s != seat and p != OFF]
    near: set[int] = set()
    for stone in others:
        near |= g.steps[stone]
        if cfg.police_spacing == "steps_and_jumps":
            near |= g.jumps[stone]
    out = [
        n
        for n in g.nodes
        if n not in taken
        and n not in near
        and (cfg.police_on_start_finish or n not in g.start)
    ]
    return tuple(out)
