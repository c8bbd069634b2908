"""Phase 2 decisions (spec 7): where a police stone may go and which moves a pawn has.

A turn is a short sequence of decisions by the same player (see README.md): the police stone
("police X" or "keep", offered only when the stone may move and has somewhere to go), then the
pawn. When the pawn can stop at one of its businesses or get home, it first chooses such a
stop or "walk on"; the full-length moves come after "walk on". Otherwise it picks its move at
once.
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
    """Every move of the seat's pawn this turn: stops (business, home) and full moves (exact),
    or, when none of those exists, the blocked stops."""
    cfg, geo, g = state.config, state.geo, city_graph(state)
    total = budget(state, seat)
    origin = state.pawns[seat]
    origins = (origin,) if origin != OFF else tuple(sorted(g.start))
    if total <= 0:
        return (Move(origins[0], 0, BLOCKED),)
    stones = frozenset(p for s, p in enumerate(state.police) if s != seat and p != OFF)
    going_home = state.all_collected(seat)
    home = g.start if going_home else frozenset()
    doors = own_doors(state, seat)
    occupied = {
        p for s, p in enumerate(state.pawns) if s != seat and p != OFF and p not in g.start
    }
    free = _mask(g.nodes) & ~_mask(occupied)
    stop_mask = (free & _mask(doors)) | _mask(home)
    plain = free & ~_mask(doors) & ~_mask(home)
    wanted = (0,) + (stop_mask,) * (total - 1) + (stop_mask | plain,)
    found = _reach_cached(cfg, geo, g, origins, total, stones, home, wanted)
    moves = [
        Move(n, c, HOME if n in home else BUSINESS if n in doors else EXACT) for n, c in found
    ]
    if not moves:
        wanted = (0,) + (plain,) * (total - 1) + (0,)
        found = _reach_cached(cfg, geo, g, origins, total, stones, home, wanted)
        if found and cfg.blocked_stop == "largest_cost":
            top = max(c for _, c in found)
            found = frozenset((n, c) for n, c in found if c == top)
        moves = [Move(n, c, BLOCKED) for n, c in found]
        if not moves:
            moves = [Move(origins[0], 0, BLOCKED)]  # hemmed in: the pawn stays put
    rank = {e: i for i, e in enumerate(ENDINGS)}
    return tuple(sorted(moves, key=lambda m: (rank[m.end], m.to, m.cost)))


def is_stop(move: Move) -> bool:
    return move.end in (BUSINESS, HOME)


def _mask(nodes: frozenset[int] | set[int] | tuple[int, ...]) -> int:
    out = 0
    for n in nodes:
        out |= 1 << n
    return out


@lru_cache(maxsize=256)
def _reach_cached(
    cfg: Config,
    geo: Geometry,
    g: Graph,
    origins: tuple[int, ...],
    total: int,
    stones: frozenset[int],
    home: frozenset[int],
    wanted: tuple[int, ...],
) -> frozenset[tuple[int, int]]:
    enter = tuple(2 if n in stones else 1 for n in range(geo.node_count))
    skip = (
        tuple(1 if n in stones else 0 for n in range(geo.node_count))
        if cfg.jumps_pass_over
        else None
    )
    return reach(g, origins, total, enter, skip, home, wanted, cfg.simple_paths)


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
