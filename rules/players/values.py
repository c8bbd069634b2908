"""Turning scores into rewards, and the greedy (easy) choice."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from rules.core import Action, Game, Rng, RulesError, derive_seed
from rules.players.registry import Heuristic

# Moves whose projections lie this close (a share of the game's typical score gap) are taken as
# equal: the table's seed picks among them, so tables with other seeds play other games.
NEAR = 0.02


def projected(game: Game, heur: Heuristic, state: Any) -> tuple[float, ...]:
    """Final scores when the game is over, otherwise the heuristic's projection."""
    outcome = game.outcome(state)
    if outcome is not None:
        return tuple(float(s) for s in outcome.scores)
    return heur.evaluate(state)


def rewards(values: Sequence[float], scale: float, base: float = 0.0,
            final: bool = True) -> list[float]:
    """A reward in [0, 1] per seat.

    With several players: the margin over the best other seat, squashed by ``scale``; when the
    game is over (``final``) half of it is for winning (ties shared). A projection mid-game
    gets no step for being ahead: who leads a few moves on hardly depends on the move searched,
    and the step would drown the margin, which does. Solo: the score against ``base`` (the
    projection where the search started), squashed the same way.
    """
    n = len(values)
    if n == 1:
        return [0.5 + 0.5 * math.tanh((values[0] - base) / scale)]
    top = max(values)
    winners = sum(1 for v in values if v == top)
    out = []
    for i, v in enumerate(values):
        rival = max(values[j] for j in range(n) if j != i)
        margin = math.tanh((v - rival) / scale)
        if final:
            win = (1.0 / winners) if v == top else 0.0
            out.append(0.5 * win + 0.25 + 0.25 * margin)
        else:
            out.append(0.5 + 0.5 * margin)
    return out


def greedy_key(values: Sequence[float], seat: int) -> float:
    """Own projected score, less half the best other (the game's scoring, played to win)."""
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - (0.5 * max(others) if others else 0.0)


def best_first(actions: list[Action], key: Callable[[Action], float], keep: int
               ) -> list[Action]:
    """The ``keep`` actions of highest ``key``, best first; equal keys keep the actions'
    order (so a heuristic's candidates are deterministic)."""
    keyed = sorted(((key(a), i) for i, a in enumerate(actions)), key=lambda p: (-p[0], p[1]))
    return [actions[i] for _, i in keyed[:keep]]


def greedy(game: Game, heur: Heuristic, world: Any, seat: int, actions: list[Action],
           seed: str | None = None) -> Action:
    """The candidate whose result projects best for ``seat``. Candidates within ``NEAR`` of
    the best are equal: ``seed`` picks one of them (the first, best guess, without a seed), so
    the choice depends only on the world, the seat and the seed."""
    cands = heur.candidates(world, seat, actions) or actions
    if len(cands) == 1:
        return cands[0]
    keyed: list[tuple[float, Action]] = []
    for action in cands:
        try:
            after = game.apply(world, seat, action).state
        except RulesError:
            continue  # not possible in this sampled world (cannot happen for one's own seat)
        keyed.append((greedy_key(projected(game, heur, after), seat), action))
    if not keyed:
        return cands[0]
    top = max(k for k, _ in keyed)
    if seed is None:
        return next(a for k, a in keyed if k >= top - 1e-9)
    near = [a for k, a in keyed if k >= top - max(NEAR * heur.scale, 1e-9)]
    if len(near) == 1:
        return near[0]
    return Rng(derive_seed("near", seed)).choice(near)
