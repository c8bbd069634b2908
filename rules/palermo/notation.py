"""Palermo's text notation (what players type in /move); see README.md.

=========================  ======================================================
``SF C3``                  lay the Start/Finish tile on tile space C3
``H2 C4 door SW``          build an H2 house on C4, turned so its door is at SW
``police e5``              put your police stone on cell e5 (``r7``: ring cell 7)
``keep``                   leave your police stone where it is
``move e5 cost 4 exact``   move your pawn to e5, spending 4 points, ending exactly
=========================  ======================================================

Tile spaces are upper case (``C4``), cells lower case (``e5``); parsing ignores case because the
phase says which is meant. A move may leave out its cost and ending when only one fits.
"""

from __future__ import annotations

import re

from rules.core import Action, InvalidAction, quote
from rules.palermo.actions import legal_for, needed_now
from rules.palermo.collecting import ENDINGS
from rules.palermo.components import CORNERS
from rules.palermo.geometry import Geometry
from rules.palermo.state import BUILD, POLICE, PalermoState
from rules.validation import read_number

_FILLER = {"to", "at", "on", "for", "cost", "costs", "pts", "points", "point", "tile", "door"}


def format_action(state: PalermoState, action: Action) -> str:
    kind = action.get("type")
    if kind == "start":
        return f"SF {action['space']}"
    if kind == "build":
        return f"{action['kind']} {action['space']} door {action['door']}"
    if kind == "police":
        return f"police {action['to']}"
    if kind == "keep":
        return "keep"
    if kind == "walk_on":
        return "walk on"
    if kind == "move":
        return f"move {action['to']} cost {action['cost']} {action['end']}"
    raise InvalidAction("Unknown action type.")


_COLLECT_WORDS = ("police", "keep", "skip", "walk", "walk_on", "move")


def parse_action(state: PalermoState, seat: int, text: str) -> Action:
    words = re.sub(r"[,;:()\[\]=>-]+", " ", text).lower().split()
    if not words:
        raise InvalidAction(f"Type a move: now you {needed_now(state)}.")
    head = words[0]
    if state.phase == BUILD or head in ("sf", "start") or head in _house_kinds(state):
        return _parse_build(state, words)
    if head in ("keep", "skip"):
        return {"type": "keep"}
    if head == "walk" or words == ["walk_on"]:
        return {"type": "walk_on"}
    if head == "police":
        cell = _one([w for w in words[1:] if w not in _FILLER], "a cell")
        return {"type": "police", "to": _cell(state, cell)}
    if head != "move" and state.step == POLICE:
        cell = _one([w for w in words if w not in _FILLER], "a cell")
        return {"type": "police", "to": _cell(state, cell)}
    return _parse_move(state, [w for w in words if w != "move"])


def _house_kinds(state: PalermoState) -> dict[str, str]:
    return {k.name.lower(): k.name for k in state.config.houses}


def _parse_build(state: PalermoState, words: list[str]) -> Action:
    """The Start/Finish tile or a house (``apply`` refuses them after phase 1); in phase 1,
    anything else is told what phase 1 wants, never how to move a pawn."""
    head, geo = words[0], state.geo
    if head in ("sf", "start"):
        space = _one([w for w in words[1:] if w not in _FILLER and w != "finish"], "a space")
        if geo.parse_space(space) is None:
            raise InvalidAction(f"{quote(space)} is not a tile space: {_spaces(geo)}.")
        return {"type": "start", "space": space.upper()}
    kinds = _house_kinds(state)
    if head in kinds:
        rest = [w for w in words[1:] if w not in _FILLER]
        if len(rest) != 2:
            raise InvalidAction("Write a house as kind, space and door corner: 'H2 C4 door SW'.")
        space, corner = rest
        if geo.parse_space(space) is None:
            raise InvalidAction(f"{quote(space)} is not a tile space: {_spaces(geo)}.")
        if corner.upper() not in CORNERS:
            raise InvalidAction("The door corner is one of NW, NE, SE, SW.")
        return {"type": "build", "kind": kinds[head], "space": space.upper(),
                "door": corner.upper()}
    if head in _COLLECT_WORDS:
        raise InvalidAction(
            f"Police stones and pawns move in phase 2; now you {needed_now(state)}.")
    raise InvalidAction(f"Unknown move {quote(head)}: now you {needed_now(state)}.")


def _parse_move(state: PalermoState, words: list[str]) -> Action:
    words = [w for w in words if w not in _FILLER]
    if not words:
        raise InvalidAction("Name the cell to move to, e.g. 'move e5'.")
    cell = _cell(state, words[0])
    cost: int | None = None
    end: str | None = None
    for word in words[1:]:
        if word.isdigit():
            cost = read_number(word)
        elif word in ENDINGS:
            end = word
        else:
            raise InvalidAction(f"Did not understand {quote(word)}: write 'move e5 cost 4 exact'.")
    if cost is not None and end is not None:
        return {"type": "move", "to": cell, "cost": cost, "end": end}
    fits = [
        a for a in legal_for(state)
        if a["type"] == "move" and a["to"] == cell
        and (cost is None or a["cost"] == cost) and (end is None or a["end"] == end)
    ]
    if len(fits) == 1:
        return dict(fits[0])
    if not fits:
        if any(a["type"] == "walk_on" for a in legal_for(state)):
            raise InvalidAction(
                f"No stop on {cell} now: to end a full move there, choose 'walk on' first."
            )
        raise InvalidAction(f"No move to {cell} fits; pick one from the list.")
    options = ", ".join(f"cost {a['cost']} {a['end']}" for a in fits[:6])
    raise InvalidAction(f"Several moves reach {cell} ({options}): say which.")


def _spaces(geo: Geometry) -> str:
    """The tile spaces there are, from the board's real size."""
    return f"tile spaces are A1–{geo.space_name(geo.grid * geo.grid - 1)}"


def _one(words: list[str], what: str) -> str:
    if len(words) != 1:
        raise InvalidAction(f"Name exactly {what}.")
    return words[0]


def _cell(state: PalermoState, word: str) -> str:
    node = state.geo.parse_cell(word)
    if node is None:
        geo = state.geo
        last = geo.cell_name(geo.city_count - 1)
        raise InvalidAction(f"{quote(word)} is not a cell: city cells are a1–{last}, "
                            f"ring cells r1–r{geo.ring_count}.")
    return state.geo.cell_name(node)
