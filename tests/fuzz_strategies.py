"""Sample states and hypothesis strategies for fuzzing the engines (see fuzz_properties.py):
states reached by seeded random playouts in every situation a game reaches, and bad input for
them: move text, action objects, setup options and replay files."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st

from rules import GAMES
from rules.core import Game, State, derive_seed
from rules.random_player import UniformRandomPlayer

GAME_IDS = tuple(sorted(GAMES))
STATES_PER_GAME = 16
"""Evenly spaced states per game, besides the first state of every situation."""


# ------------------------------------------------------------------------------ sample states


@dataclass(frozen=True)
class Sample:
    """A state reached by a seeded random playout, and the seats worth trying in it."""

    game_id: str
    state: State
    seats: tuple[int, ...]
    players: int

    @property
    def game(self) -> Game:
        return GAMES[self.game_id]


@cache
def samples(game_id: str) -> tuple[Sample, ...]:
    """States from seeded random playouts: the first state of every situation (phase, step and
    kinds of legal action) a random game reaches, plus evenly spaced states and the end."""
    game = GAMES[game_id]
    out: list[Sample] = []
    for players in sorted({game.min_players, game.max_players}):
        trail = list(_playout(game, players, f"fuzz-{players}"))
        every = max(1, len(trail) // (STATES_PER_GAME // 2))
        seen: set[object] = set()
        for index, state in enumerate(trail):
            situation = _situation(game, state)
            if index % every == 0 or index == len(trail) - 1 or situation not in seen:
                seats = tuple(sorted(game.active_seats(state))) or (0,)
                out.append(Sample(game_id, state, seats, players))
            seen.add(situation)
    return tuple(out)


def _playout(game: Game, players: int, seed: str) -> Iterator[State]:
    state = game.setup(players, seed)
    chooser = UniformRandomPlayer(derive_seed("fuzz", game.id, players, seed))
    for _ in range(20_000):
        yield state
        active = sorted(game.active_seats(state))
        if not active:
            return
        seat = active[0]
        state = game.apply(state, seat, chooser.choose(game, state, seat)).state


def _situation(game: Game, state: State) -> object:
    view = game.view(state, None)
    active = sorted(game.active_seats(state))
    kinds = frozenset(a["type"] for a in game.legal_actions(state, active[0])) if active else None
    return (str(view.get("phase")), str(view.get("step")), kinds)


def replay_file(game_id: str) -> dict[str, Any]:
    """A small valid replay file of the game: setup and its first few legal moves."""
    game = GAMES[game_id]
    players = game.min_players
    state = game.setup(players, "fuzz")
    chooser = UniformRandomPlayer("fuzz-replay")
    actions: list[dict[str, Any]] = []
    for _ in range(4):
        seat = min(game.active_seats(state))
        action = chooser.choose(game, state, seat)
        actions.append({"seat": seat, "action": action})
        state = game.apply(state, seat, action).state
    return {"game": game_id, "players": players, "seed": "fuzz", "options": {},
            "actions": actions}


# ------------------------------------------------------------------------------ strategies

JSON_SCALARS = (
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
    | st.sampled_from(["Z" * 5000, "9" * 400, "\ud800", "{p0}", "{x.y}"])
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12,
)
"""Arbitrary JSON values (small)."""

NUMBERISH = st.sampled_from(["9" * 5000, "1" * 4301, "0" * 400 + "7", "²", "¹²", "٣", "-" * 3,
                             "1e9", "0x10", "1_000", "-0", "999999999999", "3.5", "½"])
ODD = st.sampled_from(["\x00", "\ud800", "\u200b", "\u202e", "{p0}", "{x.y}", "{0:>9999}",
                       "@everyone", "**", "`", "\n", "\t", " " * 50, "a" * 5000, "é" * 400,
                       "🂡", "(", ")", ",", ":", "#", "_", "-"])


@st.composite
def move_texts(draw: st.DrawFn, sample: Sample) -> str:
    """Text a player might type: formatted legal moves of the state with parts swapped for
    huge numbers and odd characters, or arbitrary text."""
    game = sample.game
    seat = draw(st.sampled_from(sample.seats))
    legal = game.legal_actions(sample.state, seat)
    words: list[str] = []
    if legal:
        action = draw(st.sampled_from(legal))
        words = game.format_action(sample.state, action).split()
    choice = draw(st.integers(min_value=0, max_value=3))
    if choice == 0 or not words:
        return draw(st.text(max_size=200))
    parts = draw(st.lists(NUMBERISH | ODD | st.text(max_size=8), min_size=1, max_size=3))
    for part in parts:
        if choice == 1:
            words[draw(st.integers(0, len(words) - 1))] = part
        elif choice == 2:
            words.insert(draw(st.integers(0, len(words))), part)
        else:
            words = [re.sub(r"\d+", part.replace("\\", "\\\\"), w) for w in words]
    return draw(st.sampled_from([" ", "", ",", "  "])).join(words)


@st.composite
def bad_actions(draw: st.DrawFn, sample: Sample) -> tuple[int, Any]:
    """An action object for a seat: a legal one bent out of shape, or arbitrary JSON."""
    game = sample.game
    seat = draw(st.sampled_from(sample.seats))
    legal = game.legal_actions(sample.state, seat)
    if not legal or draw(st.integers(0, 4)) == 0:
        return seat, draw(JSON | st.dictionaries(st.just("type"), JSON_SCALARS))
    action: Any = copy.deepcopy(draw(st.sampled_from(legal)))
    how = draw(st.integers(0, 4))
    keys = [k for k in action if k != "type"]
    if how == 0:
        action[draw(st.text(min_size=1, max_size=8))] = draw(JSON)
    elif how == 1 and keys:
        action[draw(st.sampled_from(keys))] = draw(JSON)
    elif how == 2 and keys:
        del action[draw(st.sampled_from(keys))]
    elif how == 3:
        action["type"] = draw(JSON)
    else:
        other = copy.deepcopy(draw(st.sampled_from(legal)))
        action = {**action, **{k: v for k, v in other.items() if k != "type"}}
    return seat, action


@st.composite
def option_overrides(draw: st.DrawFn, game_id: str) -> Any:
    """Setup options: the game's own keys with values bent out of shape, or arbitrary JSON."""
    defaults = GAMES[game_id].options()
    keys = sorted(defaults)
    if draw(st.integers(0, 5)) == 0:
        return draw(JSON)
    out: dict[str, Any] = {}
    for key in draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3, unique=True)):
        out[key] = draw(_bent(defaults[key]))
    if draw(st.integers(0, 6)) == 0:
        out[draw(st.text(max_size=12))] = draw(JSON)
    return out


