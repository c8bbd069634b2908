"""The Palatinus state (a frozen value) and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.core import copy_json
from rules.palatinus import components as comp
from rules.palatinus.config import Config, build_config
from rules.palatinus.geometry import Board, build_board

LAYING = "laying"
PLACING = "placing"
OVER = "over"


@dataclass(frozen=True)
class Tile:
    letter: str
    position: int
    """0 for the centre, 1-12 for a ring position."""
    rotation: int


@dataclass(frozen=True)
class Piece:
    field: str
    owner: int
    """The seat that placed it (and scores it, unless it is a neutral extra)."""
    kind: str
    """A code of ``components.KINDS``."""


@dataclass(frozen=True)
class PalatinusState:
    players: int
    config: Config
    rng: str
    start_seat: int
    phase: str
    tile_stack: tuple[str, ...]
    """Tiles not drawn yet, next first (hidden unless the order was pinned)."""
    current_tile: str | None
    """The tile drawn and waiting to be laid (public)."""
    tiles: tuple[Tile, ...]
    laurel_stack: tuple[int, ...]
    """Laurels for the outer hills in letter order, dealt once the board is complete."""
    laurels: tuple[tuple[str, int], ...]
    turn: int
    """The seat to act; -1 once the game is over."""
    screens: tuple[tuple[int, ...], ...]
    """Per seat, the counts of ``components.KINDS`` still behind the screen."""
    pieces: tuple[Piece, ...]
    scoring: dict[str, Any] | None = None
    """The scoring record, once every piece is down (never mutated)."""

    @cached_property
    def board(self) -> Board:
        # Kept on the (frozen) state: a move asks for it dozens of times.
        return board_of(self)

    def laurel_of(self, letter: str) -> int | None:
        for key, value in self.laurels:
            if key == letter:
                return value
        return None

    def left(self, seat: int) -> int:
        return sum(self.screens[seat])


def same_board(new: PalatinusState, old: PalatinusState) -> PalatinusState:
    """``new``, given ``old``'s board if it was built: for a state made from ``old`` with the
    same tiles and config (a determinization), which would build it again."""
    built = old.__dict__.get("board")
    if built is not None:
        new.__dict__["board"] = built  # where ``cached_property`` keeps it
    return new


def with_placement(state: PalatinusState, screens: tuple[tuple[int, ...], ...],
                   pieces: tuple[Piece, ...], turn: int) -> PalatinusState:
    """``replace(state, screens=..., pieces=..., turn=...)`` keeping the board if it was built
    (a placement lays no tile). Copied field by field: a search places every candidate it
    ranks, and ``replace`` takes eight times as long (the state has no ``__post_init__``)."""
    new = object.__new__(PalatinusState)
    new.__dict__.update(state.__dict__)  # the fields, and the board where it was kept
    new.__dict__.update(screens=screens, pieces=pieces, turn=turn)
    return new


def board_of(state: PalatinusState) -> Board:
    tiles = tuple((t.letter, t.position, t.rotation) for t in state.tiles)
    springs = tuple(zip(comp.LETTERS, state.config.springs, strict=True))
    return build_board(tiles, springs)


def dump(state: PalatinusState) -> dict[str, Any]:
    return {
        "players": state.players,
        "options": state.config.as_options(),
        "rng": state.rng,
        "start_seat": state.start_seat,
        "phase": state.phase,
        "tile_stack": "".join(state.tile_stack),
        "current_tile": state.current_tile,
        "tiles": [[t.letter, t.position, t.rotation] for t in state.tiles],
        "laurel_stack": list(state.laurel_stack),
        "laurels": [[letter, value] for letter, value in state.laurels],
        "turn": state.turn,
        "screens": [list(s) for s in state.screens],
        "pieces": [[p.field, p.owner, p.kind] for p in state.pieces],
        "scoring": copy_json(state.scoring),
    }


def load(data: dict[str, Any]) -> PalatinusState:
    try:
        return PalatinusState(
            players=int(data["players"]),
            config=build_config(data["options"]),
            rng=str(data["rng"]),
            start_seat=int(data["start_seat"]),
            phase=str(data["phase"]),
            tile_stack=tuple(str(data["tile_stack"])),
            current_tile=data["current_tile"],
            tiles=tuple(Tile(str(t[0]), int(t[1]), int(t[2])) for t in data["tiles"]),
            laurel_stack=tuple(int(v) for v in data["laurel_stack"]),
            laurels=tuple((str(k), int(v)) for k, v in data["laurels"]),
            turn=int(data["turn"]),
            screens=tuple(tuple(int(n) for n in s) for s in data["screens"]),
            pieces=tuple(Piece(str(p[0]), int(p[1]), str(p[2])) for p in data["pieces"]),
            scoring=copy_json(data.get("scoring")),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"not a Palatinus state: {exc}") from None
