"""A computer player that picks uniformly among the legal actions, from its own seeded generator.

It sees only what ``legal_actions`` offers its seat, so it never peeks at hidden information.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import Action, Game, Rng


class UniformRandomPlayer:
    """Seeded: the same seed and the same states give the same choices."""

    def __init__(self, seed: str) -> None:
        self._rng = Rng(seed)

    def choose(self, game: Game, state: Any, seat: int) -> Action:
        return self.pick(game.legal_actions(state, seat), seat)

    def pick(self, actions: Sequence[Action], seat: int) -> Action:
        """One of ``actions`` (the seat's legal actions, already listed by the caller)."""
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return actions[self._rng.randbelow(len(actions))]
