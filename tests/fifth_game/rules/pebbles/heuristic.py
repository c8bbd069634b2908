"""Pebbles' computer players: the score played so far, and high cards first."""

from __future__ import annotations

from typing import Any

from rules.core import Action

SCALE = 5.0


def evaluate(state: Any) -> tuple[float, ...]:
    """Each seat's total, plus half of what it still holds (it may play one more card)."""
    return tuple(sum(played) + 0.5 * max(hand, default=0)
                 for played, hand in zip(state["played"], state["hands"], strict=True))


def candidates(state: Any, seat: int, actions: list[Action]) -> list[Action]:
    """The highest card first; holding last."""
    return sorted(actions, key=lambda a: -a.get("card", 0))