def _bent(value: Any) -> st.SearchStrategy[Any]:
    """Values near a valid one: the same shape with parts changed, or something else."""
    options: list[st.SearchStrategy[Any]] = [JSON, st.just(copy.deepcopy(value))]
    if isinstance(value, list) and value:
        options += [
            st.permutations(value).map(list),
            st.just(value[:-1]), st.just([*value, value[0]]), st.just([value[0]] * len(value)),
            st.lists(JSON_SCALARS, min_size=len(value), max_size=len(value)),
            st.just([None, *value[1:]]), st.just([*value[:-1], [value[-1]]]),
        ]
    if isinstance(value, dict) and value:
        options += [
            st.fixed_dictionaries({k: _bent(v) for k, v in value.items()}),
            st.dictionaries(st.sampled_from(sorted(value)), JSON, max_size=len(value)),
        ]
    if isinstance(value, bool):
        options.append(st.sampled_from([0, 1, "true", None]))
    elif isinstance(value, int):
        options.append(st.sampled_from([True, -1, 10**20, float(value), str(value)]))
    elif value is None:
        options.append(st.sampled_from([[], [None, 1], [[]], 0, True, "x", 10**9]))
    return st.one_of(options)


SEEDS = st.text(max_size=20) | st.sampled_from(["\ud800", "a\udfff", "", "\x00" * 3, "s" * 300])


@st.composite
def replay_texts(draw: st.DrawFn) -> str:
    """The text of a replay file: a valid one with one part replaced, or arbitrary text."""
    game_id = draw(st.sampled_from(GAME_IDS))
    data: Any = replay_file(game_id)
    how = draw(st.integers(0, 7))
    if how == 0:
        return draw(st.text(max_size=200) | st.sampled_from(["[" * 5000, "1" * 5000, "{}", "[]"]))
    if how == 1:
        data[draw(st.sampled_from(sorted(data)))] = draw(JSON)
    elif how == 2:
        data["options"] = draw(option_overrides(game_id))
    elif how == 3:
        data["seed"] = draw(SEEDS)
        data["players"] = draw(st.integers(-2, 8) | st.booleans())
    elif how in (4, 5) and data["actions"]:
        index = draw(st.integers(0, len(data["actions"]) - 1))
        entry = data["actions"][index]
        if how == 4:
            data["actions"][index] = draw(JSON | st.fixed_dictionaries(
                {"seat": JSON_SCALARS, "action": JSON}) | st.fixed_dictionaries(
                {"seat": st.integers(-1, 7), "text": JSON_SCALARS}))
        else:
            entry["action"] = draw(JSON)
    elif how == 6:
        data["actions"] = draw(JSON)
    else:
        data["game"] = draw(st.sampled_from([*GAME_IDS, "chess", ""]) | JSON_SCALARS)
    return json.dumps(data, ensure_ascii=draw(st.booleans()))
