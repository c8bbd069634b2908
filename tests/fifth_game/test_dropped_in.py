"""A fifth game dropped into the package folders, with no other edit, joins everything.

The source tree is copied; Pebbles' folders (``tests/fifth_game/rules/pebbles`` and
``tests/fifth_game/rendering/pebbles``) are copied into its ``rules/`` and ``rendering/``, as
a new game's author would add them; then the copy's own discovery (the same folder scan that
finds the shipped games) lists it, computer players play it, and the registry-driven tests
(conformance, computer players and no-peek, what a move tells others, the public web pages,
rendering, whole games through the Discord stand-in, by commands and from DM boards) run on
it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
REGISTRY_TESTS = (
    "tests/rules/test_conformance.py", "tests/rules/test_players.py",
    "tests/rules/test_players_no_peek.py", "tests/bot/tables/test_hidden_texts.py",
    "tests/bot/web/test_hidden_information.py", "tests/rendering/test_every_view.py",
    "tests/rendering/test_player_names.py", "tests/rendering/test_registry_renderers.py",
    "tests/rules/test_registry.py", "tests/e2e/test_bot_game.py",
    "tests/e2e/test_bot_dm_boards.py", "tests/bot/pace/test_full_games.py",
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree with Pebbles' folders added beside the shipped games'."""
    base = tmp_path_factory.mktemp("copy")
    root = base / "tabula"
    root.mkdir()
    # The stand-in validates requests against Discord's description in shared/ beside the tree.
    (base / "shared").symlink_to(ROOT.parent / "shared", target_is_directory=True)
    for package in ("rules", "rendering", "bot", "tests"):
        shutil.copytree(ROOT / package, root / package, ignore=SKIP)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    for package in ("rules", "rendering"):
        shutil.copytree(HERE / package / "pebbles", root / package / "pebbles", ignore=SKIP)
    return root


def _run(tree: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    # ``-m`` puts the working directory first on the path: the copy is what gets imported.
    return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_the_copy_imports_its_own_packages(tree: Path) -> None:
    done = _run(tree, "-c", "import rules, rendering; print(rules.__file__, rendering.__file__)")
    assert done.returncode == 0, done.stderr
    assert all(Path(p).is_relative_to(tree) for p in done.stdout.split())


def test_the_dropped_in_game_is_listed(tree: Path) -> None:
    done = _run(tree, "-m", "rules", "games")
    assert done.returncode == 0, done.stderr
    listed = {g["id"]: g for g in json.loads(done.stdout)}
    assert set(listed) == {"hadrians-wall", "minerva", "palatinus", "palermo", "pebbles"}
    assert listed["pebbles"] == {"id": "pebbles", "title": "Pebbles", "players": [2, 4],
                                 "computer_players": True, "renderer": "rendering.pebbles"}


def test_computer_players_play_it(tree: Path) -> None:
    done = _run(tree, "-m", "rules", "arena", "pebbles", "--players", "2", "--games", "2",
                "--seats", "hard,easy", "--seed", "fifth", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2


def test_the_registry_driven_tests_cover_it(tree: Path) -> None:
    done = _run(tree, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "pebbles",
                *REGISTRY_TESTS)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed is not None, done.stdout[-2000:]
    # Every file above has at least one case for the new game.
    for path in REGISTRY_TESTS:
        assert f"{path}::" in _collected(tree, path), path
    assert int(passed[1]) >= len(REGISTRY_TESTS)


def _collected(tree: Path, path: str) -> str:
    done = _run(tree, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                "-k", "pebbles", path)
    return done.stdout
