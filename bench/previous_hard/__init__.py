"""The previous release's hard level, frozen for the ladder (not part of the product).

Its search (``search.py``), its budgets (``BUDGETS``) and, for Palermo and Palatinus, its
heuristics (``palermo_heuristic.py``, ``palatinus_heuristic.py``) as they were released; the
other games' heuristics and the greedy choice have not changed since, so they are shared with
the product (faster since, with the same moves).
"""

from __future__ import annotations

from typing import Any

from bench.previous_hard import palatinus_heuristic, palermo_heuristic
from bench.previous_hard.search import run_search
from rules.core import Action, Game, derive_seed
from rules.players import NET_SECONDS, search_clock
from rules.players.registry import Heuristic, _from_module, heuristic_for
from rules.players.values import greedy

# (iterations, rollout depth) of the released hard level, per game.
BUDGETS = {"hadrians-wall": (24, 1), "minerva": (30, 2), "palatinus": (150, 0),
           "palermo": (40, 12)}

_FROZEN = {"palermo": _from_module(palermo_heuristic),
           "palatinus": _from_module(palatinus_heuristic)}


def _heuristic(game_id: str) -> Heuristic:
    return _FROZEN.get(game_id) or heuristic_for(game_id)


def choose(game: Game, state: Any, seat: int, seed: str) -> Action:
    """What the released hard level played for ``seat`` (as ``rules.players.decide`` did)."""
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    heur = _heuristic(game.id)
    world = heur.horizon(game.determinize(state, seat, derive_seed("easy", seed)), seat)
    if not heur.searchable(world):
        return greedy(game, heur, world, seat, legal, seed)
    iterations, depth = BUDGETS[game.id]
    return run_search(game, heur, state, seat, seed, iterations, depth, NET_SECONDS,
                      search_clock).action
