"""The Minerva data files load, validate and match the specification's counts (spec §2, §5-§7)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.minerva.components import CATEGORIES, DATA_DIR, Catalogue, load_catalogue


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue()


def test_component_counts_match_the_spec(cat: Catalogue) -> None:
    # §2: 66 normal, 8 starting, 4 fountains, 20 temples, 24 culture, 16 glory, 6 round tiles.
    assert len(cat.normal) == 66
    assert len(cat.starting) == 8
    assert len(cat.fountains) == 4
    assert len(cat.temples) == 20
    assert sum(len(tiles) for tiles in cat.culture_tiles.values()) == 24
    assert all(len(tiles) == 8 for tiles in cat.culture_tiles.values())
    assert sum(len(tiles) for tiles in cat.glory_tiles.values()) == 16
    assert cat.round_tiles == 6
    assert sorted(cat.order_vp) == [1, 2, 3, 4]


def test_player_count_marks_split_as_designed(cat: Catalogue) -> None:
    # §5: normal 42 unmarked + 12 "3+" + 12 "4+"; starting 4 + 2 + 2.
    assert Counter(t.mark for t in cat.normal) == {None: 42, 3: 12, 4: 12}
    assert Counter(t.mark for t in cat.starting) == {None: 4, 3: 2, 4: 2}


def test_normal_locations_by_category(cat: Catalogue) -> None:
    # §5: production 16, trade 12, culture 16, military 12, special 10.
    counts = Counter(cat.types[t.type].category for t in cat.normal)
    assert counts == {"production": 16, "trade": 12, "culture": 16, "military": 12, "special": 10}


def test_temples_cover_areas_and_resources(cat: Catalogue) -> None:
    # §6: 8 counting modes x 2 areas + 4 resource temples.
    areas = Counter(t.area for t in cat.temples.values())
    assert areas == {"surround8": 8, "cross": 8, "none": 4}
    counted = {t.count for t in cat.temples.values() if t.area == "cross"}
    assert counted == {*(c for c in CATEGORIES), "distinct_types"}


def test_special_tiles_are_when_built_and_others_activated(cat: Catalogue) -> None:
    # §3: only special facilities are [when built].
    for ttype in cat.types.values():
        if ttype.category == "special":
            assert ttype.timing == "when_built", ttype.key
        elif ttype.category != "residential":
            assert ttype.timing == "activated", ttype.key


def test_assistant_prices_and_titles(cat: Catalogue) -> None:
    # §2: price table by owned count; solitaire titles from 80 down.
    assert cat.assistant_prices == ((5, 1), (5, 1), (10, 2), (10, 2), (15, 3))
    assert cat.solo_titles[0] == (80, "Emperor Augustus")
    assert cat.solo_titles[-1] == (0, "Civilian")


def _broken_copy(tmp_path: Path, name: str, change: Callable[[Any], None]) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    data = json.loads((target / name).read_text(encoding="utf-8"))
    change(data)
    (target / name).write_text(json.dumps(data), encoding="utf-8")
    return target


def test_an_unknown_effect_clause_is_refused(tmp_path: Path) -> None:
    def change(data: Any) -> None:
        data["tile_types"]["markets"]["effect"] = [{"teleport": 1}]

    with pytest.raises(ValueError, match="markets"):
        load_catalogue(_broken_copy(tmp_path, "tiles.json", change))


def test_an_uneven_pile_split_is_refused(tmp_path: Path) -> None:
    def change(data: Any) -> None:
        data["normal_locations"].pop()

    with pytest.raises(ValueError, match="split evenly"):
        load_catalogue(_broken_copy(tmp_path, "manifest.json", change))


def test_a_culture_removal_needs_a_matching_tile(tmp_path: Path) -> None:
    def change(data: Any) -> None:
        data["culture_removal"]["3"] = [2, 5]

    with pytest.raises(ValueError, match="no 5 VP"):
        load_catalogue(_broken_copy(tmp_path, "tables.json", change))


def test_replaced_values_load_without_code_changes(tmp_path: Path) -> None:
    def change(data: Any) -> None:
        data["tile_types"]["markets"]["cost"] = {"stone": 2}

    cat = load_catalogue(_broken_copy(tmp_path, "tiles.json", change))
    assert cat.types["markets"].cost == (0, 0, 2, 0)
