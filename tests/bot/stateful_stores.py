"""Stores for hypothesis state machines: each example opens a fresh database of the chosen
backend (a file in a temporary folder, or a schema on the test PostgreSQL server) and drops it
at teardown."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest


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
