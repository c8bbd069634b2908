"""The replay CLI on files of the wrong shape: the documented exit code (2 for a bad action, 3
for a bad file or setup) and exactly one ``error:`` line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.__main__ import EXIT_BAD_ACTION, EXIT_BAD_FILE
from tests.fuzz_properties import check_cli, run_cli
from tests.fuzz_strategies import replay_file

ROOT = Path(__file__).resolve().parents[2]


def with_changes(game_id: str = "palatinus", **changes: Any) -> str:
    data = replay_file(game_id)
    data.update(changes)
    return json.dumps(data)


def first_action(game_id: str = "palatinus") -> dict[str, Any]:
    action: dict[str, Any] = replay_file(game_id)["actions"][0]
    return action


def error_line(args: list[str], stdin: str, code: int) -> str:
    got, out, err = run_cli(args, stdin)
    check_cli(got, out, err)
    assert got == code, err
    return err


BAD_FILES = {
    "options a list": (with_changes(options=[[]]), EXIT_BAD_FILE),
    "options text": (with_changes(options="fast"), EXIT_BAD_FILE),
    "options of mixed types": (
        with_changes("hadrians-wall", options={"fate_order": [None, 1]}), EXIT_BAD_FILE),
    "actions true": (with_changes(actions=True), EXIT_BAD_FILE),
    "actions an object": (with_changes(actions={"seat": 0}), EXIT_BAD_FILE),
    "an entry not an object": (with_changes(actions=[1]), EXIT_BAD_ACTION),
    "a seat as text": (with_changes(actions=[{**first_action(), "seat": "0"}]), EXIT_BAD_ACTION),
    "a seat true": (with_changes(actions=[{**first_action(), "seat": True}]), EXIT_BAD_ACTION),
    "a seat out of range": (
        with_changes(actions=[{**first_action(), "seat": 99}]), EXIT_BAD_ACTION),
    "an action not an object": (
        with_changes(actions=[{"seat": 0, "action": ["lay"]}]), EXIT_BAD_ACTION),
    "an action with an extra key": (
        with_changes(actions=[{"seat": first_action()["seat"],
                               "action": {**first_action()["action"], "junk": 1}}]),
        EXIT_BAD_ACTION),
    "a text entry not text": (with_changes(actions=[{"seat": 0, "text": ["lay"]}]),
                              EXIT_BAD_ACTION),
    "a huge number in a text entry": (
        with_changes(actions=[{"seat": 0, "text": "lay " + "9" * 5000 + " r1"}]),
        EXIT_BAD_ACTION),
    "a lone surrogate in the seed": (with_changes(seed="\ud800"), EXIT_BAD_FILE),
    "players zero": (with_changes(players=0), EXIT_BAD_FILE),
    "players too many": (with_changes(players=99), EXIT_BAD_FILE),
    "players true": (with_changes(players=True), EXIT_BAD_FILE),
    "players as text": (with_changes(players="2"), EXIT_BAD_FILE),
    "game not text": (with_changes(game=["palatinus"]), EXIT_BAD_FILE),
    "a 5000-digit number": ('{"game": "palatinus", "players": ' + "2" * 5000 + "}",
                            EXIT_BAD_FILE),
    "nested too deep": ("[" * 100_000 + "]" * 100_000, EXIT_BAD_FILE),
    "not JSON": ("{game: palatinus}", EXIT_BAD_FILE),
    "a JSON list": ("[]", EXIT_BAD_FILE),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_replay_file_gives_its_exit_code_and_one_error_line(name: str) -> None:
    text, code = BAD_FILES[name]
    error_line(["replay", "-"], text, code)
    error_line(["legal", "-", "--seat", "0"], text, code)


def test_an_error_line_is_short_and_escapes_what_it_quotes() -> None:
    err = error_line(["replay", "-"], with_changes(game="\ud800" + "x" * 5000), EXIT_BAD_FILE)
    assert len(err) < 300 and "\\ud800" in err


def test_a_file_that_is_not_utf8_gives_an_error_line(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b'{"game": "\xff\xfe"}')
    error_line(["replay", str(path)], "", EXIT_BAD_FILE)


@pytest.mark.parametrize(("args", "code"), [
    (["--players", "0"], EXIT_BAD_FILE),
    (["--players", "99"], EXIT_BAD_FILE),
    (["--players", "2", "--options", "[[]]"], EXIT_BAD_FILE),
    (["--players", "2", "--options", "{not json"], EXIT_BAD_FILE),
    (["--players", "2", "--options", '{"start_seat": true}'], EXIT_BAD_FILE),
])
def test_play_with_bad_players_or_options_gives_one_error_line(args: list[str], code: int) -> None:
    error_line(["play", "palatinus", "--seed", "s", *args], "", code)


@pytest.mark.parametrize("text", [with_changes(options=[[]]), with_changes(seed="\ud800")])
def test_the_module_prints_one_error_line_and_no_traceback(text: str) -> None:
    done = subprocess.run([sys.executable, "-m", "rules", "replay", "-"], cwd=ROOT, input=text,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == EXIT_BAD_FILE
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
