"""Palermo's static data: the data files in ``data/`` and the setup options built on them.

Every design choice of the specification is a setup option whose default comes from a data file:
``board.json`` (geometry), ``tiles.json`` (tile layouts and counts) and ``rules.json`` (numbers
and rule readings). ``make_config`` validates a full option mapping and raises ``ValueError`` with
a readable message; the engine turns that into ``InvalidAction`` for players.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.core import quote
from rules.words import counted

DATA_DIR = Path(__file__).with_name("data")

CORNERS = ("NW", "NE", "SE", "SW")
"""Tile corners in clockwise order, so a quarter turn clockwise adds 1 to the index."""
CORNER_OFFSETS = ((0, 0), (1, 0), (1, 1), (0, 1))
"""Offset (dx, dy) of each corner's cell inside its tile; y grows southward."""

PLAYER_COUNTS = (3, 4, 5)

CHOICES: dict[str, tuple[Any, ...]] = {
    "join_target": ("any_house", "current_building"),
    "diagonal_roofs": ("no_join", "forbidden"),
    "police_start": ("off_board", "first_turn"),
    "police_on_start_finish": (False, True),
    "police_spacing": ("steps", "steps_and_jumps"),
    "jumps_pass_over": (False, True),
    "simple_paths": (True, False),
    "blocked_stop": ("largest_cost", "any_cost"),
    "tie_break": ("shared", "first_home"),
}


@dataclass(frozen=True)
class HouseKind:
    """A house tile layout: roof corners and door corner as indices into ``CORNERS``."""

    name: str
    roof: tuple[int, ...]
    door: int
    count: int

    def roof_at(self, rotation: int) -> tuple[int, ...]:
        return tuple(sorted((c + rotation) % 4 for c in self.roof))

    def door_at(self, rotation: int) -> int:
        return (self.door + rotation) % 4


@dataclass(frozen=True)
class Config:
    """The options in force, validated and in a hashable form."""

    grid_tiles: int
    ring_spaces_per_side: int
    houses: tuple[HouseKind, ...]
    street_tiles: int
    chips_per_player: tuple[tuple[int, int], ...]
    start_allowance: int
    waiting_bonus: tuple[tuple[int, int], ...]
    first_player: int | None
    join_target: str
    diagonal_roofs: str
    police_start: str
    police_on_start_finish: bool
    police_spacing: str
    jumps_pass_over: bool
    simple_paths: bool
    blocked_stop: str
    tie_break: str

    def chips(self, players: int) -> int:
        return dict(self.chips_per_player)[players]

    def bonus(self, players: int) -> int:
        return dict(self.waiting_bonus)[players]

    def house(self, name: str) -> HouseKind:
        for kind in self.houses:
            if kind.name == name:
                return kind
        raise KeyError(name)


def _read(name: str) -> dict[str, Any]:
    data = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{name}: expected a JSON object")
    return {k: v for k, v in data.items() if not k.startswith("_")}


def default_options() -> dict[str, Any]:
    """Every setup option with its default, read from the data files and validated."""
    return copy.deepcopy(_defaults())


@lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    board = _read("board.json")
    tiles = _read("tiles.json")
    rules = _read("rules.json")
    merged: dict[str, Any] = {"first_player": None}
    for part in (board, tiles, rules):
        for key, value in part.items():
            if key in merged:
                raise ValueError(f"option {key!r} is defined in two data files")
            merged[key] = value
    make_config(merged)  # a broken data file fails on load, not in the middle of a game
    return merged


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{what} must be a whole number from {lo} to {hi}")
    return value


def _per_players(value: Any, what: str, lo: int, hi: int) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must map each player count (3, 4, 5) to a number")
    keys = {str(k) for k in value}
    if keys != {str(p) for p in PLAYER_COUNTS}:
        raise ValueError(f"{what} must give exactly the player counts 3, 4 and 5")
    items = {str(k): v for k, v in value.items()}
    return tuple((p, _int(items[str(p)], f"{what}[{p}]", lo, hi)) for p in PLAYER_COUNTS)


def _corner(value: Any, what: str) -> int:
    if not isinstance(value, str) or value.upper() not in CORNERS:
        raise ValueError(f"{what} must be one of {', '.join(CORNERS)}")
    return CORNERS.index(value.upper())


