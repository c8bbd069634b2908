"""Computer players at four levels, for every game with a heuristic.

    choose(game, state, seat, level, seed) -> Action
    choose_from_snapshot(game_id, snapshot, seat, level, seed) -> Action   (for a process pool)

* ``random``: uniform among the legal actions (``rules.random_player``);
* ``easy``: greedy on the game's own scoring plus its rules of thumb
  (``rules/<game>/heuristic.py``);
* ``normal`` and ``hard``: single-observer information-set search (``search.py``) with the
  heuristic as prior and rollout policy; normal has the smaller budget. Where the heuristic
  says its projection cannot tell the moves apart (``searchable``), they play the easy choice.

Every level first replaces the state by ``game.determinize(state, seat, ...)``, so nothing the
seat cannot see takes part in the decision, which depends only on what the seat sees, the seat,
the level and the seed. Budgets are iterations, so the result does not depend on the machine;
the wall-clock cap per move is a safety net that the default budgets never reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import find_game
from rules.core import Action, Game, RulesError, derive_seed
from rules.players.registry import games_with_players, heuristic_for
from rules.players.search import search
from rules.players.values import greedy
from rules.random_player import UniformRandomPlayer

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Budget",
    "UniformRandomPlayer",
    "budget",
    "choose",
    "choose_from_snapshot",
    "games_with_players",
    "parse_level",
]

LEVELS = ("random", "easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Budget:
    iterations: int
    rollout_depth: int
    cap_seconds: float


# Defaults; a game's heuristic may set its own (iterations, rollout depth) per level.
_DEFAULTS = {"normal": (60, 8), "hard": (240, 8)}
_CAPS = {"normal": 2.0, "hard": 2.0}


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
    return Budget(iterations, depth, _CAPS[level])


def choose(game: Game, state: Any, seat: int, level: str, seed: str) -> Action:
    """The action a computer player at ``level`` takes for ``seat`` (an active seat)."""
    level = parse_level(level)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise RulesError(f"Seat {seat} has nothing to do now.")
    if level == "random" or len(legal) == 1:
        return legal[0] if len(legal) == 1 else UniformRandomPlayer(seed).pick(legal, seat)
    heur = heuristic_for(game.id)
    world = heur.horizon(game.determinize(state, seat, derive_seed("easy", seed)), seat)
    if level == "easy" or not heur.searchable(world):
        return greedy(game, heur, world, seat, legal, seed)
    b = budget(game.id, level)
    return search(game, heur, state, seat, seed, b.iterations, b.rollout_depth, b.cap_seconds)


def choose_from_snapshot(game_id: str, snapshot: dict[str, Any], seat: int, level: str,
                         seed: str) -> Action:
    """``choose`` on a dumped state: plain arguments, for a process pool."""

    game = find_game(game_id)
    return choose(game, game.load(snapshot), seat, level, seed)
