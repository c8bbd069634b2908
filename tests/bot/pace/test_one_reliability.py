"""One reliability figure (both stores): ``/profile``, a table's minimum and a league's
minimum read the same number, and a member who came back to a game they still play has not
abandoned it."""

from __future__ import annotations

import pytest

from bot.leagues import Leagues
from bot.pace.model import HOUR
from bot.store import LeagueSettings
from bot.values import TableError
from tests.bot.pace.conftest import Stack
from tests.bot.pace.test_scheduler import pebbles
from tests.conftest import ADMIN, ALICE, BOB

GUILD = 7


async def _gone_absent(stack: Stack) -> int:
    """Alice's seat goes absent at an ordinary table (the computer played for her once)."""
    table_id = await pebbles(stack, 1, ALICE, BOB, pace="fast", absent_after=1)
    stack.clock.advance(HOUR)
    await stack.scheduler.tick()
    assert (await stack.store.seat_clocks(table_id))[0].absent
    return table_id


async def test_a_member_who_came_back_has_not_abandoned(stack: Stack) -> None:
    table_id = await _gone_absent(stack)
    assert (await stack.scheduler.record(ALICE.id)).abandoned == 1
    absent, _ = await stack.scheduler.come_back(table_id, ALICE.id)
    assert absent
    mine = await stack.scheduler.record(ALICE.id)
    assert mine.abandoned == 0 and mine.missed == 1, mine  # the missed deadline stays


async def test_tables_and_leagues_read_one_reliability(stack: Stack) -> None:
    await _gone_absent(stack)
    leagues = Leagues(stack.store, stack.tables.games, clock=stack.clock.now)
    await leagues.create(GUILD, ADMIN, "Cup", "pebbles",
                         settings=LeagueSettings(None, 2, 2, min_reliability=0.9))
    profile = (await stack.scheduler.record(ALICE.id)).score
    assert profile < 0.9
    assert await leagues.reliability_of(GUILD, ALICE.id) == pytest.approx(profile)
    with pytest.raises(TableError, match="reliability"):
        await leagues.join(GUILD, ALICE, "Cup")
