"""Palatinus in the game registry."""

from __future__ import annotations

from rules.core import Action
from rules.entry import GameEntry, TestFacts
from rules.palatinus import GAME
from rules.palatinus.components import is_wolf


def secret_move(action: Action) -> bool:
    """A piece placed under a wolf: others see the wolf, not the kind."""
    return action["type"] == "place" and is_wolf(action["piece"])


ENTRY = GameEntry(
    game=GAME,
    heuristic="rules.palatinus.heuristic",
    renderer="rendering.palatinus",
    facts=TestFacts(seats=3, midgame_moves=30, hidden=True, secret_move=secret_move),
)
