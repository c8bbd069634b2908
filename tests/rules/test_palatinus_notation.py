"""Notation (README "Notation"): format/parse round trip and forgiving input."""

from __future__ import annotations

import pytest

from rules.core import InvalidAction
from rules.palatinus import GAME
from rules.palatinus.state import PalatinusState
from tests.rules.test_palatinus_helpers import board_state, pinned


def round_trip(state: PalatinusState, seat: int) -> int:
    legal = GAME.legal_actions(state, seat)
    for action in legal:
        text = GAME.format_action(state, action)
        assert GAME.parse_action(state, seat, text) == action, text
    return len(legal)


def test_every_lay_round_trips() -> None:
    state = GAME.setup(3, "x", pinned())
    assert round_trip(state, 0) == 72
    assert GAME.format_action(state, {"type": "lay", "position": 3, "rotation": 2}) == "lay 3 r2"


def test_every_placement_round_trips() -> None:
    state = board_state()
    assert round_trip(state, 0) == 42 * 5
    neutral = board_state(players=2, two_player_extras="neutral")
    assert round_trip(neutral, 0) == 42 * 9
    assert GAME.format_action(state, {"type": "place", "field": "C4", "piece": "Mw"}) == (
        "wolf M C4"
    )
    assert GAME.format_action(state, {"type": "place", "field": "C4", "piece": "xFw"}) == (
        "neutral wolf F C4"
    )


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lay 3 r2", {"type": "lay", "position": 3, "rotation": 2}),
        ("LAY 3 R2", {"type": "lay", "position": 3, "rotation": 2}),
        ("3/2", {"type": "lay", "position": 3, "rotation": 2}),
        ("pos 3 rot 2", {"type": "lay", "position": 3, "rotation": 2}),
        ("rot 2 pos 12", {"type": "lay", "position": 12, "rotation": 2}),
        ("12r5", {"type": "lay", "position": 12, "rotation": 5}),
        ("M C4", {"type": "place", "field": "C4", "piece": "M"}),
        ("c4 merchant", {"type": "place", "field": "C4", "piece": "M"}),
        ("place wolf farmer on b2", {"type": "place", "field": "B2", "piece": "Fw"}),
        ("wM g6", {"type": "place", "field": "G6", "piece": "Mw"}),
        ("Fw  a1", {"type": "place", "field": "A1", "piece": "Fw"}),
        ("wolf-M C4", {"type": "place", "field": "C4", "piece": "Mw"}),
        ("s f2", {"type": "place", "field": "F2", "piece": "S"}),
        ("f f2", {"type": "place", "field": "F2", "piece": "F"}),
        ("neutral wolf merchant d3", {"type": "place", "field": "D3", "piece": "xMw"}),
    ],
)
def test_forgiving_input(text: str, action: dict[str, object]) -> None:
    assert GAME.parse_action(board_state(), 0, text) == action


@pytest.mark.parametrize(
    "text", ["", "lay 3", "M C4 D5", "wolf S C4", "M F C4", "dragon C4", "lay three", "C4"]
)
def test_unreadable_moves_say_how_to_write_one(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_action(board_state(), 0, text)


def test_a_field_that_does_not_exist_is_named_with_the_fields_there_are() -> None:
    state = board_state()
    for typed, field in (("M Z9", "Z9"), ("wolf f c7", "C7"), ("s h1", "H1")):
        with pytest.raises(InvalidAction, match=f"There is no field {field}: fields are A1–G6"):
            GAME.parse_action(state, 0, typed)
