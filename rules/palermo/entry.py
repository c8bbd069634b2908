"""Palermo in the game registry."""

from __future__ import annotations

from rules.entry import GameEntry, TestFacts
from rules.palermo import GAME

ENTRY = GameEntry(
    game=GAME,
    heuristic="rules.palermo.heuristic",
    renderer="rendering.palermo",
    facts=TestFacts(seats=3, midgame_moves=30, hidden=False),
)
