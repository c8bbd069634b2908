"""The game state: a frozen value holding the shared decks and one JSON-like sheet per player.

A sheet is a plain dict of ints, lists and small dicts (see ``new_sheet``); ``apply`` works on a
``Work`` copy that clones a sheet the first time it is written, so the input state is never
touched. The hidden parts are each player's Player-card ``deck`` (order), ``drawn`` and
``chosen`` (until the reveal), the Fate draw pile order, the Neutral deck order and ``rng``.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import Event, Rng
from rules.hadrians_wall.components import (
    ATTRIBUTES,
    CITIZENS,
    GOODS,
    MAP_COLS,
    MAP_ROWS,
    PRODUCTION_PREFILLED,
)

Sheet = dict[str, Any]

PHASES = ("choose", "actions", "attack", "over")


def clone(value: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists, scalars). A pickle round trip runs in C:
    three times faster than walking the value in Python, and copying sheets is most of what a
    search spends."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


# The parts of a sheet that hold lists or dicts inside a list or dict; every other part is a
# scalar or a flat list or dict of scalars (tests/rules/test_hadrians_wall_successor.py checks).
NESTED_PARTS = frozenset({"courthouse", "gladiators", "diplomats"})


def clone_sheet(sheet: Sheet) -> Sheet:
    """A deep copy of a sheet: flat parts copied flat, nested ones by ``clone``. Twice as fast
    as cloning the whole sheet, and an action copies one or two sheets."""
    out = sheet.copy()
    for key, value in sheet.items():
        if type(value) is list or type(value) is dict:
            out[key] = clone(value) if key in NESTED_PARTS else value.copy()
    return out


def new_sheet(deck: list[str]) -> Sheet:
    """A fresh pair of sheets: only the small granary and production circle 1 are filled."""
    return {
        "hand": {g: 0 for g in GOODS},
        "cohorts": [0, 0, 0],
        "mining": 0,
        "guard": 0,
        "fort": 0,
        "wall": 0,
        "cippi": 0,
        "production": PRODUCTION_PREFILLED,
        "training": [],
        "forum": [],
        "landmarks": [],
        "attributes": {a: 0 for a in ATTRIBUTES},
        "disdain": 0,
        "disdain_removed": 0,
        "citizens": {c: 0 for c in CITIZENS},
        "built": [],
        "market": [0] * 8,
        "theatre": [0] * 6,
        "gladiators": [{"strength": 0, "damage": 0, "battles": []} for _ in range(2)],
        "temple_boxes": 0,
        "favours": 0,
        "favours_used": 0,
        "baths": [0] * 6,
        "courthouse": [[], [], []],
        "diplomats": [],
        "scouts": 0,
        "map": [0] * (MAP_ROWS * MAP_COLS),
        "paths": [],
        "prospects": [],
        "deck": deck,
        "drawn": [],
        "chosen": None,
        "passed": False,
        "road_pending": 0,
        "decided": True,
        "ignored": [],
    }


@dataclass(frozen=True)
class State:
    players: int
    options: Mapping[str, Any]
    year: int
    phase: str
    rng: str
    fate_draw: tuple[str, ...]
    fate_discard: tuple[str, ...]
    year_card: str | None
    attack: tuple[str, ...]
    neutral_deck: tuple[str, ...]
    neutral: tuple[dict[str, Any], ...]
    last_attack: dict[str, Any] | None
    sheets: tuple[Sheet, ...]
    steps: int = 0


def dump_state(state: State) -> dict[str, Any]:
    return {
        "players": state.players,
        "options": clone(dict(state.options)),
        "year": state.year,
        "phase": state.phase,
        "rng": state.rng,
        "fate_draw": list(state.fate_draw),
        "fate_discard": list(state.fate_discard),
        "year_card": state.year_card,
        "attack": list(state.attack),
        "neutral_deck": list(state.neutral_deck),
        "neutral": clone(list(state.neutral)),
        "last_attack": clone(state.last_attack),
        "sheets": clone(list(state.sheets)),
        "steps": state.steps,
    }


def load_state(data: Mapping[str, Any]) -> State:
    return State(
        players=int(data["players"]),
        options=clone(dict(data["options"])),
        year=int(data["year"]),
        phase=str(data["phase"]),
        rng=str(data["rng"]),
        fate_draw=tuple(data["fate_draw"]),
        fate_discard=tuple(data["fate_discard"]),
        year_card=data["year_card"],
        attack=tuple(data["attack"]),
        neutral_deck=tuple(data["neutral_deck"]),
        neutral=tuple(clone(list(data["neutral"]))),
        last_attack=clone(data["last_attack"]),
        sheets=tuple(clone(list(data["sheets"]))),
        steps=int(data.get("steps", 0)),
    )


class Work:
    """A mutable working copy of a state for one ``apply``: sheets are cloned on first write."""

    def __init__(self, state: State) -> None:
        self.base = state
        self.players = state.players
        self.options = state.options
        self.year = state.year
        self.phase = state.phase
        self.rng_state = state.rng
        self.fate_draw = list(state.fate_draw)
        self.fate_discard = list(state.fate_discard)
        self.year_card = state.year_card
        self.attack = list(state.attack)
        self.neutral_deck = list(state.neutral_deck)
        # Most actions never touch the Neutral cards or the last attack: copied on first use.
        self._neutral: list[dict[str, Any]] | None = None
        self._last_attack: dict[str, Any] | None = None
        self._attack_copied = False
        self._sheets = list(state.sheets)
        self._owned = [False] * state.players
        self.events: list[Event] = []
        self.irreversible = False
        self.gained: dict[str, int] = {}
        self.notes: list[str] = []

    @property
    def neutral(self) -> list[dict[str, Any]]:
        """The Neutral cards, writable (copied the first time they are asked for)."""
        if self._neutral is None:
            self._neutral = clone(list(self.base.neutral))
        return self._neutral

    @neutral.setter
    def neutral(self, cards: list[dict[str, Any]]) -> None:
        self._neutral = cards

    @property
    def last_attack(self) -> dict[str, Any] | None:
        """The last attack, writable (copied the first time it is asked for)."""
        if not self._attack_copied:
            self._last_attack = clone(self.base.last_attack)
            self._attack_copied = True
        return self._last_attack

    @last_attack.setter
    def last_attack(self, attack: dict[str, Any] | None) -> None:
        self._last_attack = attack
        self._attack_copied = True

    def sheet(self, seat: int) -> Sheet:
        """The writable sheet of a seat (cloned the first time it is asked for)."""
        if not self._owned[seat]:
            self._sheets[seat] = clone_sheet(self._sheets[seat])
            self._owned[seat] = True
        return self._sheets[seat]

    def peek(self, seat: int) -> Sheet:
        """A sheet for reading only."""
        return self._sheets[seat]

    def randbelow(self, n: int) -> int:
        rng = Rng.restore(self.rng_state)
        value = rng.randbelow(n)
        self.rng_state = rng.state
        self.irreversible = True
        return value

    def shuffled(self, items: list[str]) -> list[str]:
        rng = Rng.restore(self.rng_state)
        out = rng.shuffled(items)
        self.rng_state = rng.state
        self.irreversible = True
        return out

    def emit(self, kind: str, text: str, to: frozenset[int] | None = None,
             **data: Any) -> None:
        self.events.append(Event(kind, data, to, text))

    def freeze(self) -> State:
        return State(
            players=self.players,
            options=self.options,
            year=self.year,
            phase=self.phase,
            rng=self.rng_state,
            fate_draw=tuple(self.fate_draw),
            fate_discard=tuple(self.fate_discard),
            year_card=self.year_card,
            attack=tuple(self.attack),
            neutral_deck=tuple(self.neutral_deck),
            neutral=self.base.neutral if self._neutral is None else tuple(self._neutral),
            last_attack=self._last_attack if self._attack_copied else self.base.last_attack,
            sheets=tuple(self._sheets),
            steps=self.base.steps + 1,
        )
