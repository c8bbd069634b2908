"""A seeded game of uniform random moves, played to its end, for the renderers' tests: its
first, middle and last states."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules import GAMES
from rules.random_player import UniformRandomPlayer


@cache
def start_middle_end(game_id: str, players: int, tag: str) -> tuple[Any, Any, Any]:
    """The states of the game seeded ``{tag}-{players}``, at its start, middle and end."""
    game = GAMES[game_id]
    state = game.setup(players, f"{tag}-{players}")
    player = UniformRandomPlayer(f"{tag}-{players}")
    states = [state]
    for _ in range(20_000):  # bounded: every game ends far sooner
        active = sorted(game.active_seats(state))
        if not active:
            break
        state = game.apply(state, active[0], player.choose(game, state, active[0])).state
        states.append(state)
    assert not game.active_seats(state), "the seeded game did not end"
    return states[0], states[len(states) // 2], states[-1]
