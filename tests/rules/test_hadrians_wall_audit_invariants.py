"""Bulk checks of Hadrian's Wall over seeded random games, in the manner of perft: after every
action the sheets keep the printed limits (spec 3 and 4), the Fate deck keeps its 48 cards
(2.7), and every attack splits the grey flag between Valour and Disdain (2.4)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.core import Rng
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import CIPPI_LINKS, FATE_IDS
from rules.hadrians_wall.state import Sheet, State

# Last box open per granary level (spec 3 gating): mining, wall guard, fort, wall.
OPEN = {1: (4, 6, 7, 7), 2: (9, 12, 14, 14), 3: (14, 18, 21, 21)}
PER_YEAR = {"training": 1, "forum": 1, "theatre": 1, "baths": 2}  # spec 3.8, 3.10, 4.4, 4.8


def _fate_cards(state: State) -> list[str]:
    cards = [*state.fate_draw, *state.fate_discard, *state.attack]
    if state.phase == "attack" and state.last_attack is not None:
        for extra in state.last_attack["extra"]:
            cards.extend(extra)
    return cards


def _check_sheet(sheet: Sheet) -> None:
    assert min(sheet["hand"].values()) >= 0
    assert all(0 <= v <= 25 for v in sheet["attributes"].values())
    assert all(0 <= v <= 6 for v in sheet["cohorts"])
    built = sheet["built"]
    level = 1 + ("granary_medium" in built) + ("granary_large" in built)
    mining, guard, fort, wall = OPEN[level]
    assert sheet["mining"] <= mining and sheet["guard"] <= guard
    assert sheet["fort"] <= fort and sheet["wall"] <= wall
    assert sheet["wall"] <= sheet["fort"]
    assert sheet["cippi"] == 0 or sheet["fort"] >= CIPPI_LINKS[sheet["cippi"]]
    assert 0 <= sheet["disdain_removed"] <= sheet["disdain"] <= 15
    assert 1 <= sheet["production"] <= 9
    for g in sheet["gladiators"]:
        assert 0 <= g["damage"] <= g["strength"] <= 6
        assert len(set(g["battles"])) == len(g["battles"])
    for key, limit in PER_YEAR.items():
        years = Counter(y for y in sheet[key] if y)
        assert all(n <= limit for n in years.values()), key
    for column in sheet["courthouse"]:
        assert len(set(column)) == len(column)


def _play(players: int, seed: str, options: dict[str, Any]) -> State:
    state = GAME.setup(players, seed, options)
    rng = Rng(seed)
    while GAME.active_seats(state):
        seats = sorted(GAME.active_seats(state))
        seat = seats[rng.randbelow(len(seats))]
        legal = GAME.legal_actions(state, seat)
        busy = [a for a in legal if a["type"] not in ("pass", "defend")]
        pool = busy if busy and rng.randbelow(10) else legal
        kinds = sorted({a["type"] for a in pool})
        kind = kinds[rng.randbelow(len(kinds))]
        choices = [a for a in pool if a["type"] == kind]
        state = GAME.apply(state, seat, choices[rng.randbelow(len(choices))]).state
        assert sorted(_fate_cards(state)) == sorted(FATE_IDS)
        for sheet in state.sheets:
            _check_sheet(sheet)
        if state.phase == "choose" and state.last_attack is not None:
            for result in state.last_attack["results"]:
                assert result["valour"] + result["disdain"] == state.last_attack["grey_flag"]
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [
    {},
    {"difficulty": "hard", "neutral_extra_attacks": "per_player", "favour_prompt": "always"},
])
def test_random_games_keep_the_printed_limits(players: int, options: dict[str, Any]) -> None:
    for i in range(3):
        final = _play(players, f"audit-{players}-{i}", options)
        assert final.phase == "over" and GAME.outcome(final) is not None
