"""Hadrian's Wall (Garphill Games): 1-6 players, six Years of simultaneous building and defence.

See README.md for the action types, the text notation and the setup options.
"""

from rules.hadrians_wall.engine import GAME, HadriansWall

__all__ = ["GAME", "HadriansWall"]
