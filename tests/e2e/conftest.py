"""Fixtures for end-to-end tests against the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.standin import StandIn


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    """A started stand-in, stopped after the test."""
    server = StandIn()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert server.internal_errors == [], "\n".join(server.internal_errors)


@pytest.fixture
def standin_env(standin: StandIn, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Sets DISCORD_API_BASE, DISCORD_GATEWAY_URL and DISCORD_TOKEN to the stand-in's."""
    for key, value in standin.env.items():
        monkeypatch.setenv(key, value)
    return standin.env
