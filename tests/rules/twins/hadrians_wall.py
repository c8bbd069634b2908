"""Hadrian's Wall twins: other Fate and Neutral deck orders, other seats' decks, and their
unrevealed Path choice."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from rules.hadrians_wall.state import State
from tests.rules.peeks import PlantedPeek, keeping, moved, true_state_determinize

GAME_ID = "hadrians-wall"
DEPTHS = range(3, 200, 25)


def wait_for(legal: list[dict[str, Any]]) -> bool:
    """A Market purchase from the Fate deck or a gladiator battle: a draw of a hidden card
    (easy play seldom reaches one, and only there can a peek change a one-move look-ahead)."""
    return any(a["type"] == "battle" or (a["type"] == "market" and a["from"] == "deck")
               for a in legal)


def twins(state: State, seat: int) -> Iterator[State]:
    """Other Fate draw orders and Neutral decks, other seats' decks, and their unrevealed
    choice swapped between the two cards they drew."""
    for turn in (1, -1):
        sheets = []
        for s, sheet in enumerate(state.sheets):
            if s == seat:
                sheets.append(sheet)
                continue
            deck = list(sheet["deck"])
            drawn = list(sheet["drawn"])
            chosen = sheet["chosen"]
            if len(drawn) == 2 and chosen is not None:
                chosen = drawn[1] if chosen == drawn[0] else drawn[0]
            sheets.append({**sheet, "deck": moved(deck, turn), "chosen": chosen})
        yield replace(state, fate_draw=tuple(moved(list(state.fate_draw), turn)),
                      neutral_deck=tuple(moved(list(state.neutral_deck), turn)),
                      sheets=tuple(sheets))


def _real_fate(world: State, state: State) -> State:
    return replace(world, fate_draw=state.fate_draw)


PLANTS = [
    PlantedPeek("easy on the true state", true_state_determinize, ("easy",)),
    PlantedPeek("search on the true state", true_state_determinize, ("normal", "hard")),
    PlantedPeek("determinize keeps the Fate deck order",
                lambda mp, g: keeping(mp, g, _real_fate), ("easy", "normal", "hard")),
]
