"""Properties for fuzzing the engines (strategies in fuzz_strategies.py), shared by the bounded
test suite (tests/rules/test_fuzz_rules.py) and the long run (fuzz/fuzz_rules.py).

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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules import GAMES
from rules.__main__ import EXIT_BAD_ACTION, EXIT_BAD_FILE, ReplayFailure, main, run_replay
from rules.core import Game, RulesError, State, same_json
from tests.fuzz_strategies import (
    GAME_IDS,
    JSON,
    SEEDS,
    bad_actions,
    move_texts,
    option_overrides,
    replay_file,
    replay_texts,
    samples,
)

MESSAGE_LIMIT = 600
"""No player-facing message is longer than this (they go to chat)."""
ECHO_LIMIT = 100
"""No message repeats a run of this many characters of the player's input."""
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
