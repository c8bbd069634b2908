"""Hadrian's Wall's parse errors quote what the player typed."""

from __future__ import annotations

import pytest

from rules.core import InvalidAction
from rules.hadrians_wall import GAME


@pytest.mark.parametrize("typed", ["Z9", "M Z9", "H9 A1 door SW"])
def test_an_unknown_move_quotes_the_word_as_typed(typed: str) -> None:
    state = GAME.setup(2, "typed", None)
    seat = min(GAME.active_seats(state))
    with pytest.raises(InvalidAction) as refused:
        GAME.parse_action(state, seat, typed)
    assert str(refused.value).startswith(f"Unknown move '{typed.split()[0]}'. Moves start with:")
