"""Helpers of the no-peek tests: moving hidden items about, and planting peeks in a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from rules.core import Game

Plant = Callable[[pytest.MonkeyPatch, Game], None]


@dataclass(frozen=True)
class PlantedPeek:
    """A peek planted in a game, and the levels whose choices it must change somewhere."""

    name: str
    plant: Plant
    levels: tuple[str, ...]
    real_budget: bool = False  # looked for with the game's real search budget


def moved(items: list[Any], turn: int) -> list[Any]:
    """Rotated by one, or reversed: either way most hidden items change place."""
    if len(items) < 2:
        return items
    return items[1:] + items[:1] if turn > 0 else items[::-1]


def true_state_determinize(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    monkeypatch.setattr(type(game), "determinize", lambda self, state, seat, seed: state)


def keeping(monkeypatch: pytest.MonkeyPatch, game: Game, keep: Callable[[Any, Any], Any]
            ) -> None:
    """``determinize`` that hands back part of the true state (``keep(world, state)``)."""
    real = type(game).determinize

    def leaky(self: Any, state: Any, seat: int | None, seed: str) -> Any:
        return keep(real(self, state, seat, seed), state)

    monkeypatch.setattr(type(game), "determinize", leaky)
