"""The Minerva text notation: round trips, forgiving parsing, clear errors (README notation)."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, InvalidAction, NotYourTurn
from rules.minerva import GAME
from tests.rules.test_minerva_support import code_of, fresh, play, set_city, set_player


def test_every_legal_action_round_trips_in_a_decision_rich_state() -> None:
    # README: format_action / parse_action round-trip every legal action.
    s = fresh(2)
    set_city(s, 0, {(1, 1): "estate", (2, 1): "stall", (3, 1): "colosseum", (4, 1): "villa"})
    set_player(s, 0, res={"grain": 3, "stone": 2})
    s = play(s, 0, "residence 0,1", "activate east")
    seen = set()
    for _ in range(10):  # bounded: the line has four tiles
        if s.current != 0 or not s.stack:
            break
        legal = GAME.legal_actions(s, 0)
        for action in legal:
            text = GAME.format_action(s, action)
            assert GAME.parse_action(s, 0, text) == action, text
            seen.add(action["type"])
        s = GAME.apply(s, 0, legal[0]).state
    assert {"choose", "exchange", "pair", "done", "take", "sell"} <= seen


def test_parsing_is_forgiving_of_case_spacing_and_names() -> None:
    s = fresh(2)
    parse = GAME.parse_action
    assert parse(s, 0, "  BUILD   Wheat Field  1, 0 ") == {
        "type": "build", "tile": "wheat_field", "x": 1, "y": 0,
    }
    temple = s.temples[0]
    key = GAME.cat.temples[temple].key
    assert parse(s, 0, f"build {temple} 0,-1")["tile"] == key
    assert parse(s, 0, f"build {key.removeprefix('temple_of_')} 0,-1")["tile"] == key
    assert parse(s, 0, "N") == {"type": "direction", "dir": "n"}
    assert parse(s, 0, "activate West") == {"type": "direction", "dir": "w"}
    assert parse(s, 0, "take Ore, grain") == {"type": "take", "resources": ["grain", "ore"]}
    assert parse(s, 0, "Residence -1,0") == {"type": "residence", "x": -1, "y": 0}


@pytest.mark.parametrize(
    "text",
    ["", "build 1,0", "build castle 1,0", "fly north", "exchange many", "sell gold",
     "residence here", "activate up", "hire favours", "culture music"],
)
def test_malformed_moves_raise_invalid_action(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_action(fresh(2), 0, text)


def test_illegal_moves_say_what_is_allowed() -> None:
    s = fresh(2)
    with pytest.raises(NotYourTurn):
        GAME.apply(s, 1, {"type": "pass"})
    with pytest.raises(IllegalAction, match="not on offer"):
        play(s, 0, "build colosseum 1,0")
    s.offer.append(code_of("colosseum"))
    with pytest.raises(IllegalAction, match="cannot pay"):
        play(s, 0, "build colosseum 1,0")
    s = play(s, 0, "residence 1,0")
    with pytest.raises(IllegalAction, match="Finish the current step"):
        play(s, 0, "pass")
    with pytest.raises(InvalidAction):
        GAME.apply(s, 0, {"type": "teleport"})
    with pytest.raises(InvalidAction):
        GAME.apply(s, 0, {"kind": "pass"})
    with pytest.raises(InvalidAction, match="no field 'extra'; its fields: dir"):
        GAME.apply(s, 0, {"type": "direction", "dir": "n", "extra": 1})
    with pytest.raises(InvalidAction, match="needs"):
        GAME.apply(s, 0, {"type": "sell"})


def test_describe_and_rules_summary_are_plain_text() -> None:
    s = fresh(3)
    text = GAME.describe(GAME.view(s, None))
    assert "round 1 of 6" in text and "{p0}" in text
    assert "build markets 1,0" in GAME.rules_summary()


def test_choose_with_no_choice_pending_says_so_without_a_hole() -> None:
    from rules.minerva import GAME as MINERVA

    state = MINERVA.setup(2, "choose", None)
    seat = min(MINERVA.active_seats(state))
    with pytest.raises(InvalidAction) as refused:
        MINERVA.parse_action(state, seat, "choose art")
    assert str(refused.value) == "No choice is pending now."
