"""The replay CLI of DESIGN.md: replay, legal, play; text entries; exit status 2 on a bad move."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules import GAMES
from rules.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def pebbles_file(actions: list[dict[str, object]]) -> str:
    return json.dumps({"game": "pebbles", "players": 2, "seed": "s",
                       "options": {"first": 0, "turns": 1}, "actions": actions})


def test_replay_accepts_json_and_text_entries(with_pebbles: None) -> None:
    code, out, _ = run(["replay", "-"], pebbles_file([
        {"seat": 0, "action": {"type": "hold"}}, {"seat": 1, "text": "HOLD"},
    ]))
    result = json.loads(out)
    assert code == 0
    assert result["over"] is True and result["active"] == []
    assert result["outcome"]["scores"] == [0, 0]
    assert set(result) == {"over", "active", "outcome", "view"}
    assert "hand" not in result["view"]  # the public view


def test_an_illegal_action_exits_2_naming_it(with_pebbles: None) -> None:
    code, _, err = run(["replay", "-"], pebbles_file([
        {"seat": 0, "text": "hold"}, {"seat": 1, "text": "play 99"},
    ]))
    assert code == 2
    assert "action 1 (seat 1)" in err and "You do not hold a 99" in err


def test_an_unparsable_action_exits_2(with_pebbles: None) -> None:
    code, _, err = run(["replay", "-"], pebbles_file([{"seat": 0, "text": "dance"}]))
    assert code == 2 and "action 0 (seat 0)" in err


def test_legal_lists_a_seats_actions_with_their_text(with_pebbles: None, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(pebbles_file([]))
    code, out, _ = run(["legal", str(path), "--seat", "0"])
    listed = json.loads(out)
    assert code == 0 and {"action": {"type": "hold"}, "text": "hold"} in listed
    code, out, _ = run(["legal", str(path), "--seat", "1"])
    assert code == 0 and json.loads(out) == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_play_prints_a_replay_that_replays_to_the_end(game_id: str) -> None:
    players = GAMES[game_id].min_players
    played = subprocess.run(
        [sys.executable, "-m", "rules", "play", game_id, "--players", str(players),
         "--seed", "cli"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    replayed = subprocess.run(
        [sys.executable, "-m", "rules", "replay", "-"], cwd=ROOT, input=played.stdout,
        capture_output=True, text=True, timeout=120, check=True,
    )
    result = json.loads(replayed.stdout)
    assert result["over"] is True and result["outcome"] is not None


def test_arena_help_documents_every_option_and_lists_the_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["arena", "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for game_id in GAMES:
        assert game_id in text
    for option in ("--players PLAYERS", "--games GAMES", "--seats SEATS", "--seed SEED",
                   "--workers WORKERS", "--json"):
        after = text.split(f"{option} ", 2)[-1]
        assert not after.startswith("--"), f"{option} has no help"
    assert "Levels: random, easy, normal, hard." in text
