"""Pure game logic for Tabula: the standard library only.

``ENTRIES`` maps a game id to its registry entry (``rules.entry.GameEntry``: the game, its
heuristic and renderer by module name, its words and test facts) and ``GAMES`` to its stateless
``Game`` object. Each game is a subpackage of ``rules`` with an ``entry`` module; the registry
finds them by scanning this package's folders, so adding a game touches no shared file.
"""

from __future__ import annotations

from rules.core import Game, RulesError, quote
from rules.entry import GameEntry
from rules.registry import discover

ENTRIES: dict[str, GameEntry] = discover(__path__, __name__)
GAMES: dict[str, Game] = {game_id: entry.game for game_id, entry in ENTRIES.items()}


def find_game(game_id: str) -> Game:
    """The game with this id, or a RulesError that lists the ids there are."""
    return entry_for(game_id).game


def entry_for(game_id: str) -> GameEntry:
    """The registry entry of a game, or a RulesError that lists the ids there are."""
    try:
        return ENTRIES[game_id]
    except KeyError:
        known = ", ".join(sorted(ENTRIES)) or "none"
        raise RulesError(f"Unknown game {quote(game_id)}. Games: {known}.") from None
