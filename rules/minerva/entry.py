"""Minerva in the game registry."""

from __future__ import annotations

from rules.entry import GameEntry, TestFacts
from rules.minerva import GAME

ENTRY = GameEntry(
    game=GAME,
    heuristic="rules.minerva.heuristic",
    renderer="rendering.minerva",
    finishing_words=("pass", "done"),
    facts=TestFacts(seats=2, midgame_moves=30, hidden=True),
)
