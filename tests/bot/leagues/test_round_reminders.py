"""A round's deadline, seen coming (both stores): a day and an hour before it, each table still
playing is told, once, whom it waits for, by a mention in its thread; a table that finished,
a reminder already due at the round's start (its greeting said it) and a deadline passed
are not."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from itertools import count

import pytest

from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.rounds import RoundPlan, Rounds
from bot.store import LeagueSettings, Store
from bot.tables import Tables
from bot.values import Member
from tests.bot.leagues.test_league_round_recovery import PLAYERS, open_all, services
from tests.bot.leagues.test_leagues import GUILD
from tests.conftest import ADMIN


@pytest.fixture
async def quads(store: Store, with_pebbles: None) -> tuple[Tables, Leagues, Rounds]:
    """A league of sixteen members, four a table."""
    made = services(store)
    await made[1].create(GUILD, ADMIN, "Quads", "pebbles", settings=LeagueSettings(None, 4, 4))
    for member in PLAYERS:
        await made[1].join(GUILD, member, "Quads")
    return made


async def opened(rounds: Rounds, deadline: timedelta, channels: int) -> RoundPlan:
    """A round of the league with that much time, its tables all started."""
    plan = await rounds.plan(GUILD, ADMIN, "Quads", deadline=deadline)
    await open_all(rounds, plan, count(channels))
    return plan


async def test_a_round_reminds_its_waiting_tables_a_day_and_an_hour_before_its_deadline(
    store: Store, quads: tuple[Tables, Leagues, Rounds]
) -> None:
    tables, leagues, rounds = quads
    clock = leagues.clock
    plan = await opened(rounds, timedelta(days=3), 9400)
    made = await store.round_tables(plan.round.id)
    referee = Referee(rounds)
    start = clock()

    async def at(after: timedelta) -> list[tuple[int, tuple[int, ...]]]:
        clock.now = start + after  # type: ignore[attr-defined]
        return [(r.channel_id, r.members) for r in await referee.remind_due(clock())]

    assert await at(timedelta(days=1)) == []
    day_before = await at(timedelta(days=2, minutes=1))
    assert sorted(c for c, _ in day_before) == sorted(t.channel_id for t in made)
    for channel_id, members in day_before:
        table = next(t for t in made if t.channel_id == channel_id)
        assert set(members) == set((await tables.status(table.id)).next_members)
    assert await at(timedelta(days=2, minutes=2)) == []  # told once

    # A table that finished meanwhile is not reminded an hour before.
    done = made[0]
    leaving = (await tables.seats(done.id))[0]
    assert leaving.member_id is not None
    await rounds.abandon(done.id, Member(leaving.member_id, leaving.name))
    hour_before = await at(timedelta(days=3) - timedelta(minutes=59))
    assert sorted(c for c, _ in hour_before) == sorted(t.channel_id for t in made[1:])
    assert await at(timedelta(days=3) - timedelta(minutes=30)) == []
    assert await at(timedelta(days=3, minutes=1)) == []  # past the deadline: settled instead


async def test_two_processes_remind_once_and_nothing_due_at_a_rounds_start_is_sent(
    store: Store, quads: tuple[Tables, Leagues, Rounds]
) -> None:
    _, leagues, rounds = quads
    clock = leagues.clock
    plan = await opened(rounds, timedelta(hours=3), 9500)
    # Its start: a day before the deadline has passed already; the greeting said it all.
    assert await Referee(rounds).remind_due(clock()) == []
    clock.now += timedelta(hours=2, minutes=30)  # type: ignore[attr-defined]
    told = await asyncio.gather(Referee(rounds).remind_due(clock()),
                                Referee(rounds).remind_due(clock()))
    assert sorted(len(t) for t in told) == [0, len(plan.tables)]
    round_ = next(r for r in await store.rounds(plan.league.id) if r.id == plan.round.id)
    assert round_.reminded == 3
    assert await Referee(rounds).remind_due(clock()) == []
