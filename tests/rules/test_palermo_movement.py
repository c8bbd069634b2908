"""The move search against a plain enumeration of every simple path (spec 7.3, 7.4).

The engine's search merges partial paths and stops early; here every simple path from the pawn
is walked one by one, and the endings are classified straight from the rules. Both must offer
exactly the same moves on states taken from seeded random games.
"""

from __future__ import annotations

from rules.core import Rng
from rules.palermo import GAME
from rules.palermo.collecting import (
    BLOCKED,
    BUSINESS,
    EXACT,
    HOME,
    budget,
    city_graph,
    legal_moves,
    own_doors,
)
from rules.palermo.state import COLLECT, MOVE, OFF, PalermoState


def enumerate_endings(state: PalermoState, seat: int) -> set[tuple[int, int, str]]:
    g = city_graph(state)
    total = budget(state, seat)
    stones = {p for s, p in enumerate(state.police) if s != seat and p != OFF}
    origin = state.pawns[seat]
    origins = [origin] if origin != OFF else sorted(g.start)
    home = set(g.start) if state.all_collected(seat) else set()
    reached: set[tuple[int, int]] = set()

    def walk(node: int, visited: set[int], cost: int) -> None:
        for target, _ in g.edges[node]:
            if target in visited:
                continue
            spent = cost + (2 if target in stones else 1)
            if spent > total:
                continue
            reached.add((target, spent))
            if target not in home and spent < total:
                visited.add(target)
                walk(target, visited, spent)
                visited.discard(target)

    for start in origins:
        walk(start, {start}, 0)
    doors = own_doors(state, seat)
    others = {p for s, p in enumerate(state.pawns) if s != seat and p != OFF}
    free = {n for n, _ in reached if n in g.start or n not in others}
    out: set[tuple[int, int, str]] = set()
    for node, cost in reached:
        if node in home:
            out.add((node, cost, HOME))
        elif node in free and node in doors:
            out.add((node, cost, BUSINESS))
        elif node in free and cost == total:
            out.add((node, cost, EXACT))
    if out:
        return out
    short = [(n, c) for n, c in reached if c < total and n in free]
    top = max((c for _, c in short), default=None)
    return {(n, c, BLOCKED) for n, c in short if c == top}


def sample_states(players: int, seed: str, limit: int) -> list[PalermoState]:
    """Move decisions from a seeded random game whose budget keeps the enumeration small."""
    state = GAME.setup(players, seed)
    pick = Rng(f"movement-{seed}")
    found: list[PalermoState] = []
    for _ in range(5_000):
        if not GAME.active_seats(state) or len(found) >= limit:
            break
        if state.phase == COLLECT and state.step == MOVE and budget(state, state.turn) <= 8:
            found.append(state)
        legal = GAME.legal_actions(state, state.turn)
        state = GAME.apply(state, state.turn, legal[pick.randbelow(len(legal))]).state
    return found


def test_the_search_offers_exactly_the_moves_simple_paths_allow() -> None:
    checked = 0
    for players, seed in ((3, "m1"), (4, "m2"), (5, "m3")):
        for state in sample_states(players, seed, 25):
            seat = state.turn
            engine = {(m.to, m.cost, m.end) for m in legal_moves(state, seat)}
            assert engine == enumerate_endings(state, seat), (players, seed, state.turns)
            checked += 1
    assert checked >= 40
