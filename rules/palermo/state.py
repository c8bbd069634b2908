"""Palermo's state: a frozen value with plain JSON dump/load helpers."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rules.palermo.components import Config, config_from_json
from rules.palermo.geometry import Geometry, geometry

START_KIND = "SF"
STREET_KIND = "S"

BUILD, COLLECT, OVER = "build", "collect", "over"
START_TILE, HOUSE, POLICE, MOVE, WALK = "start_tile", "house", "police", "move", "walk"
OFF = -1
"""A police stone off the board, or a pawn still waiting on the Start/Finish tile."""


@dataclass(frozen=True)
class Tile:
    """A laid tile. ``owner`` is the seat whose chip marks the business (-1 for none) and
    ``chip`` says whether that chip is still on the door."""

    kind: str
    rotation: int = 0
    owner: int = -1
    chip: bool = False


@dataclass(frozen=True)
class PalermoState:
    players: int
    options: str  # canonical JSON of the options in force
    rng: str
    first: int
    phase: str
    turn: int
    step: str
    tiles: tuple[Tile | None, ...]
    supply: tuple[tuple[str, int], ...]  # house kinds left in the public supply
    streets_left: int
    last_house: int  # tile space of the latest house, -1 before the first
    to_place: tuple[int, ...]  # chips each seat still has to place in phase 1
    pawns: tuple[int, ...]
    police: tuple[int, ...]
    frozen: tuple[bool, ...]  # stone blocked on its owner's next turn
    penalty: tuple[int, ...]
    collected: tuple[int, ...]
    lost: tuple[int, ...]  # chips on doors sealed off when phase 1 ended (see README)
    income: tuple[int, ...]
    leftover: tuple[int, ...]
    bonus: tuple[int, ...]
    home_order: tuple[int, ...]
    turns: int  # phase-2 turns begun, for the record

    def __hash__(self) -> int:
        # The hash dataclasses would give (``legal_for`` is cached by state), worked out once
        # per state: it hashes every Tile through Python, and a state is looked up many times.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, name) for name in _FIELDS))
            object.__setattr__(self, "_hash", cached)
        return int(cached)

    def __getstate__(self) -> dict[str, Any]:
        # A string's hash differs from one process to the next: never carry it over.
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    @property
    def config(self) -> Config:
        return config_from_json(self.options)

    @property
    def geo(self) -> Geometry:
        cfg = self.config
        return geometry(cfg.grid_tiles, cfg.ring_spaces_per_side)

    def score(self, seat: int) -> int:
        return self.income[seat] + self.leftover[seat] + self.bonus[seat]

    def allowance(self, seat: int) -> int:
        return self.config.start_allowance + self.collected[seat]

    def is_home(self, seat: int) -> bool:
        return seat in self.home_order

    def chips_total(self) -> int:
        return self.config.chips(self.players)

    def all_collected(self, seat: int) -> bool:
        return self.collected[seat] + self.lost[seat] >= self.chips_total()


_FIELDS = tuple(f.name for f in fields(PalermoState))
_FIELD_SET = frozenset(_FIELDS)


def evolve(state: PalermoState, **changes: Any) -> PalermoState:
    """``dataclasses.replace(state, **changes)`` without its per-call work (reading the fields,
    running ``__init__``): a search makes tens of thousands of states a move."""
    unknown = changes.keys() - _FIELD_SET
    if unknown:
        raise TypeError(f"PalermoState has no field {sorted(unknown)[0]!r}")
    values = {name: state.__dict__[name] for name in _FIELDS}
    values.update(changes)
    new = object.__new__(PalermoState)
    new.__dict__.update(values)  # frozen: setattr refuses, the instance's dict does not
    return new


def dump_state(state: PalermoState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "tiles":
            out[f.name] = [
                None if t is None else [t.kind, t.rotation, t.owner, t.chip] for t in value
            ]
        elif f.name == "supply":
            out[f.name] = [[k, n] for k, n in value]
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def load_state(data: dict[str, Any]) -> PalermoState:
    values: dict[str, Any] = {}
    for f in fields(PalermoState):
        raw = data[f.name]
        if f.name == "tiles":
            values[f.name] = tuple(
                None if t is None else Tile(str(t[0]), int(t[1]), int(t[2]), bool(t[3]))
                for t in raw
            )
        elif f.name == "supply":
            values[f.name] = tuple((str(k), int(n)) for k, n in raw)
        elif f.name == "frozen":
            values[f.name] = tuple(bool(v) for v in raw)
        elif isinstance(raw, list):
            values[f.name] = tuple(int(v) for v in raw)
        else:
            values[f.name] = raw
    return PalermoState(**values)
