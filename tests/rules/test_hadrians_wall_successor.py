"""``successor``, the computer players' short ``apply``, reaches the very state ``apply``
reaches for every legal action of every active seat, all game long (and the input state is left
as it was), with the options that change how actions run."""

from __future__ import annotations

import pytest

from rules.hadrians_wall import GAME
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
        action = choose(GAME, state, active[0], "easy", f"successor-{step}")
        state = GAME.apply(state, active[0], action).state
    assert GAME.outcome(state) is not None
    assert compared > 1000
