"""The legal actions of a state as JSON objects, and their validation.

Action types (see README.md): ``start`` (the Start/Finish tile), ``build`` (a house), ``police``
and ``keep`` (the police decision), ``walk_on`` (no stop this turn) and ``move`` (the pawn's
move: destination, cost and ending).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.core import Action, IllegalAction
from rules.palermo.building import Placement, legal_placements
from rules.palermo.collecting import ENDINGS, Move, is_stop, legal_moves, police_targets
from rules.palermo.components import CORNERS
from rules.palermo.state import (
    BUILD,
    COLLECT,
    HOUSE,
    MOVE,
    OFF,
    OVER,
    POLICE,
    START_TILE,
    WALK,
    PalermoState,
)
from rules.validation import TEXT, WHOLE, ActionShapes, one_of

ACTION_TYPES = ("start", "build", "police", "keep", "walk_on", "move")


def placement_action(state: PalermoState, p: Placement) -> Action:
    kind = state.config.house(p.kind)
    return {
        "type": "build",
        "kind": p.kind,
        "space": state.geo.space_name(p.space),
        "door": CORNERS[kind.door_at(p.rotation)],
    }


def move_action(state: PalermoState, m: Move) -> Action:
    return {"type": "move", "to": state.geo.cell_name(m.to), "cost": m.cost, "end": m.end}


def may_keep_police(state: PalermoState, seat: int) -> bool:
    """Keeping is refused only to a stone still off the board under ``police_start =
    "first_turn"``, which must come into play."""
    return not (state.config.police_start == "first_turn" and state.police[seat] == OFF)


@lru_cache(maxsize=256)
def legal_for(state: PalermoState) -> tuple[Action, ...]:
    """Every action the player to act may take (callers copy before handing them out)."""
    seat, geo = state.turn, state.geo
    if state.phase == BUILD and state.step == START_TILE:
        return tuple(
            {"type": "start", "space": geo.space_name(i)}
            for i, t in enumerate(state.tiles)
            if t is None
        )
    if state.phase == BUILD and state.step == HOUSE:
        return tuple(placement_action(state, p) for p in legal_placements(state))
    if state.phase == COLLECT and state.step == POLICE:
        targets = [{"type": "police", "to": geo.cell_name(n)} for n in police_targets(state, seat)]
        keep: list[Action] = [{"type": "keep"}] if may_keep_police(state, seat) else []
        return tuple(keep + targets)
    if state.phase == COLLECT and state.step in (MOVE, WALK):
        moves = legal_moves(state, seat)
        stops = [m for m in moves if is_stop(m)]
        rest = [m for m in moves if not is_stop(m)]
        if state.step == WALK:
            return tuple(move_action(state, m) for m in rest)
        if stops:
            walk: list[Action] = [{"type": "walk_on"}] if rest else []
            return tuple([move_action(state, m) for m in stops] + walk)
        return tuple(move_action(state, m) for m in rest)
    return ()


SHAPES = ActionShapes(
    {
        "start": {"space": TEXT},
        "build": {"kind": TEXT, "space": TEXT, "door": TEXT},
        "police": {"to": TEXT},
        "keep": {},
        "walk_on": {},
        "move": {"to": TEXT, "cost": WHOLE, "end": one_of(*ENDINGS)},
    },
)


def check_shape(action: Any) -> Action:
    """Refuse a malformed action (InvalidAction); legality is checked against ``legal_for``."""
    return SHAPES.check(action)


def why_illegal(state: PalermoState, action: Action) -> IllegalAction:
    """A player-facing reason for a well-formed action that is not legal now."""
    kind, step = action["type"], state.step
    if step == POLICE and kind == "keep":
        return IllegalAction("Your police stone must come onto the board this turn.")
    if step == POLICE and kind == "police":
        return IllegalAction(
            "A police stone goes on a free street or ring cell, not next to another stone."
        )
    if step == START_TILE and kind == "start":
        return IllegalAction("The Start/Finish tile goes on a free space.")
    if step == HOUSE and kind == "build":
        return IllegalAction(
            "That house cannot go there: it must join a roof edge to edge if any placement "
            "can, and must leave every street cell a way to the ring."
        )
    if step == MOVE and kind == "move" and action["end"] not in ("business", "home"):
        stops = any(a["type"] == "walk_on" for a in legal_for(state))
        if stops:
            return IllegalAction(
                "You can stop at a business or at home: pick a stop, or 'walk on' first and "
                "then the cell where your points run out."
            )
    if step in (MOVE, WALK) and kind in ("move", "walk_on"):
        return IllegalAction("That move is not possible: pick one from the list of moves.")
    return IllegalAction(f"Now you {needed_now(state)}.")


def needed_now(state: PalermoState) -> str:
    """What the player to act does now, with an example of how to write it."""
    kinds = ", ".join(kind for kind, left in state.supply if left)
    return {
        START_TILE: "lay the Start/Finish tile (e.g. 'SF C3')",
        HOUSE: f"build a house: kind ({kinds}), space and door corner, e.g. 'H2 C4 door SW'",
        POLICE: "place your police stone or keep it ('police e5' or 'keep')",
        MOVE: "move your pawn (e.g. 'move e5 cost 4 business', or 'walk on')",
        WALK: "pick where your pawn ends (e.g. 'move e5 cost 7 exact')",
    }.get(state.step if state.phase != OVER else "", "wait: the game is over")
