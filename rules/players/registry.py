"""Per-game heuristics, found by game id.

A game's registry entry (``rules/<game>/entry.py``) names its heuristic module, which has this
shape:

* ``evaluate(state) -> tuple[float, ...]``: every seat's projected final score (the game's own
  scoring applied to the position, plus a little credit for progress not scored yet);
* ``candidates(state, seat, actions) -> list[Action]``: the actions worth considering, best
  guess first (the game's rules of thumb); it may drop actions but never returns an empty list;
* ``SCALE``: a typical score gap, to turn projected margins into rewards between 0 and 1;
* optionally ``BUDGETS``: level -> ``(iterations, rollout_depth)``, ``rounds(state)``, and
  ``searchable(state) -> bool``: False where the projection cannot tell the candidates apart
  (a search would spend its budget on ties), so the searching levels play the easy choice;
  ``STABLE_CANDIDATES = True`` when the ranking hardly depends on what the seat cannot see, so
  the search ranks a node's candidates once instead of at every visit; ``horizon(state, seat)``:
  the position the seat weighs its options in, where a simultaneous phase must not end by the
  seat's own move only because the others are done (the order in which seats act must not
  change what a seat chooses); ``leaf(state, seat) -> bool``: True where the search must score
  the position instead of looking further (there, what the others do next would depend on
  the order in which seats act).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from rules import ENTRIES
from rules.core import Action, RulesError


@dataclass(frozen=True)
class Heuristic:
    evaluate: Callable[[Any], tuple[float, ...]]
    candidates: Callable[[Any, int, list[Action]], list[Action]]
    scale: float
    budgets: Mapping[str, tuple[int, int]]
    rounds: Callable[[Any], int | None]
    searchable: Callable[[Any], bool]
    stable: bool
    horizon: Callable[[Any, int], Any]
    leaf: Callable[[Any, int], bool]


def _no_rounds(state: Any) -> int | None:
    return None


def _always(state: Any) -> bool:
    return True


def _as_is(state: Any, seat: int) -> Any:
    return state


def _never(state: Any, seat: int) -> bool:
    return False


def _from_module(module: ModuleType) -> Heuristic:
    return Heuristic(
        evaluate=module.evaluate,
        candidates=module.candidates,
        scale=float(module.SCALE),
        budgets=dict(getattr(module, "BUDGETS", {})),
        rounds=getattr(module, "rounds", _no_rounds),
        searchable=getattr(module, "searchable", _always),
        stable=bool(getattr(module, "STABLE_CANDIDATES", False)),
        horizon=getattr(module, "horizon", _as_is),
        leaf=getattr(module, "leaf", _never),
    )


@cache
def _all() -> dict[str, Heuristic]:
    return {game_id: _from_module(importlib.import_module(entry.heuristic))
            for game_id, entry in ENTRIES.items() if entry.heuristic is not None}


def heuristic_for(game_id: str) -> Heuristic:
    """The heuristic of a game; a RulesError names the games that have one."""
    found = _all()
    if game_id not in found:
        known = ", ".join(sorted(found)) or "none"
        raise RulesError(f"No computer player for {game_id!r}. Games with one: {known}.")
    return found[game_id]


def games_with_players() -> tuple[str, ...]:
    return tuple(g for g in sorted(ENTRIES) if g in _all())
