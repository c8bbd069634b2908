"""Text notation (what players type in /move); see README.md.

* Lay the drawn tile: ``lay 3 r2`` (ring position 3, rotation r2). Also ``3 r2``, ``3/2``,
  ``pos 3 rot 2``.
* Place an inhabitant: ``M C4``, ``F C4``, ``S C4``, ``wolf M C4``, ``wolf F C4`` (and, with neutral
  two-player extras, ``neutral M C4``, ``neutral wolf F C4``). Words may be spelled out
  (``wolf merchant c4``), joined (``wM c4``, ``Fw c4``) or put after the field (``c4 m``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from rules.core import Action, InvalidAction, quote
from rules.palatinus import components as comp
from rules.validation import read_number

_FIELD = re.compile(
    rf"^[{comp.LETTERS[0]}-{comp.LETTERS[-1]}][1-{comp.FIELDS_PER_TILE}]$", re.IGNORECASE)
_NEAR_FIELD = re.compile(r"^[a-z]\d+$")  # written like a field, but maybe off the board
FIELDS = f"fields are A1–{comp.LETTERS[-1]}{comp.FIELDS_PER_TILE}"
_NUMBER = re.compile(r"(rotation|rot|r|position|pos|p)?(\d+)")
_WORDS = {
    "merchant": "M",
    "merchants": "M",
    "m": "M",
    "farmer": "F",
    "farmers": "F",
    "f": "F",
    "soldier": "S",
    "soldiers": "S",
    "s": "S",
}
_FLAGS = {"wolf": "w", "w": "w", "neutral": "x", "extra": "x", "x": "x"}
_FILLER = {"place", "put", "a", "an", "on", "at", "lay", "tile", "to", "piece", "side", "up"}

LAY_HELP = "Write a lay as 'lay POSITION rROTATION', e.g. lay 3 r2."
PLACE_HELP = "Write a placement as PIECE FIELD, e.g. M C4, F B2, S A1, wolf M C4."
LAYING, PLACING = "laying", "placing"
"""The phases a hint is chosen for (the same names as the state's phases)."""


def format_action(action: Action) -> str:
    kind = action.get("type")
    if kind == "lay":
        return f"lay {action['position']} r{action['rotation']}"
    if kind == "place":
        return f"{piece_text(str(action['piece']))} {action['field']}"
    raise InvalidAction(f"Unknown action type {quote(str(kind))}.")


@cache  # a handful of kinds, asked for each legal move on every keystroke
def piece_text(kind: str) -> str:
    words = []
    if comp.is_extra(kind):
        words.append("neutral")
    if comp.is_wolf(kind):
        words.append("wolf")
    words.append(comp.base_type(kind))
    return " ".join(words)


def parse_action(text: str, phase: str = "", lay_help: str = LAY_HELP) -> Action:
    """The action ``text`` writes. ``phase`` (laying or placing) chooses the hint a mistake
    gets, so a player is always told how to write a move of the phase the game is in;
    ``lay_help`` is that phase's lay hint (it may name the drawn tile and free positions)."""
    cleaned = re.sub(r"[,;:/@\-_]+", " ", text.strip().lower())
    tokens = [t for t in cleaned.split() if t]
    if not tokens:
        hint = {LAYING: lay_help, PLACING: PLACE_HELP}.get(phase, f"{PLACE_HELP} {LAY_HELP}")
        raise InvalidAction(f"Empty move. {hint}")
    fields = [t for t in tokens if _FIELD.match(t)]
    if fields:
        return _parse_place(tokens, fields)
    if _names_piece(tokens):
        if phase == LAYING:
            raise InvalidAction(f"Inhabitants are placed once every tile is laid. {lay_help}")
        wrong = [t for t in tokens if _NEAR_FIELD.match(t) and t not in _WORDS]
        if wrong:
            raise InvalidAction(f"There is no field {wrong[0].upper()}: {FIELDS}. {PLACE_HELP}")
        raise InvalidAction(f"Name the field too. {PLACE_HELP}")
    if phase == PLACING:
        # A well-written lay still parses (``apply`` then says every tile is laid); a
        # mistake gets the placing hint, never the lay one.
        try:
            return _parse_lay(tokens, lay_help)
        except InvalidAction:
            unknown = [t for t in tokens if t not in _FILLER and not _NUMBER.fullmatch(t)]
            start = f"Unknown word {quote(unknown[0])}." if unknown else "Every tile is laid."
            raise InvalidAction(f"{start} {PLACE_HELP}") from None
    return _parse_lay(tokens, lay_help)


def _names_piece(tokens: list[str]) -> bool:
    """Whether a word of the move names a piece (merchant, wolf, wF, ...)."""
    return any(
        part in _WORDS or part in ("wolf", "neutral")
        for token in tokens if token not in _FILLER and token != "p"
        for part in _split_piece(token)
    )


def _parse_place(tokens: list[str], fields: list[str]) -> Action:
    if len(fields) != 1:
        raise InvalidAction(f"Name one field. {PLACE_HELP}")
    base: str | None = None
    flags: set[str] = set()
    for token in tokens:
        if token in fields or token in _FILLER:
            continue
        for part in _split_piece(token):
            if part in _FLAGS:
                flags.add(_FLAGS[part])
            elif part in _WORDS:
                if base is not None and base != _WORDS[part]:
                    raise InvalidAction(f"Name one piece. {PLACE_HELP}")
                base = _WORDS[part]
            else:
                raise InvalidAction(f"Unknown word {quote(token)}. {PLACE_HELP}")
    if base is None:
        raise InvalidAction(f"Name the piece. {PLACE_HELP}")
    if "w" in flags and base == "S":
        raise InvalidAction("Soldiers have no wolf side.")
    kind = ("x" if "x" in flags else "") + base + ("w" if "w" in flags else "")
    return {"type": "place", "field": fields[0].upper(), "piece": kind}


def _split_piece(token: str) -> list[str]:
    """``wm`` -> [w, m]; whole words stay whole."""
    if token in _WORDS or token in _FLAGS:
        return [token]
    if re.fullmatch(r"[mfswx]{2,3}", token):
        return list(token)
    if token.startswith("wolf") and token[4:] in _WORDS:
        return ["wolf", token[4:]]
    return [token]


def _parse_lay(tokens: list[str], lay_help: str = LAY_HELP) -> Action:
    position: int | None = None
    rotation: int | None = None
    pending = ""
    for token in tokens:
        if token in _FILLER:
            continue
        if token in ("position", "pos", "p", "rotation", "rot", "r"):
            pending = token[0]
            continue
        matches = list(_NUMBER.finditer(token))
        if not matches or "".join(m.group(0) for m in matches) != token:
            raise InvalidAction(f"Unknown word {quote(token)}. {lay_help}")
        for match in matches:
            prefix, value = (match.group(1) or pending)[:1], read_number(match.group(2))
            pending = ""
            if prefix == "r" or (not prefix and position is not None):
                rotation = _once(rotation, value, lay_help)
            else:
                position = _once(position, value, lay_help)
    if position is None or rotation is None:
        raise InvalidAction(lay_help)
    return {"type": "lay", "position": position, "rotation": rotation}


def _once(current: Any, value: int, lay_help: str) -> int:
    if current is not None:
        raise InvalidAction(lay_help)
    return value
