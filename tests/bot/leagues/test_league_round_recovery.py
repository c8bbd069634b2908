"""A round whose opening a crash cut short (both stores): its plan was stored before any table
was made, and services started anew over the same store finish opening it (tables not yet
made are made, members not yet seated are seated, every table starts) or roll it back. Each
step is harmless twice: no member is seated twice, no slot gets a second table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from itertools import count
from typing import Any

import pytest

from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.rounds import RoundPlan, Rounds
from bot.pace.clock import FakeClock
from bot.pace.scheduler import paced
from bot.store import LeagueSettings, Status, Store, TableRecord
from bot.tables import Tables
from bot.values import Member, TableError
from tests.bot.leagues.test_leagues import GUILD, Clock
from tests.conftest import ADMIN

PLAYERS = [Member(200 + i, f"Player {i}") for i in range(16)]  # four tables of four


class Crash(Exception):
    """The process dies here."""


def crash_on(calls: int, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``method``, dying on its ``calls``-th call (from 1)."""
    seen = count(1)

    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        if next(seen) == calls:
            raise Crash
        return await method(*args, **kwargs)

    return wrapped


def services(store: Store) -> tuple[Tables, Leagues, Rounds]:
    """What a (re)started process builds over the store: nothing carried over in memory."""
    tables = Tables(store)
    leagues = Leagues(store, tables.games, clock=Clock())
    return tables, leagues, Rounds(leagues, tables)


@pytest.fixture
async def first(store: Store, with_pebbles: None) -> tuple[Tables, Leagues, Rounds]:
    made = services(store)
    leagues = made[1]
    await leagues.create(GUILD, ADMIN, "Quads", "pebbles", settings=LeagueSettings(None, 4, 4))
    for m in PLAYERS:
        await leagues.join(GUILD, m, "Quads")
    return made


async def open_all(rounds: Rounds, plan: RoundPlan, channels: Iterator[int]) -> None:
    """What the front end does for each table: a new thread unless the slot has one."""
    slots = await rounds.slots(plan)
    for i in range(len(plan.tables)):
        await rounds.open_slot(plan, i, slots[i].channel_id or next(channels), GUILD)


async def check_round(tables: Tables, plan: RoundPlan) -> None:
    """Every planned member is seated exactly once, at a started table of the round."""
    made = await tables.store.round_tables(plan.round.id)
    assert len(made) == len(plan.tables)
    assert all(t.status == Status.PLAYING for t in made)
    seated = await seated_at(tables, made)
    assert seated == Counter(m.id for table in plan.tables for m in table)
    # No slot got a second table (nor an unfiled one): the league's live tables are these.
    live = [t for t in await tables.store.tables_with_status("lobby")]
    assert not [t for t in live if t.league_id == plan.league.id]


async def seated_at(tables: Tables, made: list[TableRecord]) -> Counter[int | None]:
    """How many seats each member holds at these tables."""
    found: Counter[int | None] = Counter()
    for table in made:
        found.update(s.member_id for s in await tables.seats(table.id))
    return found


async def round_open(tables: Tables, plan: RoundPlan) -> bool:
    return any(r.open for r in await tables.store.rounds(plan.league.id)
               if r.id == plan.round.id)


# The call that dies: the third table's opening, a join at it (two of four seated), its start.
CRASHES = [("open", 3), ("join", 8), ("start", 3)]


