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


def test_every_move_is_told_as_a_sentence_naming_its_player_once() -> None:
    """"{p0} fills fort 5 (1 builder).", not "{p0}: fort 5 (1 builder)"; "lets 2 attacks
    through", never "attack(s)"; "resolve attack" is not said before its result."""
    state = GAME.setup(3, "sentences", pinned(3))
    rng = Rng("sentences")
    said: list[str] = []
    for _ in range(3000):
        seats = sorted(GAME.active_seats(state))
        if not seats:
            break
        seat = seats[rng.randbelow(len(seats))]
        transition = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        said += [e.text for e in transition.events if e.text]
        state = transition.state
    assert GAME.outcome(state) is not None
    text = "\n".join(said)
    assert "(s)" not in text and "{p0}: " not in text and "resolve attack" not in text
    assert "{p0} fills " in text and "{p0} passes." in text
    for line in said:
        assert line.endswith("."), line
        assert line.count("{p0}") <= 1, line
