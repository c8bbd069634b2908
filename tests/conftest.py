"""Shared fixtures: the Pebbles test game registered beside the real games, temp stores."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import rules
from bot.store import SqliteStore
from bot.tables import Tables
from bot.values import Member
from tests.pebbles import GAME as PEBBLES

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


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = await SqliteStore.open(tmp_path / "tabula.db")
    yield s
    await s.close()


@pytest.fixture
async def tables(store: SqliteStore, with_pebbles: None) -> Tables:
    return Tables(store)
