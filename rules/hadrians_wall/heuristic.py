"""Hadrian's Wall's computer-player heuristic (see README, "Computer players").

A sheet is worth its running score (the game's own breakdown: attributes, Path cards at the
tiers reached, the Disdain penalty) plus credit for work that scores later: every filled box
counts a little, cohort boxes (which turn Pict attacks away) more, and goods in hand a little
less than the box they could fill, so spending them on a box is a gain and passing early is not.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action
from rules.hadrians_wall import GAME
from rules.hadrians_wall.scoring import breakdown
from rules.hadrians_wall.state import State
from rules.players.values import best_first

SCALE = 10.0
BUDGETS = {"normal": (10, 1), "hard": (24, 1)}
KEEP = 8


def _progress(sheet: dict[str, Any]) -> float:
    boxes = (int(sheet["mining"]) + int(sheet["guard"]) + int(sheet["fort"])
             + int(sheet["wall"]) + int(sheet["cippi"]) + int(sheet["temple_boxes"])
             + sum(int(v) for v in sheet["citizens"].values())
             + int(sheet["production"]) + len(sheet["landmarks"]) + 2 * len(sheet["built"])
             + len(sheet["training"]) + len(sheet["forum"]) + sum(sheet["market"])
             + sum(sheet["theatre"]) + int(sheet["scouts"]) + sum(sheet["map"]))
    cohorts = sum(int(n) for n in sheet["cohorts"])
    hand = sum(int(v) for v in sheet["hand"].values())
    return float(0.4 * boxes + 0.6 * cohorts + 0.15 * hand + 0.5 * int(sheet["favours"]))


def _worth(state: State, sheet: dict[str, Any]) -> float:
    weight = 0.5 if state.year >= 6 else 1.0  # credit for unfinished work fades late
    return float(breakdown(sheet, state.options)["total"]) + weight * _progress(sheet)


def evaluate(state: State) -> tuple[float, ...]:
    return tuple(_worth(state, s) for s in state.sheets)


def candidates(state: State, seat: int, actions: list[Action]) -> list[Action]:
    if len(actions) <= 1:
        return actions

    def key(action: Action) -> float:
        try:
            after = GAME.apply(state, seat, action).state
            return _worth(after, after.sheets[seat])  # only the seat's own sheet changes much
        except ValueError:
            return -1e9

    return best_first(actions, key, KEEP)
