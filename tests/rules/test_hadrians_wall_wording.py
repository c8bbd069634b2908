"""Hadrian's Wall words: an attack's result says Valour and Disdain once."""

from __future__ import annotations

from rules.core import Rng
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
