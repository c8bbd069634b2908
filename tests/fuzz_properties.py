"""Properties and strategies for fuzzing the engines, shared by the bounded test suite
(tests/rules/test_fuzz_rules.py) and the long run (bench/fuzz_rules.py).

Each property takes one generated input and checks the contract for bad input: only
``RulesError`` subclasses (or the replay CLI's documented exit codes) come out, inputs are never
mutated, a refused ``apply`` leaves the state as it was, and an error message never echoes more
than about 100 characters of what was typed. ``STATS`` records how many inputs each property saw
and the slowest one, so the long run can report them.
"""

from __future__ import annotations

import copy
import io
import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules import GAMES
from rules.__main__ import EXIT_BAD_ACTION, EXIT_BAD_FILE, ReplayFailure, main, run_replay
from rules.core import Game, RulesError, State, derive_seed, same_json
from rules.random_player import UniformRandomPlayer

GAME_IDS = tuple(sorted(GAMES))
MESSAGE_LIMIT = 600
"""No player-facing message is longer than this (they go to chat)."""
ECHO_LIMIT = 100
"""No message repeats a run of this many characters of the player's input."""
STATES_PER_GAME = 16
SLOW_SECONDS = 2.0


# ------------------------------------------------------------------------------ bookkeeping


@dataclass
class Stats:
    counts: dict[str, int] = field(default_factory=dict)
    slowest: tuple[float, str, str] = (0.0, "", "")

    def reset(self) -> None:
        self.counts.clear()
        self.slowest = (0.0, "", "")


STATS = Stats()


@contextmanager
def timed(name: str, given: object) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        took = time.perf_counter() - start
        STATS.counts[name] = STATS.counts.get(name, 0) + 1
        if took > STATS.slowest[0]:
            STATS.slowest = (took, name, repr(given)[:200])


def check_message(exc: BaseException, typed: str = "") -> None:
    text = str(exc)
    assert len(text) <= MESSAGE_LIMIT, f"message of {len(text)} characters: {text[:200]!r}"
    if len(typed) > ECHO_LIMIT:
        for start in range(0, len(typed) - ECHO_LIMIT + 1, ECHO_LIMIT // 2):
            run = typed[start:start + ECHO_LIMIT]
            assert run not in text, f"the message echoes {len(run)}+ characters of the input"


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


# ------------------------------------------------------------------------------ properties


def prop_parse(game_id: str, sample_index: int, text: str, seat: int) -> None:
    """parse_action gives an action or InvalidAction; a parsed action then applies or is
    refused with a RulesError."""
    sample = samples(game_id)[sample_index % len(samples(game_id))]
    game = sample.game
    with timed(f"parse_action {game_id}", text):
        try:
            action = game.parse_action(sample.state, seat, text)
        except RulesError as exc:
            check_message(exc, text)
            return
        assert isinstance(action, dict) and isinstance(action.get("type"), str)
        apply_checked(game, sample.state, seat, action)


def prop_apply(game_id: str, sample_index: int, seat: int, action: Any) -> None:
    """apply accepts an action only when legal_actions lists it; otherwise a RulesError, with
    neither the state nor the action changed."""
    sample = samples(game_id)[sample_index % len(samples(game_id))]
    with timed(f"apply {game_id}", action):
        apply_checked(sample.game, sample.state, seat, action)


def apply_checked(game: Game, state: State, seat: int, action: Any) -> None:
    before_state = json.dumps(game.dump(state), sort_keys=True)
    before_action = copy.deepcopy(action)
    try:
        game.apply(state, seat, action)
    except RulesError as exc:
        check_message(exc, json.dumps(action, default=str))
    else:
        legal = game.legal_actions(state, seat)
        assert any(same_json(a, action) for a in legal), f"apply accepted {action!r}"
    assert same_json(action, before_action), "apply changed the action it was given"
    assert json.dumps(game.dump(state), sort_keys=True) == before_state, "apply changed its state"


def prop_options(game_id: str, overrides: Any, players: int, seed: str) -> None:
    """options() and setup() refuse bad options with a RulesError and never change them."""
    game = GAMES[game_id]
    given = copy.deepcopy(overrides)
    with timed(f"options {game_id}", overrides):
        try:
            game.options(overrides)
        except RulesError as exc:
            check_message(exc)
        try:
            state = game.setup(players, seed, overrides)
        except RulesError as exc:
            check_message(exc)
        else:
            json.dumps(game.dump(state))
            assert game.active_seats(state) <= set(range(players))
    assert same_json(overrides, given), "options() or setup() changed the options given"


def prop_replay(text: str) -> None:
    """A replay file, however wrong, gives a result or a ReplayFailure with a documented
    code; through main() it prints exactly one ``error:`` line and no traceback."""
    with timed("replay file", text):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            given = copy.deepcopy(data)
            try:
                run_replay(data)
            except ReplayFailure as exc:
                assert exc.code in (EXIT_BAD_ACTION, EXIT_BAD_FILE)
                check_message(exc)
            assert same_json(data, given), "run_replay changed the file's data"
        for command in (["replay", "-"], ["legal", "-", "--seat", "0"]):
            code, out, err = run_cli(command, text)
            check_cli(code, out, err)


def prop_play(game_id: str, players: int, options: str) -> None:
    """``play`` with any players and options: a replay file or one ``error:`` line."""
    with timed("play command", (game_id, players, options)):
        code, out, err = run_cli(["play", game_id, f"--players={players}", "--seed=f",
                                  f"--options={options}"], "")
        check_cli(code, out, err)


def run_cli(args: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def check_cli(code: int, out: str, err: str) -> None:
    if code == 0:
        json.loads(out)
        assert err == ""
        return
    assert code in (EXIT_BAD_ACTION, EXIT_BAD_FILE), f"exit code {code}"
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), f"stderr: {err[:300]!r}"
    assert len(lines[0]) <= MESSAGE_LIMIT + 100
    assert out == ""


# ------------------------------------------------------------------------------ cases


def _parse_case(game_id: str) -> Callable[[], None]:
    @given(data=st.data())
    def case(data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(samples(game_id)) - 1), label="sample")
        sample = samples(game_id)[index]
        text = data.draw(move_texts(sample), label="text")
        seat = data.draw(st.sampled_from(sample.seats), label="seat")
        prop_parse(game_id, index, text, seat)

    return case


