"""Hand-made twins for the no-peek tests (``tests/rules/test_players_no_peek.py``): one module
per game that has them, named like its package, found by scanning this folder.

A module holds ``GAME_ID``; ``DEPTHS``, the random decisions before a position is examined;
``twins(state, seat)``, states that differ from ``state`` only in what ``seat`` cannot see,
made without ``determinize``; ``PLANTS``, the peeks planted to show the check catches them;
and optionally ``wait_for(legal)``, where the easy walk goes on until a decision could read a
hidden card. A game without a module here is checked on re-deals by its ``determinize``.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

KITS: dict[str, ModuleType] = {
    module.GAME_ID: module
    for module in (importlib.import_module(f"{__name__}.{info.name}")
                   for info in pkgutil.iter_modules(__path__))
}
