"""The game registry: what each entry declares holds, and discovery finds game packages by
their folders alone."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import ENTRIES, GAMES, entry_for, find_game
from rules.core import RulesError
from rules.players.registry import games_with_players, heuristic_for
from rules.registry import discover


@pytest.mark.parametrize("game_id", sorted(ENTRIES))
def test_an_entry_declares_what_the_shared_code_needs(game_id: str) -> None:
    entry = entry_for(game_id)
    assert entry.id == game_id and GAMES[game_id] is entry.game is find_game(game_id)
    facts = entry.facts
    assert entry.game.min_players <= facts.seats <= entry.game.max_players
    narration = facts.narration_seats or facts.seats
    assert entry.game.min_players <= narration <= entry.game.max_players
    assert facts.midgame_moves >= 1
    assert all(w == w.strip().lower() and " " not in w for w in entry.finishing_words)
    if entry.heuristic is not None:
        heur = heuristic_for(game_id)
        assert heur.scale > 0 and game_id in games_with_players()


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(RulesError, match="Games: " + ", ".join(sorted(GAMES))):
        entry_for("chess")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


ENTRY = """
from rules.entry import GameEntry, TestFacts
from tests.pebbles import Pebbles

class Named(Pebbles):
    id = {game_id!r}

ENTRY = GameEntry(game=Named(), facts=TestFacts(seats=2, midgame_moves=7, hidden=True))
"""


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty package ``found_games`` on the import path, forgotten afterwards."""
    root = tmp_path / "found_games"
    _write(root, {"__init__.py": ""})
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for name in [m for m in sys.modules if m.split(".")[0] == "found_games"]:
        del sys.modules[name]


def test_discovery_takes_the_folders_with_an_entry_and_imports_no_other(package: Path) -> None:
    _write(package, {
        "alpha/__init__.py": "", "alpha/entry.py": ENTRY.format(game_id="alpha"),
        "beta/__init__.py": "", "beta/entry.py": ENTRY.format(game_id="beta"),
        "helpers/__init__.py": "raise AssertionError('a package without an entry was imported')",
        "loose.py": "raise AssertionError('a module was imported')",
    })
    found = discover([str(package)], "found_games")
    assert list(found) == ["alpha", "beta"]
    assert found["alpha"].game.id == "alpha"


def test_discovery_refuses_two_packages_of_one_game(package: Path) -> None:
    _write(package, {
        "one/__init__.py": "", "one/entry.py": ENTRY.format(game_id="same"),
        "two/__init__.py": "", "two/entry.py": ENTRY.format(game_id="same"),
    })
    with pytest.raises(ValueError, match="two game packages declare the game id 'same'"):
        discover([str(package)], "found_games")


def test_discovery_refuses_an_entry_of_another_kind(package: Path) -> None:
    _write(package, {"odd/__init__.py": "", "odd/entry.py": "ENTRY = {'game': 'odd'}\n"})
    with pytest.raises(TypeError, match="is not a GameEntry"):
        discover([str(package)], "found_games")
