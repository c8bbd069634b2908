"""Hadrian's Wall words: an attack's result says Valour and Disdain once."""

from __future__ import annotations

import pytest

from rules.core import Rng, RulesError
from rules.hadrians_wall import GAME
from tests.rules.test_hadrians_wall_kit import pinned


def test_defence_text_does_not_repeat_itself() -> None:
    state = GAME.setup(3, "words", pinned(3))
    rng = Rng("words")
    seen = 0
    for _ in range(3000):
        seats = sorted(GAME.active_seats(state))
        if not seats or state.year > 3:
            break
        seat = seats[rng.randbelow(len(seats))]
        legal = GAME.legal_actions(state, seat)
        transition = GAME.apply(state, seat, legal[rng.randbelow(len(legal))])
        for event in transition.events:
            if event.kind == "defence":
                seen += 1
                assert event.text.count("disdain") == 1, event.text
                assert event.text.count("valour") == 1, event.text
        state = transition.state
    assert seen >= 3


def test_choosing_a_path_card_not_held_lists_only_the_two_drawn() -> None:
    state = GAME.setup(2, "words", pinned(2))
    drawn = state.sheets[0]["drawn"]
    with pytest.raises(RulesError) as caught:
        GAME.parse_action(state, 0, "choose path wizard")
    message = str(caught.value)
    assert message == f"Say which Path card: {drawn[0]} or {drawn[1]}."


def test_filling_a_temple_box_with_no_temple_says_to_build_one() -> None:
    state = GAME.setup(2, "words", pinned(2))
    for seat in (0, 1):
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state
    assert "temple_small" not in state.sheets[0]["built"]
    with pytest.raises(RulesError) as caught:
        GAME.parse_action(state, 0, "temple small 1")
    message = str(caught.value)
    assert "worker" not in message and "no temple box to fill" in message
    assert "'build small temple'" in message
    assert GAME.parse_action(state, 0, "build small temple")["building"] == "temple_small"
