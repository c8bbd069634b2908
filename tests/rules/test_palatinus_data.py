"""The data files load, validate, and match the counts of the specification."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.palatinus import components as comp
from rules.palatinus.config import allocation_for, build_config, default_options
from rules.palatinus.geometry import RING, SET_L, SET_R, build_board


def test_tiles_match_the_placeholder_table() -> None:
    # §3.3 placeholder springs, arrows on local direction 0.
    tiles = comp.tile_data()
    assert tiles == {
        "A": ((0, 3), 0),
        "B": ((0, 1), 0),
        "C": ((0, 2), 0),
        "D": ((1,), 0),
        "E": ((0, 2, 4), 0),
        "F": ((1, 3), 0),
        "G": ((0, 1, 3), 0),
    }


def test_colour_set_and_allocations_match_section_5() -> None:
    data = comp.inhabitant_data()
    colour = data["colour_set"]
    assert sum(colour.values()) == 12
    assert colour["M"] + colour["Mw"] == 5 and colour["Mw"] == 2
    assert colour["F"] + colour["Fw"] == 5 and colour["Fw"] == 3
    assert colour["S"] == 2
    five = comp.allocation(5, colour)
    assert (five["M"] + five["Mw"], five["Mw"], five["F"] + five["Fw"], five["Fw"], five["S"]) == (
        3, 1, 3, 2, 1,
    )  # fmt: skip
    four = comp.allocation(4, colour)
    assert (four["M"] + four["Mw"], four["Mw"], four["F"] + four["Fw"], four["Fw"], four["S"]) == (
        4, 2, 3, 2, 1,
    )  # fmt: skip
    assert comp.allocation(3, colour) == colour
    assert data["two_player_extras"] == {"M": 1, "Mw": 1, "F": 1, "Fw": 1}
    assert {p: sum(comp.allocation(p, colour).values()) for p in (2, 3, 4, 5)} == {
        2: 16, 3: 12, 4: 8, 5: 7,
    }  # fmt: skip
    assert data["soldier_free_turns"] == {2: 4, 3: 4, 4: 3, 5: 3}
    assert data["two_player_extras_mode"] == "owned"


def test_laurels_and_discs_match_sections_2_and_7() -> None:
    data = comp.scoring_data()
    assert data["palatinus_laurel"] == 6
    assert sorted(data["laurels"]) == [3, 3, 4, 4, 5, 5]
    assert data["tied_hill_disc"] == 2 and data["shared_capture_disc"] == 1
    assert data["tie_break"] == "items"


def test_options_default_to_the_data_files() -> None:
    options = default_options()
    config = build_config(options)
    assert config.as_options() == options
    assert sum(allocation_for(config, 2).values()) == 16


def test_ring_positions_are_the_two_handed_sets() -> None:
    # §3.2: 12 positions, odd numbers one set and even numbers the other.
    assert {p.hill for p in RING} == set(SET_R) | set(SET_L)
    assert {p.hand for p in RING if p.number % 2} == {"L"}
    assert {p.hand for p in RING if not p.number % 2} == {"R"}


@pytest.mark.parametrize("hand", ["L", "R"])
def test_a_complete_board_has_49_distinct_hexes(hand: str) -> None:
    # §3.2: seven flowers that interlock without overlap; 42 fields.
    positions = [p.number for p in RING if p.hand == hand]
    for rotation in range(6):
        outer = [(letter, pos, rotation) for letter, pos in zip("BCDEFG", positions, strict=True)]
        tiles = (("A", 0, 0), *outer)
        board = build_board(tiles, ())
        hexes = set(board.fields.values()) | set(board.hills.values())
        assert len(board.fields) == 42 and len(hexes) == 49


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in ("tiles.json", "inhabitants.json", "scoring.json"):
        (tmp_path / name).write_text((comp.DATA_DIR / name).read_text())
    monkeypatch.setattr(comp, "DATA_DIR", tmp_path)
    for loader in (comp.tile_data, comp.inhabitant_data, comp.scoring_data):
        loader.cache_clear()
    yield tmp_path
    monkeypatch.undo()
    for loader in (comp.tile_data, comp.inhabitant_data, comp.scoring_data):
        loader.cache_clear()


def _edit(path: Path, key: str, value: object) -> None:
    data = json.loads(path.read_text())
    data[key] = value
    path.write_text(json.dumps(data))


def test_a_bad_tile_file_is_refused(data_dir: Path) -> None:
    _edit(data_dir / "tiles.json", "tiles", {"A": {"springs": [7], "arrow": 0}})
    with pytest.raises(ValueError):
        comp.tile_data()


def test_a_colour_set_too_small_for_four_players_is_refused(data_dir: Path) -> None:
    _edit(data_dir / "inhabitants.json", "colour_set", {"M": 1, "F": 5, "Fw": 3, "S": 1})
    with pytest.raises(ValueError, match="4-player"):
        comp.inhabitant_data()


def test_bad_laurels_are_refused(data_dir: Path) -> None:
    _edit(data_dir / "scoring.json", "laurels", [3, 4, 5])
    with pytest.raises(ValueError):
        comp.scoring_data()
