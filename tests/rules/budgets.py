"""Smaller search budgets for tests whose properties do not depend on the budget."""

from __future__ import annotations

import pytest

import rules.players as players
from rules.players import Budget


def cap_budgets(monkeypatch: pytest.MonkeyPatch, iterations: int, depth: int) -> None:
    """Every level searches at most ``iterations`` iterations of rollouts ``depth`` deep."""
    real = players.budget

    def small(game_id: str, level: str) -> Budget:
        b = real(game_id, level)
        return Budget(min(b.iterations, iterations), min(b.rollout_depth, depth), 30.0)

    monkeypatch.setattr(players, "budget", small)
