"""The engine contract every game implements.

One stateless ``Game`` object per game serves every table. A state is a value: ``apply`` returns a
new state and never mutates the one it was given. Actions are JSON objects with a ``"type"`` key.
Randomness lives in the state as the serialized form of ``Rng`` and never in module-level
``random``; views never contain it. Secrets leave the engine only through ``view(state, seat)``.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol, TypeVar, runtime_checkable

Action = dict[str, Any]
"""A JSON object with a ``"type"`` key; the same JSON goes to the store, the log and replays."""

State = Any
"""Each game chooses its own state type; the contract only needs ``dump``/``load``."""

T = TypeVar("T")


# --------------------------------------------------------------------------------------------
# Errors: messages are written for players, short and saying what is allowed.


class RulesError(ValueError):
    """Base of every error a player can cause."""


class InvalidAction(RulesError):
    """The action is malformed: unknown type, missing field, text that does not parse."""


class IllegalAction(RulesError):
    """The action is well formed but not allowed now; the message says why."""


class NotYourTurn(RulesError):
    """The seat is not among the active seats."""


QUOTE_LIMIT = 60
"""Characters of a player's text that an error message repeats (the rest becomes "...")."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """Player text (or any value) for an error message: cut to about ``limit`` characters and
    quoted with control, invisible and unpaired characters escaped, so it is never markup or a
    template and never long."""
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "...")
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit] + "..."


# --------------------------------------------------------------------------------------------
# Values returned by the engine.


@dataclass(frozen=True)
class Event:
    """Narrates what happened.

    ``to`` is the set of seats allowed to see the event, or ``None`` for everyone. ``text`` is a
    sentence for players; seats appear in it as ``{p0}``, ``{p1}``, ... so a front end can put
    member names in with ``format_text`` (one pass; names are never templates).
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None
    text: str = ""

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "to": None if self.to is None else sorted(self.to),
            "text": self.text,
        }