def _houses(value: Any) -> tuple[HouseKind, ...]:
    if not isinstance(value, Mapping) or not value:
        raise ValueError("houses must map kind names to layouts")
    kinds: list[HouseKind] = []
    for name, spec in value.items():
        if not isinstance(name, str) or not re.fullmatch(r"H[0-9A-Z]{1,3}", name):
            raise ValueError(
                f"house kind {quote(name)}: names are H followed by 1-3 letters/digits"
            )
        if not isinstance(spec, Mapping) or set(spec) != {"roof", "door", "count"}:
            raise ValueError(f"house kind {name}: give exactly roof, door and count")
        roof_list = spec["roof"]
        if not isinstance(roof_list, list) or not 1 <= len(roof_list) <= 3:
            raise ValueError(f"house kind {name}: roof lists 1 to 3 corners")
        roof = tuple(sorted({_corner(c, f"{name} roof") for c in roof_list}))
        if len(roof) != len(roof_list):
            raise ValueError(f"house kind {name}: a roof corner is listed twice")
        door = _corner(spec["door"], f"{name} door")
        if door in roof:
            raise ValueError(f"house kind {name}: the door corner must be a street corner")
        if not any(_touches(door, r) for r in roof):
            raise ValueError(f"house kind {name}: the door corner must share an edge with a roof")
        count = _int(spec["count"], f"{name} count", 0, 99)
        kinds.append(HouseKind(name, roof, door, count))
    return tuple(sorted(kinds, key=lambda k: k.name))


def _touches(a: int, b: int) -> bool:
    """Two corners of one tile share an edge (they are neighbours in clockwise order)."""
    return (a - b) % 4 in (1, 3)


def make_config(options: Mapping[str, Any]) -> Config:
    """Validate a full option mapping (defaults already merged in)."""
    grid = _int(options["grid_tiles"], "grid_tiles", 3, 8)
    ring = _int(options["ring_spaces_per_side"], "ring_spaces_per_side", 1, 4 * grid)
    houses = _houses(options["houses"])
    streets = _int(options["street_tiles"], "street_tiles", 0, 99)
    chips = _per_players(options["chips_per_player"], "chips_per_player", 1, 99)
    allowance = _int(options["start_allowance"], "start_allowance", 1, 20)
    bonus = _per_players(options["waiting_bonus"], "waiting_bonus", 0, 99)
    first = options["first_player"]
    if first is not None:
        first = _int(first, "first_player", 0, max(PLAYER_COUNTS) - 1)
    choices: dict[str, Any] = {}
    for key, allowed in CHOICES.items():
        value = options[key]
        if not any(value == a and type(value) is type(a) for a in allowed):
            shown = " or ".join(json.dumps(a) for a in allowed)
            raise ValueError(f"{key} must be {shown}")
        choices[key] = value
    spaces = grid * grid
    house_total = sum(k.count for k in houses)
    for players, per in chips:
        built = players * per
        if 1 + built > spaces:
            raise ValueError(f"{players} players x {per} chips do not fit on {spaces} spaces")
        if built > house_total:
            raise ValueError(f"{players} players need {built} house tiles; the supply has fewer")
        if spaces - 1 - built > streets:
            raise ValueError(f"{players} players leave more empty spaces than street tiles")
    return Config(
        grid_tiles=grid,
        ring_spaces_per_side=ring,
        houses=houses,
        street_tiles=streets,
        chips_per_player=chips,
        start_allowance=allowance,
        waiting_bonus=bonus,
        first_player=first,
        **choices,
    )


@lru_cache(maxsize=64)
def config_from_json(text: str) -> Config:
    """The config of an option mapping kept as canonical JSON inside a state."""
    return make_config(json.loads(text))


def options_json(options: Mapping[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def house_words(kind: str, roofs: int) -> str:
    """A house kind as players read it: "H2 house (2 roof sections)"."""
    return f"{kind} house ({counted(roofs, 'roof section')})"


def house_name(config: Config, kind: str) -> str:
    roofs = next((len(h.roof) for h in config.houses if h.name == kind), 0)
    return house_words(kind, roofs) if roofs else f"{kind} house"


def movement(points: int) -> str:
    """Points a pawn spends: one name for the idea in every text ("movement points")."""
    return counted(points, "movement point")

