"""The Minerva heuristic keeps what a city gives per city (``_city_value``): its temple points
must be the game's own (``scoring.breakdown``) for every player of played positions, whatever
resources the player holds, and a kept value the same as one worked out afresh."""

from __future__ import annotations

from rules.core import Action, Rng
from rules.minerva import GAME
from rules.minerva.heuristic import _city_credit, _city_value
from rules.minerva.scoring import breakdown
from rules.minerva.state import MinervaState


def _pick(rng: Rng, legal: list[Action]) -> Action:
    """Temples whenever one can be built, else mostly something other than passing."""
    temples = [a for a in legal if a.get("tile") in GAME.cat.temple_keys]
    if temples:
        return temples[rng.randbelow(len(temples))]
    busy = [a for a in legal if a["type"] not in ("pass", "sell", "done")]
    if busy and rng.randbelow(20):
        return busy[rng.randbelow(len(busy))]
    return legal[rng.randbelow(len(legal))]


def _positions(players: int, seed: str) -> list[MinervaState]:
    state = GAME.setup(players, seed)
    rng = Rng(seed)
    out = []
    for _ in range(3000):  # bounded; a game takes a few hundred steps
        active = GAME.active_seats(state)
        if not active:
            break
        seat = min(active)
        state = GAME.apply(state, seat, _pick(rng, GAME.legal_actions(state, seat))).state
        out.append(state)
    return out


def test_kept_city_values_give_the_games_temple_points() -> None:
    with_temples = 0
    areas: set[str] = set()
    for players in (1, 2, 3, 4):
        for state in (s for k in range(8) for s in _positions(players, f"cities {players} {k}")):
            for p in state.players:
                credit, fixed, by_resource = _city_value(tuple(p.city.items()))
                temples = fixed + sum(vp * p.res[i] for vp, i in by_resource)
                assert temples == breakdown(GAME.cat, state, p)["temples"]
                assert credit == _city_credit(tuple(p.city.values()))
                fresh = _city_value.__wrapped__(tuple(p.city.items()))
                assert (credit, fixed, by_resource) == fresh
                with_temples += temples > 0
                areas |= {GAME.cat.temples[c].area for c in p.city.values()
                          if c in GAME.cat.temples}
    assert areas == {"surround8", "cross", "none"}  # every kind of temple was scored
    assert with_temples > 50  # temples were built and scored: the comparison is not of zeros
