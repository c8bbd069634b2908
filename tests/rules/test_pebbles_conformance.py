"""The conformance machinery, exercised on the test game (and shown to catch a broken one)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.conformance import ConformanceError, check_determinism, check_playout
from rules.core import Transition
from tests.pebbles import GAME, Pebbles


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_pebbles_keeps_the_contract(players: int, seed: str) -> None:
    playout = check_playout(GAME, players, seed)
    check_determinism(GAME, players, seed, playout.actions)
    assert GAME.outcome(playout.final) is not None
    assert playout.steps == 4 * players


class Mutating(Pebbles):
    """Breaks the contract: apply changes its input."""

    def apply(self, state: Any, seat: int, action: dict[str, Any]) -> Transition:
        result = super().apply(state, seat, action)
        state["turns_left"] = result.state["turns_left"]
        return result


class Peeking(Pebbles):
    """Breaks the contract: the public view shows every hand."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        out["hands"] = copy.deepcopy(state["hands"])
        return out


class Lax(Pebbles):
    """Breaks the contract: apply ignores keys it does not know and takes true for card 1."""

    def check_shape(self, action: Any) -> dict[str, Any]:
        return dict(action)


def test_conformance_catches_apply_mutating_its_input() -> None:
    with pytest.raises(ConformanceError, match="mutated"):
        check_playout(Mutating(), 2, "x")


def test_conformance_catches_a_view_that_leaks_hidden_cards() -> None:
    with pytest.raises(ConformanceError, match="determinize changed the view"):
        check_playout(Peeking(), 3, "x")


def test_conformance_catches_apply_accepting_what_legal_actions_does_not_list() -> None:
    with pytest.raises(ConformanceError, match="apply accepted an unknown key"):
        check_playout(Lax(), 2, "x")
