"""Palermo's notation, data files and setup options."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core import InvalidAction
from rules.palermo import GAME
from rules.palermo.components import DATA_DIR, default_options, make_config
from rules.palermo.state import POLICE
from tests.rules.test_palermo_fixtures import CORRIDOR, collecting_state, house

EXAMPLES = [
    ({"type": "start", "space": "C3"}, "SF C3"),
    ({"type": "build", "kind": "H2", "space": "C4", "door": "SW"}, "H2 C4 door SW"),
    ({"type": "police", "to": "e5"}, "police e5"),
    ({"type": "police", "to": "r27"}, "police r27"),
    ({"type": "keep"}, "keep"),
    ({"type": "walk_on"}, "walk on"),
    ({"type": "move", "to": "d4", "cost": 3, "end": "business"}, "move d4 cost 3 business"),
]


@pytest.mark.parametrize(("action", "text"), EXAMPLES)
def test_notation_round_trip(action: dict[str, Any], text: str) -> None:
    # README: format_action writes the documented form and parse_action reads it back.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d7"})
    assert GAME.format_action(state, action) == text
    assert GAME.parse_action(state, 0, text) == action


def test_parsing_forgives_case_spacing_and_filler_words() -> None:
    state = collecting_state(houses=CORRIDOR, pawns={0: "d7"})
    assert GAME.parse_action(state, 0, "  h2   c4 SW ") == {
        "type": "build", "kind": "H2", "space": "C4", "door": "SW"
    }
    assert GAME.parse_action(state, 0, "Move to D4, cost 3 (business)") == {
        "type": "move", "to": "d4", "cost": 3, "end": "business"
    }
    assert GAME.parse_action(state, 0, "start tile b2") == {"type": "start", "space": "B2"}
    assert GAME.parse_action(state, 0, "skip") == {"type": "keep"}


def test_a_move_may_leave_out_cost_and_ending_when_one_fits() -> None:
    state = collecting_state(houses={**CORRIDOR, "B2": house("H3", "SE", 0)}, pawns={0: "d7"})
    assert GAME.parse_action(state, 0, "d4") == {
        "type": "move", "to": "d4", "cost": 3, "end": "business"
    }
    with pytest.raises(InvalidAction):
        GAME.parse_action(state, 0, "move q99")


def test_a_bare_cell_during_the_police_decision_places_the_stone() -> None:
    state = collecting_state(houses=CORRIDOR, pawns={0: "d7"}, step=POLICE)
    assert GAME.parse_action(state, 0, "k10") == {"type": "police", "to": "k10"}


def test_every_legal_action_round_trips_through_its_text() -> None:
    state = GAME.setup(4, "notation", {"first_player": 0})
    for _ in range(3):
        seat = state.turn
        for action in GAME.legal_actions(state, seat):
            assert GAME.parse_action(state, seat, GAME.format_action(state, action)) == action
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state


def test_the_data_files_load_and_validate() -> None:
    # rules/palermo/data/*.json: the spec's default design choices (spec 3, 4, 12).
    options = default_options()
    cfg = make_config(options)
    assert cfg.grid_tiles == 6 and cfg.ring_spaces_per_side == 12
    assert {k.name: k.count for k in cfg.houses} == {"H1": 12, "H2": 12, "H3": 12}
    assert cfg.street_tiles == 3 and cfg.chips(3) == 11 and cfg.chips(4) == 8
    assert cfg.chips(5) == 7 and cfg.bonus(3) == 5 and cfg.bonus(5) == 3
    for path in DATA_DIR.glob("*.json"):
        assert isinstance(json.loads(path.read_text(encoding="utf-8")), dict)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"grid_tiles": 2}, "grid_tiles"),
        ({"houses": {"H1": {"roof": ["NW"], "door": "NW", "count": 12}}}, "street corner"),
        ({"houses": {"H1": {"roof": ["NW"], "door": "SE", "count": 40}}}, "share an edge"),
        ({"houses": {"H1": {"roof": ["NW", "NE", "SE", "SW"], "door": "SE", "count": 9}}},
         "1 to 3"),
        ({"chips_per_player": {"3": 11, "4": 8}}, "player counts"),
        ({"chips_per_player": {"3": 12, "4": 8, "5": 7}}, "fit|house tiles"),
        ({"street_tiles": 1}, "empty spaces"),
        ({"tie_break": "coin"}, "tie_break"),
        ({"simple_paths": "yes"}, "simple_paths"),
    ],
)
def test_broken_data_is_refused_on_load(override: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_config({**default_options(), **override})


def test_options_report_every_choice_and_refuse_unknown_ones() -> None:
    options = GAME.options()
    assert options["join_target"] == "any_house" and options["first_player"] is None
    assert GAME.options({"tie_break": "first_home"})["tie_break"] == "first_home"
    with pytest.raises(InvalidAction):
        GAME.options({"dice": 2})
    with pytest.raises(InvalidAction):
        GAME.options({"police_start": "nowhere"})


def test_setup_options_pin_the_first_player() -> None:
    assert GAME.setup(5, "a", {"first_player": 3}).turn == 3
    assert GAME.setup(5, "b", {"first_player": 3}).turn == 3
    with pytest.raises(InvalidAction):
        GAME.setup(3, "a", {"first_player": 4})
    firsts = {GAME.setup(4, f"seed{i}").turn for i in range(12)}
    assert len(firsts) > 1  # unpinned, the seed decides


def test_a_ring_of_other_length_still_plays() -> None:
    # Spec 3.2 [design choice]: the ring's spaces per side are a setting.
    state = collecting_state(houses=CORRIDOR, pawns={0: "r5"}, options={"ring_spaces_per_side": 8})
    assert state.geo.ring_count == 36
    moves = [a for a in GAME.legal_actions(state, 0) if a["type"] == "move"]
    assert moves and all(m["cost"] == 3 for m in moves)


def test_police_must_come_on_at_the_first_turn_when_so_set() -> None:
    # Spec 7.1 [design choice] police_start = "first_turn".
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d7"}, step=POLICE, options={"police_start": "first_turn"}
    )
    legal = GAME.legal_actions(state, 0)
    assert legal and {"type": "keep"} not in legal


def test_a_space_or_cell_off_the_board_is_told_the_board_size() -> None:
    building = GAME.setup(3, "x", None)
    grid = building.geo.grid
    spaces = f"tile spaces are A1–{chr(ord('A') + grid - 1)}{grid}"
    for typed in ("SF Z9", f"SF A{grid + 1}", f"H2 {chr(ord('A') + grid)}1 door SW"):
        with pytest.raises(InvalidAction) as refused:
            GAME.parse_action(building, 0, typed)
        assert spaces in str(refused.value) and "A-," not in str(refused.value), typed
    state = collecting_state(houses=CORRIDOR, pawns={0: "d7"}, step=POLICE)
    cells, ring = state.geo.cells, state.geo.ring_count
    last = f"{chr(ord('a') + cells - 1)}{cells}"
    with pytest.raises(InvalidAction, match=f"city cells are a1–{last}, ring cells r1–r{ring}"):
        GAME.parse_action(state, 0, "police z99")
