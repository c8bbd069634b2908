"""The action registry: for every action type, the phase it belongs to and its candidate, check
and run functions (see ``left.py``). ``legal`` lists what a seat may do now."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.core import Action
from rules.hadrians_wall import left, right, trade, year
from rules.hadrians_wall.state import State, Work
from rules.validation import TEXT, WHOLE, ActionShapes, list_of

Cands = Callable[[State, int], list[Action]]
Check = Callable[[State, int, Action], "str | None"]
Run = Callable[[Work, int, Action], None]


@dataclass(frozen=True)
class Kind:
    phase: str
    cands: Cands
    check: Check
    run: Run


def _track(name: str) -> Kind:
    return Kind("actions", lambda st, seat: left.cands_track(st, seat, name), left.check_track,
                left.run_track)


KINDS: dict[str, Kind] = {
    "choose": Kind("choose", year.cands_choose, year.check_choose, year.run_choose),
    "road": Kind("actions", year.cands_road, year.check_road, year.run_road),
    "mining": _track("mining"),
    "guard": _track("guard"),
    "train": Kind("actions", left.cands_train, left.check_train, left.run_train),
    "fort": _track("fort"),
    "wall": _track("wall"),
    "cippi": _track("cippi"),
    "build": Kind("actions", left.cands_build, left.check_build, left.run_build),
    "forum": Kind("actions", left.cands_forum, left.check_forum, left.run_forum),
    "landmark": Kind("actions", left.cands_landmark, left.check_landmark, left.run_landmark),
    "citizen": Kind("actions", right.cands_citizen, right.check_citizen, right.run_citizen),
    "market": Kind("actions", trade.cands_market, trade.check_market, trade.run_market),
    "perform": Kind("actions", right.cands_perform, right.check_perform, right.run_perform),
    "gladiator": Kind("actions", right.cands_gladiator, right.check_gladiator,
                      right.run_gladiator),
    "battle": Kind("actions", right.cands_battle, right.check_battle, right.run_battle),
    "temple": Kind("actions", right.cands_temple, right.check_temple, right.run_temple),
    "bribe": Kind("actions", right.cands_bribe, right.check_bribe, right.run_bribe),
    "ruling": Kind("actions", right.cands_ruling, right.check_ruling, right.run_ruling),
    "diplomat": Kind("actions", right.cands_diplomat, right.check_diplomat, right.run_diplomat),
    "scout": Kind("actions", trade.cands_scout, trade.check_scout, trade.run_scout),
    "pass": Kind("actions", lambda st, seat: [{"type": "pass"}], year.check_pass, year.run_pass),
    "favour": Kind("attack", year.cands_favour, year.check_favour, year.run_favour),
    "defend": Kind("attack", lambda st, seat: [{"type": "defend"}], year.check_defend,
                   year.run_defend),
}

_BOX_COHORT = {"box": WHOLE}
SHAPES = ActionShapes(
    {
        "choose": {"path": TEXT},
        "road": {"attribute": TEXT},
        "mining": _BOX_COHORT,
        "guard": _BOX_COHORT,
        "train": _BOX_COHORT,
        "fort": {"box": WHOLE, "pay": TEXT},
        "wall": _BOX_COHORT,
        "cippi": _BOX_COHORT,
        "build": {"building": TEXT},
        "forum": {"box": WHOLE, "pay": list_of(TEXT, 2), "gain": TEXT},
        "landmark": {"landmark": TEXT},
        "citizen": {"track": TEXT, "box": WHOLE},
        "market": {"box": WHOLE, "from": TEXT},
        "perform": {"box": WHOLE},
        "gladiator": {"gladiator": TEXT, "pay": TEXT},
        "battle": {"gladiator": TEXT},
        "temple": {"box": WHOLE, "pay": TEXT},
        "bribe": {"box": WHOLE},
        "ruling": {"column": WHOLE},
        "diplomat": {"cohort": TEXT},
        "scout": {"from": TEXT, "cells": list_of(list_of(WHOLE, 2))},
        "pass": {},
        "favour": {"cohort": TEXT, "with": TEXT},
        "defend": {},
    },
    optional={
        **{k: {"cohort": TEXT} for k in ("mining", "guard", "train", "fort", "wall", "cippi")},
        "build": {"attribute": TEXT},
    },
    hint=" Moves are written like 'wall 4 (1 resource), left cohort' or 'pass'.",
)
"""Every action type's fields (README.md); ``apply`` checks them before any rule."""

ACTION_PHASE_KINDS = tuple(k for k, v in KINDS.items() if v.phase == "actions" and k != "road")


def active(st: State) -> frozenset[int]:
    if st.phase == "choose":
        return frozenset(s for s in range(st.players) if st.sheets[s]["chosen"] is None)
    if st.phase == "actions":
        return frozenset(s for s in range(st.players) if not st.sheets[s]["passed"])
    if st.phase == "attack":
        return frozenset(s for s in range(st.players) if not st.sheets[s]["decided"])
    return frozenset()


def legal(st: State, seat: int) -> list[Action]:
    """Every action the seat may take now (the candidates are built from the same checks)."""
    if seat not in active(st):
        return []
    if st.phase == "choose":
        return year.cands_choose(st, seat)
    if st.phase == "attack":
        return [*year.cands_favour(st, seat), {"type": "defend"}]
    if st.sheets[seat]["road_pending"]:
        return year.cands_road(st, seat)
    out: list[Action] = []
    for kind in ACTION_PHASE_KINDS:
        out.extend(KINDS[kind].cands(st, seat))
    return out
