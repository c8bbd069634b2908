"""The Minerva state: plain dataclasses of JSON-like values, with dump/load and a cheap clone.

``apply`` clones the state first and changes only the clone, so a state handed out is never
changed again. Pending decisions are a stack of small frames (dicts) that are replaced, never
edited in place, so a shallow copy of the stack is enough.

City cells hold a code: a physical tile id (``N17``, ``S3``, ``T05``), ``F`` for the fountain,
``R`` for a residence and ``A`` for a residence with an assistant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]
Frame = dict[str, Any]


@dataclass
class PlayerState:
    money: int
    res: list[int]  # grain, wood, stone, ore
    glory: int = 0
    reserve: int = 0  # assistants not yet placed
    houses: int = 9  # residences still in the personal stack
    city: dict[Cell, str] = field(default_factory=dict)
    culture_tiles: list[tuple[str, int, int]] = field(default_factory=list)  # (stack, req, vp)
    glory_tiles: list[tuple[int, int, int]] = field(default_factory=list)  # (round, rank, vp)
    order: int | None = None
    passed: bool = False

    def clone(self) -> PlayerState:
        return PlayerState(
            money=self.money,
            res=list(self.res),
            glory=self.glory,
            reserve=self.reserve,
            houses=self.houses,
            city=dict(self.city),
            culture_tiles=list(self.culture_tiles),
            glory_tiles=list(self.glory_tiles),
            order=self.order,
            passed=self.passed,
        )

    def placed(self) -> int:
        return sum(1 for code in self.city.values() if code == "A")

    def dump(self) -> dict[str, Any]:
        return {
            "money": self.money,
            "res": list(self.res),
            "glory": self.glory,
            "reserve": self.reserve,
            "houses": self.houses,
            "city": [[x, y, code] for (x, y), code in sorted(self.city.items())],
            "culture_tiles": [list(t) for t in self.culture_tiles],
            "glory_tiles": [list(t) for t in self.glory_tiles],
            "order": self.order,
            "passed": self.passed,
        }

    @staticmethod
    def load(data: dict[str, Any]) -> PlayerState:
        return PlayerState(
            money=int(data["money"]),
            res=[int(v) for v in data["res"]],
            glory=int(data["glory"]),
            reserve=int(data["reserve"]),
            houses=int(data["houses"]),
            city={(int(x), int(y)): str(code) for x, y, code in data["city"]},
            culture_tiles=[(str(c), int(r), int(v)) for c, r, v in data["culture_tiles"]],
            glory_tiles=[(int(r), int(k), int(v)) for r, k, v in data["glory_tiles"]],
            order=None if data["order"] is None else int(data["order"]),
            passed=bool(data["passed"]),
        )


@dataclass
class MinervaState:
    n: int  # number of players
    options: dict[str, Any]
    rng: str
    round: int
    phase: str  # "main", "hire" or "over"
    current: int  # the seat to act in the main phase
    first: int  # the first player of this round
    start: int  # the start player of round 1
    players: list[PlayerState]
    offer: list[str]  # facilities on offer (multiplayer), in the order they came out
    pairs: list[list[str]]  # solitaire pairs; "R" as second tile = round tile with coins
    deck: list[str]  # the normal-location stack, top first; "R" marks a round tile (hidden)
    temples: list[str]  # the face-up temple row
    temple_stack: list[str]  # hidden
    culture: dict[str, list[tuple[int, int]]]  # stack -> (req, vp), top first
    passes: int = 0  # players who passed this round
    stack: list[Frame] = field(default_factory=list)  # pending decisions, top last
    points: list[int] = field(default_factory=lambda: [0, 0, 0])  # culture points this turn
    hire_queue: list[int] = field(default_factory=list)
    removed: int = 0  # facilities removed from the game (solitaire pairs)

    def clone(self) -> MinervaState:
        return MinervaState(
            n=self.n,
            options=self.options,  # never changed after setup
            rng=self.rng,
            round=self.round,
            phase=self.phase,
            current=self.current,
            first=self.first,
            start=self.start,
            players=[p.clone() for p in self.players],
            offer=list(self.offer),
            pairs=[list(p) for p in self.pairs],
            deck=list(self.deck),
            temples=list(self.temples),
            temple_stack=list(self.temple_stack),
            culture={k: list(v) for k, v in self.culture.items()},
            passes=self.passes,
            stack=list(self.stack),
            points=list(self.points),
            hire_queue=list(self.hire_queue),
            removed=self.removed,
        )

    @property
    def solo(self) -> bool:
        return self.n == 1

    def dump(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "options": self.options,
            "rng": self.rng,
            "round": self.round,
            "phase": self.phase,
            "current": self.current,
            "first": self.first,
            "start": self.start,
            "players": [p.dump() for p in self.players],
            "offer": list(self.offer),
            "pairs": [list(p) for p in self.pairs],
            "deck": list(self.deck),
            "temples": list(self.temples),
            "temple_stack": list(self.temple_stack),
            "culture": {k: [list(t) for t in v] for k, v in self.culture.items()},
            "passes": self.passes,
            "stack": [_dump_frame(f) for f in self.stack],
            "points": list(self.points),
            "hire_queue": list(self.hire_queue),
            "removed": self.removed,
        }

    @staticmethod
    def load(data: dict[str, Any]) -> MinervaState:
        return MinervaState(
            n=int(data["n"]),
            options=dict(data["options"]),
            rng=str(data["rng"]),
            round=int(data["round"]),
            phase=str(data["phase"]),
            current=int(data["current"]),
            first=int(data["first"]),
            start=int(data["start"]),
            players=[PlayerState.load(p) for p in data["players"]],
            offer=[str(t) for t in data["offer"]],
            pairs=[[str(t) for t in p] for p in data["pairs"]],
            deck=[str(t) for t in data["deck"]],
            temples=[str(t) for t in data["temples"]],
            temple_stack=[str(t) for t in data["temple_stack"]],
            culture={
                str(k): [(int(r), int(v)) for r, v in ts] for k, ts in data["culture"].items()
            },
            passes=int(data["passes"]),
            stack=[_load_frame(f) for f in data["stack"]],
            points=[int(v) for v in data["points"]],
            hire_queue=[int(s) for s in data["hire_queue"]],
            removed=int(data["removed"]),
        )


# Frames keep cells as tuples inside the engine and as lists in JSON.
_CELL_KEYS = ("at", "sel")
_CELL_LIST_KEYS = ("cells", "picked")


def _dump_frame(frame: Frame) -> dict[str, Any]:
    out = dict(frame)
    for key in _CELL_KEYS:
        if key in out:
            out[key] = list(out[key])
    for key in _CELL_LIST_KEYS:
        if key in out:
            out[key] = [list(c) for c in out[key]]
    return out


def _load_frame(data: dict[str, Any]) -> Frame:
    out = dict(data)
    for key in _CELL_KEYS:
        if key in out:
            out[key] = (int(out[key][0]), int(out[key][1]))
    for key in _CELL_LIST_KEYS:
        if key in out:
            out[key] = tuple((int(c[0]), int(c[1])) for c in out[key])
    return out