@pytest.mark.parametrize(("step", "at"), CRASHES)
async def test_a_round_cut_short_is_finished_on_start(
    store: Store, first: tuple[Tables, Leagues, Rounds], step: str, at: int
) -> None:
    tables, _, rounds = first
    plan = await rounds.plan(GUILD, ADMIN, "Quads")
    assert len(plan.tables) == 4
    setattr(tables, step, crash_on(at, getattr(tables, step)))
    channels = count(9000)
    with pytest.raises(Crash):
        await open_all(rounds, plan, channels)
    # A table of a round still opening that ends does not close it (tables are to come).
    done = (await tables.store.round_tables(plan.round.id))[0]
    await rounds.abandon(done.id, plan.tables[0][0])
    assert await round_open(tables, plan)

    tables2, _, rounds2 = services(store)
    with pytest.raises(TableError):
        await rounds2.plan(GUILD, ADMIN, "Quads")  # the half-open round is open
    [again] = await rounds2.opening()
    assert again.round.id == plan.round.id
    assert again.tables == plan.tables and again.computers == plan.computers
    await open_all(rounds2, again, channels)
    # Twice is harmless: nothing more is made, nobody is seated again.
    await open_all(rounds2, again, channels)
    assert await rounds2.opening() == []

    made = await tables2.store.round_tables(plan.round.id)
    assert len(made) == 4
    assert made[0].status == Status.ABANDONED
    assert all(t.status == Status.PLAYING for t in made[1:])
    seated = await seated_at(tables2, made)
    assert seated == Counter(m.id for table in plan.tables for m in table)
    assert not [t for t in await tables2.store.tables_with_status("lobby")
                if t.league_id == plan.league.id]

    # Open exactly while one of its tables is live; a new round is refused only meanwhile.
    for table in made[1:]:
        assert await round_open(tables2, plan)
        with pytest.raises(TableError):
            await rounds2.plan(GUILD, ADMIN, "Quads")
        seats = await tables2.seats(table.id)
        await rounds2.abandon(table.id, Member(seats[0].member_id or 0, seats[0].name))
    assert not await round_open(tables2, plan)
    nxt = await rounds2.plan(GUILD, ADMIN, "Quads")
    assert nxt.round.number == plan.round.number + 1


async def test_a_round_opened_without_a_crash_is_not_reopened(
    store: Store, first: tuple[Tables, Leagues, Rounds]
) -> None:
    tables, _, rounds = first
    plan = await rounds.plan(GUILD, ADMIN, "Quads")
    assert await rounds.opening() != []  # planned, not yet opened
    await open_all(rounds, plan, count(9100))
    await check_round(tables, plan)
    assert await services(store)[2].opening() == []


async def test_a_round_that_cannot_finish_opening_is_rolled_back(
    store: Store, first: tuple[Tables, Leagues, Rounds]
) -> None:
    tables, _, rounds = first
    plan = await rounds.plan(GUILD, ADMIN, "Quads")
    tables.join = crash_on(5, tables.join)  # type: ignore[method-assign]
    with pytest.raises(Crash):
        await open_all(rounds, plan, count(9200))
    tables2, _, rounds2 = services(store)
    [again] = await rounds2.opening()
    await rounds2.roll_back(again.round)
    assert not await round_open(tables2, plan)
    assert all(not t.live for t in await tables2.store.round_tables(plan.round.id))
    assert await rounds2.opening() == []
    assert (await rounds2.plan(GUILD, ADMIN, "Quads")).round.number == plan.round.number + 1


async def test_the_organisers_answer_is_kept_while_the_round_opens(
    store: Store, first: tuple[Tables, Leagues, Rounds]
) -> None:
    _, _, rounds = first
    plan = await rounds.plan(GUILD, ADMIN, "Quads")
    await store.owe_round_reply(plan.round.id, "42", "token", expires=1_000)
    # A restart finds it while the token holds, and not after.
    assert await store.round_reply(plan.round.id, 999) == ("42", "token")
    assert await store.round_reply(plan.round.id, 1_000) is None
    await store.drop_round_reply(plan.round.id)
    assert await store.round_reply(plan.round.id, 0) is None


async def test_no_seat_changes_hands_while_its_round_is_still_being_set_up(
    store: Store, first: tuple[Tables, Leagues, Rounds]
) -> None:
    """A substitution at a table of a round a crash left half open would seat a member the
    plan keeps for a table still to come (twice in one round once it is finished), or leave
    a forfeit at a table a roll-back then abandons: it waits until the round has opened."""
    tables, _, rounds = first
    plan = await rounds.plan(GUILD, ADMIN, "Quads")
    tables.open = crash_on(2, tables.open)  # type: ignore[method-assign]
    with pytest.raises(Crash):
        await open_all(rounds, plan, count(9200))
    [made] = await tables.store.round_tables(plan.round.id)
    planned_later = plan.tables[1][0]  # seated only once the second table is made
    tables2, _, rounds2 = services(store)
    referee = Referee(rounds2)
    scheduler = paced(store, FakeClock())[1]
    with pytest.raises(TableError, match="still being set up"):
        await referee.substitute(made.id, 0, planned_later, ADMIN, scheduler.substitute)
    assert await store.forfeits(made.id) == []
    [again] = await rounds2.opening()
    await open_all(rounds2, again, count(9300))
    await check_round(tables2, again)
