"""The computer player that moves for a seat out of time.

One function, so the levelled players of ``rules.players`` replace the uniform random one in
one line once they land.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action, Game
from rules.random_player import UniformRandomPlayer

PASS_TYPES = ("pass",)


def choose_action(game: Game, state: Any, seat: int, level: str, seed: str) -> Action:
    """Play this seat's turn now at ``level`` (every level is uniform random for now)."""
    del level  # the levelled players take it
    return UniformRandomPlayer(seed).choose(game, state, seat)


def pass_action(game: Game, state: Any, seat: int) -> Action | None:
    """The game's legal pass for this seat now, if it has one."""
    for action in game.legal_actions(state, seat):
        if action.get("type") in PASS_TYPES:
            return action
    return None
