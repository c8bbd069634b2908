"""Computer players at four levels, for every game with a heuristic.

    choose(game, state, seat, level, seed) -> Action
    decide(game, state, seat, level, seed) -> Decision   (the action, and whether the net cut it)
    choose_from_snapshot / decide_from_snapshot(game_id, snapshot, ...)   (for a process pool)

* ``random``: uniform among the legal actions (``rules.random_player``);
* ``easy``: greedy on the game's own scoring plus its rules of thumb
  (``rules/<game>/heuristic.py``);
* ``normal`` and ``hard``: single-observer information-set search (``search.py``) with the
  heuristic as prior and rollout policy; normal has the smaller budget. Where the heuristic
  says its projection cannot tell the moves apart (``searchable``), they play the easy choice.

Every level first replaces the state by ``game.determinize(state, seat, ...)``, so nothing the
seat cannot see takes part in the decision, which depends only on what the seat sees, the seat,
the level and the seed. Budgets are iterations only, so the result does not depend on the
machine or its load. ``NET_SECONDS`` of the searching thread's CPU time is a safety net far above
any normal search; a search it cuts short comes back with ``Decision.capped`` set.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules import find_game
from rules.core import Action, Game, RulesError, derive_seed
from rules.players.registry import games_with_players, heuristic_for
from rules.players.search import run_search
from rules.players.values import greedy
from rules.random_player import UniformRandomPlayer

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "NET_SECONDS",
    "Budget",
    "Decision",
    "UniformRandomPlayer",
    "budget",
    "choose",
    "choose_from_snapshot",
    "decide",
    "decide_from_snapshot",
    "games_with_players",
    "parse_level",
]

LEVELS = ("random", "easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Budget:
    iterations: int
    rollout_depth: int
    net_seconds: float  # safety net only: CPU seconds a search never takes at its budget


@dataclass(frozen=True)
class Decision:
    action: Action
    capped: bool = False  # the safety net cut the search short: the move depends on the machine


# Defaults; a game's heuristic may set its own (iterations, rollout depth) per level.
_DEFAULTS = {"normal": (60, 8), "hard": (240, 8)}
# CPU seconds per decision at these budgets (bench/bench_ladder.py), p95: hard 0.3 to 0.8 in
# every game, the slowest single decision 2.2. Seven times that: only a runaway search reaches it.
NET_SECONDS = 15.0
# The safety net's clock: the searching thread's CPU time (a test may put another in its place).
search_clock: Callable[[], float] = time.thread_time


def parse_level(text: str) -> str:
    """The level named by ``text`` (case and spaces ignored), or a RulesError listing them."""
    level = str(text).strip().lower()
    if level not in LEVELS:
        raise RulesError(f"Unknown level {str(text)[:20]!r}. Levels: {', '.join(LEVELS)}.")
    return level


def budget(game_id: str, level: str) -> Budget:
    """The search budget of a level for a game (``random`` and ``easy`` do not search)."""
    level = parse_level(level)
    if level not in _DEFAULTS:
        return Budget(0, 0, 0.0)
    iterations, depth = heuristic_for(game_id).budgets.get(level, _DEFAULTS[level])
    return Budget(iterations, depth, NET_SECONDS)


def choose(game: Game, state: Any, seat: int, level: str, seed: str) -> Action:
    """The action a computer player at ``level`` takes for ``seat`` (an active seat)."""
    return decide(game, state, seat, level, seed).action


def decide(game: Game, state: Any, seat: int, level: str, seed: str, *, effort: int = 1
           ) -> Decision:
    """``choose``, saying whether the safety net cut a search short (for the caller to count:
    rules/ has no metrics of its own, and in a process pool a counter here would stay in the
    worker). ``effort`` multiplies the level's search budget (the ladder measures what more
    search would give)."""
    level = parse_level(level)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise RulesError(f"Seat {seat} has nothing to do now.")
    if level == "random" or len(legal) == 1:
        return Decision(legal[0] if len(legal) == 1
                        else UniformRandomPlayer(seed).pick(legal, seat))
    heur = heuristic_for(game.id)
    world = heur.horizon(game.determinize(state, seat, derive_seed("easy", seed)), seat)
    if level == "easy" or not heur.searchable(world):
        return Decision(greedy(game, heur, world, seat, legal, seed))
    b = budget(game.id, level)
    found = run_search(game, heur, state, seat, seed, effort * b.iterations, b.rollout_depth,
                       effort * b.net_seconds, search_clock)
    return Decision(found.action, found.capped)


def choose_from_snapshot(game_id: str, snapshot: dict[str, Any], seat: int, level: str,
                         seed: str) -> Action:
    """``choose`` on a dumped state: plain arguments, for a process pool."""
    return decide_from_snapshot(game_id, snapshot, seat, level, seed).action


def decide_from_snapshot(game_id: str, snapshot: dict[str, Any], seat: int, level: str,
                         seed: str) -> Decision:
    """``decide`` on a dumped state: plain arguments, for a process pool."""
    game = find_game(game_id)
    return decide(game, game.load(snapshot), seat, level, seed)
