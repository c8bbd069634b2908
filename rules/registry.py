"""Finding the games: every subpackage of ``rules`` that holds an ``entry`` module is one.

The scan reads the package folders (``pkgutil``), so a game is added by adding its folder and
no list is edited; packages without an ``entry`` module (``players``) are not imported by it.
A folder scan rather than installed entry points: the shipped games then need no package
metadata (a list in ``pyproject.toml`` to edit for each game), and a game added to a checkout
is found at once, without reinstalling.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable

from rules.entry import GameEntry

ENTRY_MODULE = "entry"


def _declares_a_game(info: pkgutil.ModuleInfo, package: str) -> bool:
    if not info.ispkg:
        return False
    spec = info.module_finder.find_spec(f"{package}.{info.name}", None)
    places = spec.submodule_search_locations if spec is not None else None
    return bool(places) and any(m.name == ENTRY_MODULE for m in pkgutil.iter_modules(places))


def discover(path: Iterable[str], package: str) -> dict[str, GameEntry]:
    """The entries of the game packages found on ``path`` (a package's ``__path__``), by game
    id, in the order of their folder names."""
    found: dict[str, GameEntry] = {}
    infos = sorted(pkgutil.iter_modules(list(path)), key=lambda i: i.name)
    for info in infos:
        if not _declares_a_game(info, package):
            continue
        module = importlib.import_module(f"{package}.{info.name}.{ENTRY_MODULE}")
        entry = module.ENTRY
        if not isinstance(entry, GameEntry):
            raise TypeError(f"{module.__name__}.ENTRY is not a GameEntry")
        if entry.id in found:
            raise ValueError(f"two game packages declare the game id {entry.id!r}")
        found[entry.id] = entry
    return found
