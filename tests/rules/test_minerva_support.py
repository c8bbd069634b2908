"""Helpers for the Minerva tests: build a state by hand and play actions by their notation.

This module holds no tests itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action
from rules.minerva import GAME
from rules.minerva.components import catalogue
from rules.minerva.state import MinervaState

CAT = catalogue()


def code_of(key: str) -> str:
    """A physical tile id of a tile type, a temple id from a temple key, or F/R/A as given."""
    if key in ("F", "R", "A"):
        return key
    if key in CAT.temple_keys:
        return CAT.temple_keys[key]
    for loc in (*CAT.normal, *CAT.starting):
        if loc.type == key:
            return loc.id
    raise KeyError(key)


def fresh(players: int = 2, seed: str = "t", **options: Any) -> MinervaState:
    options.setdefault("start_seat", 0)
    state: MinervaState = GAME.setup(players, seed, options)
    return state


def set_city(state: MinervaState, seat: int, tiles: Mapping[tuple[int, int], str]) -> None:
    """Replace a city (the fountain stays at 0,0 unless a tile is put there)."""
    city = {(0, 0): "F"}
    city.update({cell: code_of(key) for cell, key in tiles.items()})
    state.players[seat].city = city


def set_player(state: MinervaState, seat: int, **values: Any) -> None:
    p = state.players[seat]
    res = values.pop("res", None)
    if res is not None:
        p.res = [res.get("grain", 0), res.get("wood", 0), res.get("stone", 0), res.get("ore", 0)]
    for key, value in values.items():
        setattr(p, key, value)


def play(state: MinervaState, seat: int, *moves: str) -> MinervaState:
    """Apply moves written in the notation, one after the other, by the same seat."""
    for text in moves:
        action = GAME.parse_action(state, seat, text)
        state = GAME.apply(state, seat, action).state
    return state


def legal_texts(state: MinervaState, seat: int) -> list[str]:
    return [GAME.format_action(state, a) for a in GAME.legal_actions(state, seat)]


def types_of(actions: list[Action]) -> set[str]:
    return {a["type"] for a in actions}
