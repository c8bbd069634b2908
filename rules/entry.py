"""What a game package declares about itself: one ``GameEntry`` in ``rules/<game>/entry.py``.

The entry holds the game and names (as dotted module paths, imported only when asked for) its
computer-player heuristic and its renderer, so ``rules`` never imports a layer above it. It also
carries the game's words for the front end and the facts the per-game tests read, so a new game
is covered by every shared test without editing one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.core import Action, Game


@dataclass(frozen=True)
class TestFacts:
    """Facts about a game that the shared tests need and cannot read from the contract."""

    __test__ = False  # a plain value, not a test class for pytest to collect

    seats: int
    """The table size the per-game tests play at."""
    midgame_moves: int
    """Random moves after which a game at the tests' table sizes is still on (for the seeds
    the tests use): tests that stop a game midway stop there at the latest, and tests that
    count moves of a whole game expect no more."""
    hidden: bool
    """Something is hidden from some seat (hands, deck order): the no-peek tests run."""
    secret_move: Callable[[Action], bool] | None = None
    """Whether a move's choice is kept from the other players (a card chosen face down), for
    a game that has such moves; other moves are public as made."""
    narration_seats: int | None = None
    """The table size of the test of what a move tells others, where it differs from
    ``seats``."""


@dataclass(frozen=True)
class GameEntry:
    """One game in the registry, and everything that hangs off it."""

    game: Game
    facts: TestFacts
    heuristic: str | None = None
    """The module of the computer players' heuristic (``rules/players/registry.py`` says what
    it holds), or None for a game without computer players."""
    renderer: str | None = None
    """The module that draws the game's views (``rendering`` says what it holds), or None."""
    finishing_words: tuple[str, ...] = ()
    """First words of the moves that finish a turn or a part of it ("pass", "done"): a move
    menu too long to show whole offers these beside the player's usual moves."""

    @property
    def id(self) -> str:
        return self.game.id
