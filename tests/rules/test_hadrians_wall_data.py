"""The Hadrian's Wall data files load and match the totals of the specification (sections 3-8)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rules.hadrians_wall import components as c

SPEC_FATE_JSON = Path("/work/shared/rules/hadrians-wall-fate-deck.json")


def _icon_count(track: c.Track, icon: str) -> int:
    return sum(icons.count(icon) for icons in track.rewards)


def test_left_sheet_tracks_match_the_spec() -> None:
    # Spec 3.1-3.5: box counts, granary columns and printed rewards.
    assert (c.MINING.length, c.GUARD.length, c.FORT.length, c.WALL.length, c.CIPPI.length) == (
        14, 18, 21, 21, 7)
    assert [c.MINING.columns.count(k) for k in (1, 2, 3)] == [4, 5, 5]
    assert [c.GUARD.columns.count(k) for k in (1, 2, 3)] == [6, 6, 6]
    assert [c.FORT.columns.count(k) for k in (1, 2, 3)] == [7, 7, 7]
    assert _icon_count(c.MINING, "production") == 5
    assert _icon_count(c.GUARD, "cohort") == 7 and _icon_count(c.GUARD, "discipline") == 6
    assert [b for b in range(1, 19) if not c.GUARD.rewards[b]] == [4, 7, 10, 13, 16]
    assert sorted(c.FORT_INFRA) == [1, 3, 5, 9, 11, 13, 15, 17]
    assert _icon_count(c.FORT, "civilian") == 8 and _icon_count(c.FORT, "cohort") == 2
    assert [b for b in range(1, 22) if not c.WALL.rewards[b]] == [2, 6, 10, 12, 17, 20]
    assert _icon_count(c.WALL, "renown") == 5 and _icon_count(c.WALL, "cohort") == 6
    assert c.CIPPI_LINKS[1:] == (1, 4, 7, 10, 13, 16, 20)
    assert c.CIPPI.columns[1:] == (1, 1, 1, 2, 2, 3, 3)
    assert c.COHORT_BOXES == 6 and c.COHORT_REWARDS[3:] == (
        ("discipline",), (), ("valour",), ("discipline",))


def test_left_sheet_buildings_and_attributes_match_the_spec() -> None:
    # Spec 3.6-3.12 and 3.14.
    medium, large = c.BUILDINGS["granary_medium"], c.BUILDINGS["granary_large"]
    assert medium.requires == {"infrastructure": 1} and large.requires == {"infrastructure": 5}
    assert large.built == "granary_medium" and large.reward == ("renown",)
    assert c.BUILDINGS["road_small"].choice == ("piety", "discipline")
    assert c.BUILDINGS["road_large"].choice == ("renown", "valour")
    assert c.BUILDINGS["workshop_large"].cost == {"resource": 4}
    assert c.PRODUCTION_CIRCLES == 9 and c.PRODUCTION_PREFILLED == 1
    assert (c.TRAINING_BOXES, c.TRAINING_PER_YEAR, c.FORUM_BOXES, c.FORUM_PER_YEAR) == (5, 1, 4, 1)
    assert {n: (a, k) for n, (a, k, _) in c.LANDMARKS.items()} == {
        "archway": ("renown", 15), "monolith": ("piety", 15), "column": ("valour", 15),
        "statue": ("discipline", 15)}
    assert c.ATTRIBUTE_BOXES == 25
    for attr in c.ATTRIBUTES:
        assert sorted(c.ATTRIBUTE_WORKER_BOXES[attr]) == [3, 6, 9, 12, 15, 19, 23]
        assert sorted(c.ATTRIBUTE_CROSS[attr]) == [17, 21, 25]
    assert c.ATTRIBUTE_CROSS["renown"] == {17: "piety", 21: "discipline", 25: "valour"}
    assert c.DISDAIN_BOXES == 15


def test_right_sheet_matches_the_spec() -> None:
    # Spec 4.1-4.11.
    assert c.CITIZEN_BOXES == 9
    assert c.CITIZEN_REWARDS["priests"][4] == ("piety",)
    assert sum(len(r) for r in c.CITIZEN_REWARDS["traders"]) == 6
    assert [req for req, _ in c.MARKET_BOXES] == [4, 5, 5, 6, 6, 7, 8, 9]
    assert c.UNIQUE_GOODS_RENOWN == (1, 1, 1, 2, 2, 3)
    assert [req for req, _ in c.THEATRE_BOXES] == [1, 3, 5, 6, 8, 9]
    assert c.GLADIATOR_COLUMN_PERFORMERS == (3, 4, 5, 6, 8, 9)
    assert c.DEATH_REWARD[1:] == (("piety", "piety"), ("piety", "piety"), ("piety",), ("piety",),
                                  (), ())
    assert c.SURVIVE_REWARD[6] == ("renown", "renown", "resource")
    assert c.TEMPLE_TOTAL_BOXES == 14 and c.TEMPLE_LAST_BOX == {"small": 2, "medium": 8,
                                                                "large": 14}
    assert sum("favour_any" in r for r in c.TEMPLE_BOX_REWARD) == 3
    assert sum("piety" in r for r in c.TEMPLE_BOX_REWARD) == 7
    assert c.BUILDINGS["temple_large"].cost == {"servant": 2, "builder": 1, "resource": 2}
    assert c.BATHS_BOXES == ((3, 1), (4, 1), (5, 2), (6, 2), (7, 3), (8, 3))
    assert [reqs for _, _, reqs in c.COURTHOUSE_COLUMNS] == [(4, 5, 6), (5, 6, 7), (6, 7, 8)]
    assert c.DIPLOMAT_REQUIRES == (1, 3, 6) and c.DIPLOMAT_REWARD.count("favour_cohort") == 2
    assert c.SCOUT_REQUIRES == (2, 4, 5, 7, 9)
    assert (c.MAP_ROWS, c.MAP_COLS) == (4, 5)
    assert Counter(c.MAP_CELL_REWARD.values()) == {"resource": 5, "servant": 2}


def test_fate_deck_has_48_cards_16_per_direction_8_items_each() -> None:
    # Spec 5, distribution invariants.
    cards = list(c.FATE_CARDS.values())
    assert len(cards) == 48
    assert Counter(card.attack for card in cards) == {"left": 16, "center": 16, "right": 16}
    assert all(sum(card.gains.values()) == 8 for card in cards)
    assert Counter(card.gladiator_damage for card in cards) == {1: 16, 2: 20, 3: 12}
    assert Counter(card.trade_good for card in cards) == {1: 12, 2: 12, 3: 8, 4: 8, 5: 4, 6: 4}
    totals = {g: sum(card.gains[g] for card in cards) for g in c.GOODS}
    assert totals == {"soldier": 76, "builder": 88, "servant": 92, "civilian": 64,
                      "resource": 64}


@pytest.mark.skipif(not SPEC_FATE_JSON.exists(), reason="the specification folder is not here")
def test_fate_deck_equals_the_specification_json() -> None:
    spec = json.loads(SPEC_FATE_JSON.read_text(encoding="utf-8"))
    for row in spec:
        card = c.FATE_CARDS[f"F{row['id']:02d}"]
        assert (card.attack, card.gladiator_damage, card.trade_good) == (
            row["attack"], row["gladiator_damage"], row["trade_good"])
        assert card.gains == {"soldier": row["soldiers"], "builder": row["builders"],
                              "servant": row["servants"], "civilian": row["civilians"],
                              "resource": row["resources"]}


def test_player_cards_match_the_spec() -> None:
    # Spec 6: 12 cards with prospect gain, pattern and trade good.
    assert len(c.PLAYER_CARDS) == 12
    assert Counter(card.pattern for card in c.PLAYER_CARDS.values()) == {
        "I": 2, "T": 3, "L": 2, "O": 2, "S": 3}
    assert c.PLAYER_CARDS["trainer"].pattern == "S"  # the scan, not the BGA port
    assert c.PLAYER_CARDS["ranger"].trade_good == 6
    assert c.PLAYER_CARDS["pontiff"].prospect_gain == {"servant": 2}
    assert all(len(cells) == 4 for cells in c.PATTERNS.values())
    assert c.NEUTRAL_REVEAL == {1: 2, 2: 1}


def test_difficulty_table_and_scoring_match_the_spec() -> None:
    # Spec 7 and 8.
    assert c.GREY_FLAG == (1, 2, 2, 3, 3, 4) and sum(c.GREY_FLAG) == 15
    assert {k: sum(v) for k, v in c.ATTACK_CARDS.items()} == {"easy": 24, "normal": 31,
                                                             "hard": 37}
    assert c.ATTACK_CARDS["hard"] == (1, 3, 5, 7, 9, 12)
    assert c.DISDAIN_PENALTY == (0, 1, 3, 5, 7, 9, 12, 15, 18, 22)
    assert set(c.PATH_SCORING) == set(c.PLAYER_CARDS)
    assert [s for s, _ in c.SOLO_RANKS] == [0, 40, 50, 60, 70]
    assert len(c.LARGE_BUILDINGS) == 7


def test_option_defaults_are_valid() -> None:
    from rules.hadrians_wall import GAME

    opts = GAME.options()
    assert opts["difficulty"] == "normal"
    assert opts["neutral_extra_attacks"] == "shared"
    with pytest.raises(ValueError):
        GAME.options({"difficulty": "brutal"})
    with pytest.raises(ValueError):
        GAME.options({"no_such_option": 1})
