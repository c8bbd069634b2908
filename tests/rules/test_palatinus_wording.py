"""Palatinus words: names in the text view where the view carries them, and the final scores
one line per player."""

from __future__ import annotations

from rules.palatinus import GAME
from tests.rules.test_palatinus_helpers import board_state, play_randomly


def test_text_view_uses_names_when_the_view_has_them() -> None:
    state = play_randomly(board_state(), "words", stop=10)
    view = GAME.view(state, None)
    assert "P1" in GAME.describe(view) and "{p" not in GAME.describe(view)
    named = GAME.describe({**view, "names": ["Ana", "Bo", "Cy"]})
    assert "Ana" in named and "Bo" in named
    assert "P1" not in named and "P2" not in named and "{p" not in named


def test_final_scores_come_one_line_per_player() -> None:
    state = board_state()
    last = None
    from rules.random_player import UniformRandomPlayer

    player = UniformRandomPlayer("words-end")
    for _ in range(200):
        if not GAME.active_seats(state):
            break
        seat = state.turn
        transition = GAME.apply(state, seat, player.choose(GAME, state, seat))
        state, last = transition.state, transition
    assert last is not None
    text = next(e.text for e in last.events if e.kind == "game_over")
    lines = text.split("\n")
    assert lines[0] == "Final VP:" and len(lines) == state.players + 2
    assert all(len(line) < 120 for line in lines)
