"""A store with games played through the table use cases (no Discord), and a test client of
the web pages on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.pace.clock import FakeClock
from bot.pace.model import make_timing
from bot.pace.scheduler import Scheduler, paced
from bot.store import SqliteStore, Store
from bot.tables import Tables
from bot.values import Member
from bot.web.context import Limits, Site
from bot.web.server import make_app
from bot.web.signing import Signer
from rules.core import Rng

SECRET = "a-test-secret-of-enough-length"
HOSTILE = Member(201, "<script>alert('x')</script>")
ALICE = Member(202, "Alice")
BOB = Member(203, "Bob & <b>Co</b>")
GUILD = 42


@dataclass
class Web:
    client: TestClient
    site: Site
    tables: Tables
    clock: FakeClock
    scheduler: Scheduler

    @property
    def store(self) -> Store:
        return self.site.store


async def play(tables: Tables, game_id: str, channel: int, members: tuple[Member, ...],
               moves: int | None = None, seed: str = "web-seed",
               scheduler: Scheduler | None = None) -> int:
    """A table of ``members`` that plays random legal moves until it ends (or ``moves``);
    with a scheduler, at a daily pace."""
    opened = await tables.open(game_id, channel, members[0], guild_id=GUILD,
                               seat_order="join", seed=seed)
    if scheduler is not None:
        await scheduler.set_timing(opened.table_id, make_timing("daily"), members[0])
    for m in members[1:]:
        await tables.join(opened.table_id, m)
    await tables.start(opened.table_id, members[0])
    await finish(tables, opened.table_id, members, moves, seed)
    return opened.table_id


async def finish(tables: Tables, table_id: int, members: tuple[Member, ...],
                 moves: int | None = None, seed: str = "web-seed") -> None:
    """Random legal moves until the game ends (or ``moves`` were made)."""
    rng = Rng(f"{seed}-moves")
    done = 0
    while moves is None or done < moves:
        record = await tables.table_for(table_id)
        if record.status != "playing":
            break
        for member in members:
            legal = await tables.legal_moves(table_id, member)
            if legal:
                await tables.act(table_id, member, rng.choice(legal))
                done += 1
                break
        else:
            raise AssertionError("nobody can move")


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    store = await SqliteStore.open(tmp_path / "web.db")
    clock = FakeClock()
    site = Site(store, Signer(SECRET), clock=clock, limits=Limits(burst=10_000, rate=1_000))
    client = TestClient(TestServer(make_app(site)))
    await client.start_server()
    tables, scheduler = paced(store, clock)
    try:
        yield Web(client, site, tables, clock, scheduler)
    finally:
        await client.close()
        await site.store.close()
