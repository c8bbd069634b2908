"""Where computer seats get their moves: one function for every front end and for autopilot.

A decision depends only on what the seat sees, its level and a seed derived from the table's
seed and version, so a replay or a restart after a crash repeats it.
"""

from __future__ import annotations

from bot.values import TableError
from rules.core import Action, Game, State, derive_seed
from rules.random_player import UniformRandomPlayer

LEVELS = {"random": "random moves"}
DEFAULT_LEVEL = "random"


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise TableError("Computer levels: " + ", ".join(f"`{name}`" for name in LEVELS) + ".")
    return level


def decide(game: Game, state: State, seat: int, level: str | None, table_seed: str,
           version: int) -> Action:
    """The computer seat's move at ``level``."""
    seed = derive_seed(table_seed, version, seat)
    return UniformRandomPlayer(seed).choose(game, state, seat)
