"""Pebbles, the test game (``tests/fifth_game/rules/pebbles``), under its short name."""

from tests.fifth_game.rules.pebbles.engine import DEFAULTS, GAME, SHAPES, Pebbles

__all__ = ["DEFAULTS", "GAME", "SHAPES", "Pebbles"]
