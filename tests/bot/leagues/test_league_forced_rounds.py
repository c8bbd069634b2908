"""A round an organiser closes with ``force`` (both stores): every table of it is settled as
its deadline would (the seats it waits for forfeit), each is told, and no member sits in two
open rounds of one league."""

from __future__ import annotations

import pytest

from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.rounds import Rounds
from bot.store import LeagueSettings, Status
from bot.tables import Tables
from bot.values import Member
from tests.bot.leagues.test_league_integrity import round_of
from tests.bot.leagues.test_leagues import GUILD, ROLE, Clock
from tests.conftest import ADMIN, ALICE, BOB, CAROL

DAVE = Member(104, "Dave")


@pytest.fixture
async def leagues(tables: Tables) -> Leagues:
    made = Leagues(tables.store, tables.games, clock=Clock())
    await made.create(GUILD, ADMIN, "Duo", "pebbles", settings=LeagueSettings(None, 2, 2))
    await made.set_admin_role(GUILD, ADMIN, ROLE)
    return made


async def test_a_forced_round_settles_the_open_one(tables: Tables, leagues: Leagues) -> None:
    first = await round_of(tables, leagues, [ALICE, BOB, CAROL, DAVE], league="Duo")
    referee = Referee(Rounds(leagues, tables))
    plan, told = await referee.force_round(GUILD, ADMIN, "Duo", deadline=None)
    assert plan.round.number == 2
    assert sorted(n.table_id for n in told) == sorted(first)
    assert all("closed" in n.public_text and "forfeit" in n.public_text for n in told)
    for table_id in first:
        assert (await tables.table_for(table_id)).status != Status.PLAYING
    results = {r.table_id: r for r in await tables.store.league_results()}
    assert set(first) <= set(results)
    assert all(any(p.forfeited for p in results[t].places) for t in first)
    # Nobody sits in two open rounds: only the new round is open, and its tables are the
    # only live ones of the league.
    league = await leagues.named(GUILD, "Duo")
    assert [r.number for r in await tables.store.rounds(league.id) if r.open] == [2]
