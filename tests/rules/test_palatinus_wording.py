"""Palatinus words: names in the text view where the view carries them, and the final scores
one line per player."""

from __future__ import annotations

import re

import pytest

from rules.core import RulesError
from rules.palatinus import GAME
from rules.palatinus.state import PalatinusState
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
    # The text view's ranking is a sentence, never "Ana > Bo > Cy".
    final = GAME.describe({**GAME.view(state, None), "names": ["Ana", "Bo", "Cy"]})
    [ranking] = [line for line in final.splitlines() if line.startswith("Ranking: ")]
    assert re.fullmatch(r"Ranking: (Ana|Bo|Cy)( and \w+ share first place| wins); .+\.",
                        ranking), ranking
    assert " > " not in ranking


def _refusal(state: PalatinusState, text: str) -> str:
    with pytest.raises(RulesError) as caught:
        GAME.parse_action(state, state.turn, text)
    return str(caught.value)


def test_a_piece_named_while_tiles_are_laid_gets_the_laying_hint() -> None:
    state = GAME.setup(3, "words-hint")
    message = _refusal(state, "merchant")
    assert "once every tile is laid" in message
    assert f"lay tile {state.current_tile}" in message and "lay 3 r2" in message
    assert "M C4" not in message
    assert "lay 3 r2" in _refusal(state, "hello")


def test_placing_phase_mistakes_get_the_placing_hint_never_the_lay_hint() -> None:
    state = board_state()
    assert state.phase == "placing"
    for text in ("merchant", "", "hello", "lay 3", "3"):
        message = _refusal(state, text)
        assert "M C4" in message and "lay 3" not in message and "ROTATION" not in message
    assert "Name the field" in _refusal(state, "wolf farmer")
    with pytest.raises(RulesError, match="Every tile is laid"):
        GAME.apply(state, state.turn, GAME.parse_action(state, state.turn, "lay 3 r2"))
