"""Pebbles in the game registry. Module names are relative to where the package sits, so the
same folder works inside the tests and copied into ``rules/``."""

from __future__ import annotations

from rules.entry import GameEntry, TestFacts

from . import GAME

ENTRY = GameEntry(
    game=GAME,
    heuristic=f"{__package__}.heuristic",
    renderer="rendering.pebbles",
    finishing_words=("hold",),
    # Four turns each: a two-seat game is over after eight moves.
    facts=TestFacts(seats=2, midgame_moves=7, hidden=True),
)
