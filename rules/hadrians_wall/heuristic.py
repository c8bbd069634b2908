"""Hadrian's Wall's computer-player heuristic (see README, "Computer players").

A sheet is worth its running score (the game's own breakdown: attributes, Path cards at the
tiers reached, the Disdain penalty) plus credit for work that scores later: every filled box
counts a little, cohort boxes a little more, and goods in hand a little less than the box they
could fill, so spending them on a box is a gain and passing early is not (a player who passed
loses what is left in hand). Until a sheet has faced this Year's Pict attack, it also counts
the attack's expected Valour and Disdain, from its cohorts, its favours and the cards left in
the Fate draw pile (public: every card not discarded).

Whoever acts first in a Year must not gain by it. The last player to pass used to see the end
of the Year in their look-ahead (the attack's Valour, the next Fate card's gains) as the reward
of passing, and stopped early: the first to act gained about 4 points. So a seat weighs its
options as if the others were still acting (``horizon``): its own pass never ends the Year in
its look-ahead, whatever order the seats act in; and the search scores the position at the
seat's own pass (``leaf``) instead of looking on into what the others do.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from math import comb
from typing import Any

from rules.core import Action
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import ATTACK_CARDS, COHORTS, FATE_CARDS, GREY_FLAG
from rules.hadrians_wall.rewards import final_disdain
from rules.hadrians_wall.scoring import penalty, sheet_total
from rules.hadrians_wall.state import State
from rules.hadrians_wall.year import remaining, seat_cards, temple_favours
from rules.players.values import best_first

SCALE = 10.0
BUDGETS = {"normal": (10, 1), "hard": (48, 1)}
KEEP = 8


def _progress(sheet: dict[str, Any]) -> float:
    hand_worth = 0.0 if sheet["passed"] else 0.15
    boxes = (int(sheet["mining"]) + int(sheet["guard"]) + int(sheet["fort"])
             + int(sheet["wall"]) + int(sheet["cippi"]) + int(sheet["temple_boxes"])
             + sum(map(int, sheet["citizens"].values()))
             + int(sheet["production"]) + len(sheet["landmarks"]) + 2 * len(sheet["built"])
             + len(sheet["training"]) + len(sheet["forum"]) + sum(sheet["market"])
             + sum(sheet["theatre"]) + int(sheet["scouts"]) + sum(sheet["map"]))
    cohorts = sum(map(int, sheet["cohorts"]))
    hand = sum(map(int, sheet["hand"].values()))
    return float(0.4 * boxes + 0.6 * cohorts + hand_worth * hand + 0.5 * int(sheet["favours"]))


def _favours(sheet: dict[str, Any]) -> int:
    return temple_favours(sheet) + sum(int(d["favours"]) - int(d["used"])
                                       for d in sheet["diplomats"])


@lru_cache(maxsize=4096)
def _expected_attack(cards: int, shares: tuple[float, ...], cohorts: tuple[int, ...],
                     favours: int, grey: int, disdain: int) -> float:
    """Expected Valour less the expected rise of the Disdain penalty, for ``cards`` attack
    cards whose arrows fall on the cohorts with probabilities ``shares``."""
    total = 0.0
    for left in range(cards + 1):
        for center in range(cards - left + 1):
            right = cards - left - center
            p = (comb(cards, left) * comb(cards - left, center)
                 * shares[0] ** left * shares[1] ** center * shares[2] ** right)
            if p == 0.0:
                continue
            through = sum(max(0, a - d) for a, d in zip((left, center, right), cohorts,
                                                          strict=True))
            taken = min(max(0, through - favours), grey)
            total += p * (grey - taken - (penalty(disdain + taken) - penalty(disdain)))
    return total


def _shares(state: State) -> tuple[float, ...]:
    return _pile_shares(state.fate_draw or state.fate_discard)


@lru_cache(maxsize=256)
def _pile_shares(pile: tuple[str, ...]) -> tuple[float, ...]:
    """Where the arrows of the next Fate card fall. Every action weighed in one sampled world
    sees the same pile, so the count is kept."""
    counts = dict.fromkeys(COHORTS, 0)
    for card in pile:
        counts[FATE_CARDS[card].attack] += 1
    n = len(pile) or 1
    return tuple(counts[c] / n for c in COHORTS)


def _attack_ahead(state: State, seat: int, sheet: dict[str, Any]) -> float:
    """This Year's attack, in expectation, for a sheet that has not faced it yet."""
    if state.year < 1 or state.phase == "over":
        return 0.0
    grey = GREY_FLAG[state.year - 1]
    cohorts = tuple(int(n) for n in sheet["cohorts"])
    favours = _favours(sheet)
    disdain = final_disdain(sheet)
    if state.phase == "attack":
        if sheet["decided"]:
            return 0.0
        left = remaining(seat_cards(state, seat), sheet)
        through = sum(max(0, left[c] - d) for c, d in zip(COHORTS, cohorts, strict=True))
        taken = min(max(0, through - favours), grey)
        return float(grey - taken - (penalty(disdain + taken) - penalty(disdain)))
    cards = ATTACK_CARDS[str(state.options["difficulty"])][state.year - 1]
    if state.options["neutral_extra_attacks"] == "per_player":
        cards += sum(int(n["by"][seat]) for n in state.neutral)
    else:
        cards += sum(int(n["resources"]) + int(n["soldiers"]) for n in state.neutral)
    return _expected_attack(cards, _shares(state), cohorts, favours, grey, disdain)


def _worth(state: State, seat: int) -> float:
    sheet = state.sheets[seat]
    weight = 0.5 if state.year >= 6 else 1.0  # credit for unfinished work fades late
    return (float(sheet_total(sheet, state.options)) + weight * _progress(sheet)
            + _attack_ahead(state, seat, sheet))


def horizon(state: State, seat: int) -> State:
    """The Action phase as the seat weighs it: the others not yet passed."""
    if state.phase != "actions" or not any(
            s["passed"] for i, s in enumerate(state.sheets) if i != seat):
        return state
    sheets = tuple(s if i == seat else {**s, "passed": False}
                   for i, s in enumerate(state.sheets))
    return replace(state, sheets=sheets)


def leaf(state: State, seat: int) -> bool:
    """The seat's own pass ends its look-ahead in the Action phase. Beyond it the search saw
    the others act, or the Year end, only when the seat acted last: the second to act passed
    for the attack's Valour and the next Fate card, and the first to act gained 6 points."""
    return state.phase == "actions" and bool(state.sheets[seat]["passed"])


def evaluate(state: State) -> tuple[float, ...]:
    return tuple(_worth(state, s) for s in range(state.players))


def candidates(state: State, seat: int, actions: list[Action]) -> list[Action]:
    if len(actions) <= 1:
        return actions

    def key(action: Action) -> float:
        try:
            after = GAME.successor(state, seat, action)  # the actions are legal ones
            return _worth(after, seat)  # only the seat's own sheet changes much
        except ValueError:
            return -1e9

    return best_first(actions, key, KEEP)
