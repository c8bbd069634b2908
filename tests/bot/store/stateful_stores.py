"""Stores for hypothesis state machines: each example opens a fresh database of the chosen
backend (a file in a temporary folder, or a schema on the test PostgreSQL server) and drops it
at teardown."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis.stateful import RuleBasedStateMachine

import rules
from bot.store import Store, open_store
from tests.pebbles import GAME as PEBBLES


def give_stores(machine: Any, backend: str, request: pytest.FixtureRequest) -> None:
    """Set ``machine.new_target`` and ``machine.drop_target`` for ``backend``."""
    if backend == "postgres":
        server = request.getfixturevalue("postgres_server")
        machine.new_target = staticmethod(server.new_database)
        machine.drop_target = staticmethod(server.drop_database)
        return
    folder = tempfile.TemporaryDirectory()
    request.addfinalizer(folder.cleanup)
    names = iter(range(1_000_000))
    machine.new_target = staticmethod(lambda: str(Path(folder.name) / f"{next(names)}.db"))
    machine.drop_target = staticmethod(lambda target: Path(target).unlink())


class StoreMachine(RuleBasedStateMachine):
    """A state machine over a fresh store (``give_stores`` sets where), on a loop of its own,
    with the test game Pebbles registered while it runs."""

    new_target: Callable[[], str]
    drop_target: Callable[[str], None]

    def __init__(self) -> None:
        super().__init__()
        rules.GAMES[PEBBLES.id] = PEBBLES
        self.loop = asyncio.new_event_loop()
        self.target = type(self).new_target()
        self.store: Store = self.run(open_store(self.target))

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        type(self).drop_target(self.target)
        rules.GAMES.pop(PEBBLES.id, None)
