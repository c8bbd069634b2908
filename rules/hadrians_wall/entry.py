"""Hadrian's Wall in the game registry."""

from __future__ import annotations

from rules.core import Action
from rules.entry import GameEntry, TestFacts
from rules.hadrians_wall import GAME


def secret_move(action: Action) -> bool:
    """The Path card kept: chosen face down until the reveal."""
    return bool(action["type"] == "choose")


ENTRY = GameEntry(
    game=GAME,
    heuristic="rules.hadrians_wall.heuristic",
    renderer="rendering.hadrians_wall",
    finishing_words=("pass", "done"),
    facts=TestFacts(seats=2, midgame_moves=30, hidden=True, secret_move=secret_move,
                    narration_seats=3),
)
