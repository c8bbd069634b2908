"""Static components of Palatinus, loaded from ``data/*.json`` and validated on load.

Piece kinds are short codes: ``M`` merchant, ``F`` farmer, ``S`` soldier; a ``w`` suffix marks a
wolf-backed piece (``Mw``, ``Fw``) and an ``x`` prefix marks a neutral two-player extra (only used
when ``two_player_extras`` is ``"neutral"``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.core import quote

DATA_DIR = Path(__file__).with_name("data")

LETTERS = ("A", "B", "C", "D", "E", "F", "G")
OWN_KINDS = ("M", "Mw", "F", "Fw", "S")
EXTRA_KINDS = ("xM", "xMw", "xF", "xFw")
KINDS = OWN_KINDS + EXTRA_KINDS
"""The order of the counts on a screen."""

TYPE_NAMES = {"M": "merchant", "F": "farmer", "S": "soldier"}
PLURALS = {"M": "merchants", "F": "farmers", "S": "soldiers"}
FIELDS_PER_TILE = 6
BOARD_FIELDS = len(LETTERS) * FIELDS_PER_TILE
EXTRAS_MODES = ("owned", "neutral")
TIE_BREAKS = ("items", "shared")


def base_type(kind: str) -> str:
    """``M``, ``F`` or ``S`` for any kind code."""
    return kind[1] if kind.startswith("x") else kind[0]


BASE_TYPES: dict[str, str] = {kind: base_type(kind) for kind in KINDS}
"""``base_type`` of every kind, looked up: scoring asks millions of times in a searched game."""


def is_wolf(kind: str) -> bool:
    return kind.endswith("w")


def is_extra(kind: str) -> bool:
    return kind.startswith("x")


def kind_name(kind: str) -> str:
    """A player-facing name such as ``wolf merchant`` or ``neutral farmer``."""
    words = []
    if is_extra(kind):
        words.append("neutral")
    if is_wolf(kind):
        words.append("wolf")
    words.append(TYPE_NAMES[base_type(kind)])
    return " ".join(words)


# --------------------------------------------------------------------------------------------
# Validation helpers (raise ValueError with the file and field at fault).


def _read(name: str) -> dict[str, Any]:
    data = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{name}: expected a JSON object")
    return data


def _count(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{where}: expected a whole number >= 0, got {quote(value)}")
    return value


def check_springs(value: Any, where: str) -> tuple[int, ...]:
    """A list of distinct local directions 0-5."""
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of directions 0-5")
    dirs = []
    for item in value:
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= 5:
            raise ValueError(f"{where}: {quote(item)} is not a direction 0-5")
        dirs.append(item)
    if len(set(dirs)) != len(dirs):
        raise ValueError(f"{where}: a direction is listed twice")
    return tuple(sorted(dirs))


def check_direction(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 5:
        raise ValueError(f"{where}: expected a direction 0-5, got {quote(value)}")
    return value


def check_kind_counts(value: Any, where: str, kinds: tuple[str, ...] = OWN_KINDS) -> dict[str, int]:
    """A mapping of kind code to count; missing kinds count 0, unknown kinds are refused."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected an object of kind -> count")
    for key in value:
        if key not in kinds:
            raise ValueError(f"{where}: unknown kind {quote(key)} (kinds: {', '.join(kinds)})")
    return {k: _count(value.get(k, 0), f"{where}.{k}") for k in kinds}


