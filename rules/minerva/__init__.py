"""Minerva (Hisashi Hayashi) for 1 to 4 players: build a Roman city tile by tile, activate it
from residences, and score culture, glory, temples and money. See README.md for the actions,
the notation and the setup options."""

from rules.minerva.engine import MinervaGame

GAME = MinervaGame()

__all__ = ["GAME", "MinervaGame"]
