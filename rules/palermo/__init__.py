"""Palermo (Walter Ziser, Piatnik 1992): build a city of houses, then collect income from them.

See ``README.md`` for the action types, the notation and every setup option.
"""

from rules.palermo.engine import PalermoGame

GAME = PalermoGame()

__all__ = ["GAME", "PalermoGame"]