def check_laurels(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != len(LETTERS) - 1:
        raise ValueError(f"{where}: expected a list of {len(LETTERS) - 1} values")
    values = [_count(v, where) for v in value]
    if min(values) < 1:
        raise ValueError(f"{where}: laurel values must be at least 1")
    return tuple(values)


# --------------------------------------------------------------------------------------------
# The data files.


@lru_cache(maxsize=1)
def tile_data() -> dict[str, tuple[tuple[int, ...], int]]:
    """Letter -> (spring directions, arrow direction)."""
    raw = _read("tiles.json").get("tiles")
    if not isinstance(raw, dict) or sorted(raw) != list(LETTERS):
        raise ValueError(f"tiles.json: expected tiles {', '.join(LETTERS)}")
    out: dict[str, tuple[tuple[int, ...], int]] = {}
    for letter in LETTERS:
        entry = raw[letter]
        if not isinstance(entry, dict):
            raise ValueError(f"tiles.json: tile {letter} must be an object")
        springs = check_springs(entry.get("springs"), f"tiles.json {letter}.springs")
        arrow = check_direction(entry.get("arrow"), f"tiles.json {letter}.arrow")
        out[letter] = (springs, arrow)
    return out


@lru_cache(maxsize=1)
def inhabitant_data() -> dict[str, Any]:
    """The colour set, per-count allocations, two-player extras and soldier-free turns."""
    raw = _read("inhabitants.json")
    colour_set = check_kind_counts(raw.get("colour_set"), "inhabitants.json colour_set")
    allocations_raw = raw.get("allocations")
    if not isinstance(allocations_raw, dict):
        raise ValueError("inhabitants.json allocations: expected an object")
    allocations: dict[int, dict[str, int] | None] = {}
    for players in (2, 3, 4, 5):
        entry = allocations_raw.get(str(players))
        if entry == "colour_set":
            allocations[players] = None  # the whole colour set, whatever it is configured to
        else:
            allocations[players] = check_kind_counts(
                entry, f"inhabitants.json allocations.{players}"
            )
    extras = check_kind_counts(
        raw.get("two_player_extras"), "inhabitants.json two_player_extras", ("M", "Mw", "F", "Fw")
    )
    mode = raw.get("two_player_extras_mode")
    if mode not in EXTRAS_MODES:
        raise ValueError(f"inhabitants.json two_player_extras_mode: one of {EXTRAS_MODES}")
    free_raw = raw.get("soldier_free_turns")
    if not isinstance(free_raw, dict):
        raise ValueError("inhabitants.json soldier_free_turns: expected an object")
    free = {
        p: _count(free_raw.get(str(p)), f"inhabitants.json soldier_free_turns.{p}")
        for p in (2, 3, 4, 5)
    }
    data = {
        "colour_set": colour_set,
        "allocations": allocations,
        "two_player_extras": extras,
        "two_player_extras_mode": mode,
        "soldier_free_turns": free,
    }
    for players in (2, 3, 4, 5):
        allocation(players, colour_set, data)  # raises when a count does not fit
    return data


@lru_cache(maxsize=1)
def scoring_data() -> dict[str, Any]:
    raw = _read("scoring.json")
    palatinus = _count(raw.get("palatinus_laurel"), "scoring.json palatinus_laurel")
    if palatinus < 1:
        raise ValueError("scoring.json palatinus_laurel: must be at least 1")
    tie_break = raw.get("tie_break")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"scoring.json tie_break: one of {TIE_BREAKS}")
    return {
        "palatinus_laurel": palatinus,
        "laurels": check_laurels(raw.get("laurels"), "scoring.json laurels"),
        "tied_hill_disc": _count(raw.get("tied_hill_disc"), "scoring.json tied_hill_disc"),
        "shared_capture_disc": _count(
            raw.get("shared_capture_disc"), "scoring.json shared_capture_disc"
        ),
        "tie_break": tie_break,
    }


def allocation(
    players: int, colour_set: Mapping[str, int], data: Mapping[str, Any] | None = None
) -> dict[str, int]:
    """The pieces each player starts with (extras of a two-player game included as own kinds).

    Raises ValueError when the allocation is not drawn from the colour set, when the soldiers
    could not all be placed before the soldier-free turns, or when the board is too small.
    """
    info = inhabitant_data() if data is None else data
    fixed = info["allocations"][players]
    pieces = dict(colour_set) if fixed is None else dict(fixed)
    for kind in OWN_KINDS:
        if pieces[kind] > colour_set.get(kind, 0):
            raise ValueError(
                f"the {players}-player allocation needs {pieces[kind]} {kind}, "
                f"but a colour set has {colour_set.get(kind, 0)}"
            )
    if players == 2:
        for kind, n in info["two_player_extras"].items():
            pieces[kind] += n
    total = sum(pieces.values())
    free = info["soldier_free_turns"][players]
    if pieces["S"] > total - free:
        raise ValueError(f"{players} players: too many soldiers for {free} soldier-free turns")
    if total * players > BOARD_FIELDS:
        raise ValueError(f"{players} players x {total} pieces do not fit on {BOARD_FIELDS} fields")
    if total == 0:
        raise ValueError(f"{players} players: nobody would have a piece")
    return pieces
