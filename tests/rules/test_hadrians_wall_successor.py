"""``successor``, the computer players' short ``apply``, reaches the very state ``apply``
reaches for every legal action of every active seat, all game long (and the input state is left
as it was), with the options that change how actions run. A sheet's copy (``clone_sheet``)
equals it and shares nothing writable with it."""

from __future__ import annotations

import pytest

from rules.hadrians_wall import GAME
from rules.hadrians_wall.state import NESTED_PARTS, Sheet, clone_sheet
from rules.players import choose

MAX_STEPS = 2000  # a game is a few hundred steps


@pytest.mark.parametrize(("players", "options"), [
    (2, {}),
    (3, {"neutral_extra_attacks": "per_player", "favour_prompt": "always",
         "gift_reactivates": False, "market_from_own_card": True}),
])
def test_successor_is_the_state_apply_reaches(players: int, options: dict[str, object]) -> None:
    state = GAME.setup(players, f"successor-{players}", options)
    compared = 0
    for step in range(MAX_STEPS):
        active = sorted(GAME.active_seats(state))
        if not active:
            break
        before = GAME.dump(state)
        for seat in active:
            for action in GAME.legal_actions(state, seat):
                assert GAME.successor(state, seat, action) == GAME.apply(state, seat, action).state
                compared += 1
        assert GAME.dump(state) == before
        for sheet in state.sheets:
            _check_copy(sheet)
        action = choose(GAME, state, active[0], "easy", f"successor-{step}")
        state = GAME.apply(state, active[0], action).state
    assert GAME.outcome(state) is not None
    assert compared > 1000


def _containers(value: object) -> list[object]:
    """Every list and dict in a JSON-like value, itself included."""
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in _containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in _containers(v))]
    return []


def _check_copy(sheet: Sheet) -> None:
    for key, value in sheet.items():
        if key not in NESTED_PARTS:  # flat: its copy is a flat copy
            assert len(_containers(value)) <= 1, key
    copy = clone_sheet(sheet)
    assert copy == sheet
    shared = {id(c) for c in _containers(sheet)} & {id(c) for c in _containers(copy)}
    assert not shared