def _apply_case(game_id: str) -> Callable[[], None]:
    @given(data=st.data())
    def case(data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(samples(game_id)) - 1), label="sample")
        seat, action = data.draw(bad_actions(samples(game_id)[index]), label="action")
        prop_apply(game_id, index, seat, action)

    return case


def _options_case(game_id: str) -> Callable[[], None]:
    game = GAMES[game_id]

    @given(overrides=option_overrides(game_id),
           players=st.integers(game.min_players - 1, game.max_players + 1),
           seed=SEEDS)
    def case(overrides: Any, players: int, seed: str) -> None:
        prop_options(game_id, overrides, players, seed)

    return case


def _replay_case() -> Callable[[], None]:
    @given(text=replay_texts())
    def case(text: str) -> None:
        prop_replay(text)

    return case


def _play_case() -> Callable[[], None]:
    @given(game_id=st.sampled_from(GAME_IDS), players=st.integers(-1, 7),
           options=st.sampled_from(["{}", "[[]]", "{", "null", '{"x": 1}', "1" * 5000])
           | JSON.map(json.dumps))
    def case(game_id: str, players: int, options: str) -> None:
        prop_play(game_id, players, options)

    return case


def cases() -> dict[str, Callable[[], None]]:
    """Every fuzz case by name: a hypothesis test to run under the caller's settings."""
    out: dict[str, Callable[[], None]] = {}
    for game_id in GAME_IDS:
        out[f"parse_action {game_id}"] = _parse_case(game_id)
        out[f"apply {game_id}"] = _apply_case(game_id)
        out[f"options {game_id}"] = _options_case(game_id)
    out["replay files"] = _replay_case()
    out["play command"] = _play_case()
    return out


def warm_up() -> None:
    """Build the sample states first, so their playouts are not timed as an input."""
    for game_id in GAME_IDS:
        samples(game_id)
        replay_file(game_id)