@dataclass(frozen=True)
class Transition:
    """The result of ``apply``.

    ``irreversible`` is set when the action revealed hidden information or consumed randomness
    (a draw, a reveal, a shuffle): such an action cannot be taken back with undo.
    """

    state: State
    events: tuple[Event, ...] = ()
    irreversible: bool = False


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``scores[seat]`` is the final score; ``ranking`` lists tied groups of seats, best first, after
    the game's tie-breaks; ``breakdown[seat]`` maps a source of points to its value.
    """

    scores: tuple[int | float, ...]
    ranking: tuple[tuple[int, ...], ...]
    breakdown: tuple[Mapping[str, int | float], ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranking": [list(group) for group in self.ranking],
            "breakdown": [dict(b) for b in self.breakdown],
            "notes": list(self.notes),
        }

    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()


def rank_by(keys: Sequence[tuple[Any, ...]]) -> tuple[tuple[int, ...], ...]:
    """Group seats by descending key; equal keys share a place (a tie the game could not break)."""
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(g) for g in groups)


def tie_notes(keys: Sequence[tuple[Any, ...]], criteria: Sequence[str], unit: str = "points"
              ) -> tuple[str, ...]:
    """Say how equal scores got different places: ``keys`` are the ranking keys (the score
    first), ``criteria[i]`` names what ``keys[..][i + 1]`` measures (e.g. "less Disdain")."""
    notes: list[str] = []
    ranking = rank_by(keys)
    for upper, lower in pairwise(ranking):
        above, below = keys[upper[0]], keys[lower[0]]
        if above[0] != below[0]:
            continue
        decided = next(i for i in range(1, len(above)) if above[i] != below[i])
        note = f"The tie on {above[0]} {unit} was broken by {criteria[decided - 1]}."
        if note not in notes:
            notes.append(note)
    return tuple(notes)


def format_text(text: str, names: Sequence[str]) -> str:
    """Put seat names into an event or summary text that uses ``{p0}``, ``{p1}``, ...

    One pass over the trusted template: a name is inserted as it is and never read as a
    placeholder or a format spec itself."""

    def name_of(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)

    return _PLACEHOLDER.sub(name_of, text)


_PLACEHOLDER = re.compile(r"\{p(\d{1,2})\}")


# --------------------------------------------------------------------------------------------
# Seeded, serializable randomness.

_MASK64 = (1 << 64) - 1


class Rng:
    """A small seeded generator (SplitMix64) whose whole state is one 64-bit integer.

    Engines keep ``rng.state`` (a 16-hex-digit string) inside their game state and rebuild the
    generator with ``Rng.restore`` when they need to draw, so a state stays a plain value.
    """

    __slots__ = ("_x",)

    def __init__(self, seed: str | int) -> None:
        if isinstance(seed, int):
            self._x = seed & _MASK64
        else:
            digest = hashlib.sha256(_utf8(seed)).digest()
            self._x = int.from_bytes(digest[:8], "big")

    @classmethod
    def restore(cls, state: str) -> Rng:
        return cls(int(state, 16))

    @property
    def state(self) -> str:
        return f"{self._x:016x}"

    def next64(self) -> int:
        self._x = (self._x + 0x9E3779B97F4A7C15) & _MASK64
        z = self._x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform in ``range(n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform in ``[lo, hi]``."""
        return lo + self.randbelow(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """A new list in random order (Fisher-Yates); the input is left alone."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def derive_seed(*parts: object) -> str:
    """A seed derived from several parts, for sub-generators (determinize, computer seats)."""
    return hashlib.sha256(_utf8("\x1f".join(str(p) for p in parts))).hexdigest()[:32]


def _utf8(text: str) -> bytes:
    # A lone surrogate (valid in a JSON string, not in UTF-8) still gives a seed; every other
    # text encodes exactly as plain UTF-8, so existing seeds are unchanged.
    return text.encode("utf-8", "surrogatepass")


# --------------------------------------------------------------------------------------------
# The game contract.


@runtime_checkable
class Game(Protocol):
    id: str
    title: str
    min_players: int
    max_players: int

    def setup(
        self, players: int, seed: str, options: Mapping[str, Any] | None = None
    ) -> State: ...

    def active_seats(self, state: State) -> frozenset[int]:
        """Seats that may act now: several while play is simultaneous, none when over."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> Transition: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """JSON-able; ``None`` is the public (channel) view. Never contains the Rng."""
        ...

    def outcome(self, state: State) -> Outcome | None: ...

    def determinize(self, state: State, seat: int | None, seed: str) -> State:
        """Re-deal everything ``seat`` cannot see; ``view(result, seat) == view(state, seat)``."""
        ...

    def parse_action(self, state: State, seat: int, text: str) -> Action: ...

    def format_action(self, state: State, action: Action) -> str: ...

    def dump(self, state: State) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> State: ...

    # Presentation helpers the front ends share (plain text, no Discord or Pillow).

    def describe(self, view: Mapping[str, Any]) -> str:
        """A short plain-text account of a view: the terminal board, DM text, image alt text."""
        ...

    def options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The setup options in force (every design choice) after applying ``overrides``;
        raises ``InvalidAction`` for an unknown option or a bad value."""
        ...

    def rules_summary(self) -> str:
        """A few lines for ``/rules``: how a turn goes and how to write a move."""
        ...

    def moves_hint(self) -> str:
        """What to type to find a move among many, in this game's own words (the words its
        moves start with), for a front end whose search filters the legal moves as one types."""
        ...


def merge_options(
    defaults: Mapping[str, Any], overrides: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Defaults updated by (copies of) overrides; anything but an object of known option names
    is refused, so typos do not pass silently."""
    if overrides is None:
        overrides = {}
    known = ", ".join(sorted(defaults)) or "none"
    if not isinstance(overrides, Mapping):
        raise InvalidAction(f"Options are an object of option names and values ({known}).")
    merged = dict(defaults)
    for key, value in overrides.items():
        if not isinstance(key, str) or key not in defaults:
            raise InvalidAction(f"Unknown option {quote(str(key))}. Known options: {known}.")
        merged[key] = copy.deepcopy(value)
    return merged


def check_players(game: Game, players: object) -> int:
    """The player count, or ``InvalidAction`` saying the game's range."""
    if type(players) is not int or not game.min_players <= players <= game.max_players:
        raise InvalidAction(
            f"{game.title} is for {game.min_players} to {game.max_players} players."
        )
    return players


def check_seat(game: Game, state: State, seat: int) -> None:
    """Raise ``NotYourTurn`` unless ``seat`` is active; engines call this first in ``apply``."""
    if seat not in game.active_seats(state):
        raise NotYourTurn("It is not your turn.")


def find_legal(actions: Iterable[Action], action: Action) -> Action | None:
    """The legal action equal to ``action`` (compared as JSON values), or None."""
    for legal in actions:
        # ``==`` first: JSON-equal values are ``==``, and it rules most others out in C.
        if legal == action and same_json(legal, action):
            return legal
    return None


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: unlike ``==``, ``True`` is not ``1`` and ``1.0`` is not ``1``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def copy_json(value: T) -> T:
    """A deep copy of JSON data (dicts, lists, scalars): three times quicker than
    ``copy.deepcopy``, which keeps a memo for shared and cyclic objects JSON never has.
    Tuples come back as tuples."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [copy_json(v) for v in value]  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(copy_json(v) for v in value)  # type: ignore[return-value]
    return value
