"""Pure game logic for Tabula: the standard library only.

``GAMES`` maps a game id to its stateless ``Game`` object. Each game is a subpackage of ``rules``
that exports ``GAME``; the registry finds them, so adding a game touches no shared file.
"""

from __future__ import annotations

import importlib
import pkgutil

from rules.core import Game, RulesError, quote

GAME_PACKAGES = ("palatinus", "palermo", "hadrians_wall", "minerva")


def _discover() -> dict[str, Game]:
    found: dict[str, Game] = {}
    present = {m.name for m in pkgutil.iter_modules(__path__)}
    for name in GAME_PACKAGES:
        if name not in present:
            continue  # a game not written yet; the registry lists what exists
        game: Game = importlib.import_module(f"rules.{name}").GAME
        found[game.id] = game
    return found


GAMES: dict[str, Game] = _discover()


def find_game(game_id: str) -> Game:
    """The game with this id, or a RulesError that lists the ids there are."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise RulesError(f"Unknown game {quote(game_id)}. Games: {known}.") from None
