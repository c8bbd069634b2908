"""Pebbles (2-4 players): a tiny card game with hidden hands; see ``engine.py``. The registry
gets the variant that helps the seat on the move (``helped.py``)."""

from __future__ import annotations

from .engine import Pebbles
from .helped import GAME, HelpedPebbles

__all__ = ["GAME", "HelpedPebbles", "Pebbles"]
