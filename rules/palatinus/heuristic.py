"""Palatinus's computer-player heuristic (see README, "Computer players").

While inhabitants are placed, the board is scored by the game's own steps (soldiers,
influence, laurels and discs, captures) as it is likely to end: most fields empty now will be
filled by then, so an empty neighbour is worth to a farmer only the chance that it stays empty,
and to a merchant the chance that it fills times what an average piece gives it. Scored as if
the game ended now, farmers looked far stronger mid-game than they end, and merchants weaker.
The laurels not dealt yet count at their average. Pieces still behind the screen are worth a
little each, so spending them is not free. Placements are ranked by that score. Tiles are laid
in the first legal place and rotation (the projection says nothing yet while the board is
being built).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action
from rules.palatinus import GAME, scoring
from rules.palatinus import components as comp
from rules.palatinus.geometry import Board
from rules.palatinus.state import PLACING, PalatinusState
from rules.players.values import best_first, greedy_key

SCALE = 6.0
BUDGETS = {"normal": (50, 0), "hard": (250, 0)}
STABLE_CANDIDATES = True  # only wolf pieces and draw orders are hidden: rank a node once
KEEP = 8  # placements kept for the search, best first
# What a neighbour still to come gives a merchant, on average: a full colour set holds five
# merchants (1), five farmers (2) and two soldiers (3).
FILLED = 1.8


def _expected(stays_empty: float) -> scoring.Worth:
    """A piece's influence on the board as it is likely to end, ``stays_empty`` being the
    share of the empty fields that will still be empty then."""
    fills = (1.0 - stays_empty) * FILLED
    farmer = scoring.FARMER_POINTS
    merchant = scoring.MERCHANT_POINTS

    def worth(board: Board, bases: Mapping[str, str], field: str, base: str) -> float:
        points = 0.0
        if base == "M":
            for n in board.neighbours[field]:
                other = bases.get(n)
                points += fills if other is None else merchant[other]
        elif base == "F":
            springs = board.springs
            points = farmer if field in springs else 0.0
            for n in board.neighbours[field]:
                if n not in bases:
                    points += farmer * stays_empty
                if n in springs:
                    points += farmer
        return points

    return worth


def stays_empty(state: PalatinusState) -> float:
    """The share of the fields empty now that no piece will fill: every piece still behind a
    screen goes down on one (1 once everything is placed)."""
    empty = len(state.board.neighbours) - len(state.pieces)
    coming = sum(state.left(seat) for seat in range(state.players))
    return 1.0 if empty <= 0 else min(1.0, max(0, empty - coming) / empty)


def evaluate(state: PalatinusState) -> tuple[float, ...]:
    n = state.players
    if state.phase != PLACING or not state.pieces:
        return (0.0,) * n
    laurels = dict(state.laurels)
    if len(laurels) < len(state.tiles) and state.laurel_stack:
        mean = sum(state.laurel_stack) / len(state.laurel_stack)
        for t in state.tiles:
            laurels.setdefault(t.letter, round(mean))
    totals = scoring.vp_totals(state.board, state.pieces, laurels, n, state.config,
                               _expected(stays_empty(state)))
    return tuple(float(vp + 0.3 * state.left(seat)) for seat, vp in enumerate(totals))


def _proxy(state: PalatinusState, seat: int, action: Action, kinds: dict[str, str],
           owners: dict[str, int], board: Any) -> float:
    """A quick guess at a placement: what the piece itself would be worth, or for a soldier
    how many rival pieces share its tile; only the best guesses are scored in full."""
    field, piece = str(action["field"]), str(action["piece"])
    laurel = state.laurel_of(field[0]) or 3
    if comp.base_type(piece) == "S":
        rivals = sum(1 for f in board.tile_fields.get(field[0], ()) if owners.get(f, seat) != seat)
        return 2.0 * rivals + 0.2 * laurel
    kinds[field] = piece
    try:
        return scoring.influence(board, kinds, field) + 0.2 * laurel
    finally:
        del kinds[field]


def _ranked(state: PalatinusState, seat: int, actions: list[Action]) -> list[Action]:

    if len(actions) > 2 * KEEP:
        board = state.board
        kinds = {p.field: p.kind for p in state.pieces}
        owners = {p.field: p.owner for p in state.pieces}
        # A guess depends on the field and the piece's type only: wolf, neutral and plain
        # pieces of a type guess alike, so each (field, type) is guessed once.
        known: dict[tuple[str, str], float] = {}
        guesses = []
        for i, a in enumerate(actions):
            look = (str(a["field"]), comp.base_type(str(a["piece"])))
            guess = known.get(look)
            if guess is None:
                guess = known[look] = _proxy(state, seat, a, kinds, owners, board)
            guesses.append((-guess, i))
        actions = [actions[i] for _, i in sorted(guesses)[: 2 * KEEP]]

    def key(action: Action) -> float:
        return greedy_key(evaluate(GAME.apply(state, seat, action).state), seat)

    return best_first(actions, key, KEEP)


def searchable(state: PalatinusState) -> bool:
    """While tiles are laid the projection is zero for everyone: nothing to search."""
    return state.phase == PLACING


def candidates(state: PalatinusState, seat: int, actions: list[Action]) -> list[Action]:
    if len(actions) <= 1:
        return actions
    if state.phase == PLACING:
        return _ranked(state, seat, actions)
    return actions[:KEEP]
