"""The stand-in's pytest fixtures, for its own tests and the end-to-end tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.standin import StandIn
from tests.standin.driver import STARTED


@pytest.fixture(autouse=True)
def spec_checked() -> Iterator[None]:
    """Fails the test if any stand-in it started (through ``standin``, by hand, or serving a
    ``python -m bot`` subprocess) got a request Discord's OpenAPI description refuses."""
    first = len(STARTED)
    yield
    started = STARTED[first:]
    del STARTED[first:]
    refused = [str(v) for server in started for v in server.unexpected_spec_violations()]
    assert refused == [], "requests Discord's API description refuses:\n" + "\n".join(refused)


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
