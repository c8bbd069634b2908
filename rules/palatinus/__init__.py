"""Palatinus (2-5 players): lay the seven hills of Rome, place hidden inhabitants, score A-G.

The rules and notation are described in ``README.md`` beside this file.
"""

from __future__ import annotations

from rules.palatinus.engine import Palatinus

GAME = Palatinus()

__all__ = ["GAME", "Palatinus"]
