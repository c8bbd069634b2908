"""The short score the computer players read (``sheet_total``) is the final scoring's total,
on every sheet of whole games between easy players (they fill sheets, so Path cards score),
with either forager option."""

from __future__ import annotations

import pytest

from rules.hadrians_wall import GAME
from rules.hadrians_wall.scoring import breakdown, sheet_total
from rules.players import choose

MAX_STEPS = 2000  # a 2-player game is a few hundred steps


@pytest.mark.parametrize("forager", [True, False])
def test_sheet_total_is_the_breakdown_total_all_game(forager: bool) -> None:
    options = {"forager_counts_prefilled": forager}
    state = GAME.setup(2, f"totals-{forager}", options)
    path_points = 0
    for step in range(MAX_STEPS):
        for sheet in state.sheets:
            parts = breakdown(sheet, state.options)
            assert sheet_total(sheet, state.options) == parts["total"]
            path_points = max(path_points, parts["paths"])
        active = GAME.active_seats(state)
        if not active:
            break
        seat = min(active)
        action = choose(GAME, state, seat, "easy", f"totals-{step}")
        state = GAME.apply(state, seat, action).state
    assert GAME.outcome(state) is not None
    assert path_points > 0  # Path cards were scored, not only attributes and Disdain
