"""Check-in that runs itself (both stores): an organiser opens a check-in window with a close
time; the post counts who checked in; at the close the round opens with those present (once,
whichever process gets there) and lists who did not check in, or the organisers are told why
it could not open; an automatic round's check-in closes at its deadline."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.leagues import Leagues
from bot.leagues.checkin import CheckIns
from bot.leagues.referee import Referee
from bot.leagues.rounds import Rounds
from bot.store import LeagueSettings
from bot.tables import Tables
from bot.values import Member, TableError
from tests.bot.leagues.test_leagues import GUILD, ROLE, Clock
from tests.conftest import ADMIN, ALICE, BOB, CAROL

DAVE = Member(104, "Dave")
ERIN = Member(105, "Erin")
MEMBERS = (ALICE, BOB, CAROL, DAVE, ERIN)


@pytest.fixture
async def leagues(tables: Tables) -> Leagues:
    made = Leagues(tables.store, tables.games, clock=Clock())
    await made.create(GUILD, ADMIN, "Duo", "pebbles", settings=LeagueSettings(None, 2, 2))
    await made.set_admin_role(GUILD, ADMIN, ROLE)
    await made.set_signups(GUILD, ADMIN, "Duo", checkin=True)
    for member in MEMBERS:
        await made.join(GUILD, member, "Duo")
    return made


def later(leagues: Leagues, by: timedelta) -> None:
    leagues.clock.now += by  # type: ignore[attr-defined]


async def test_a_window_opens_the_round_with_those_present_at_its_close(
        tables: Tables, leagues: Leagues) -> None:
    checkins = CheckIns(leagues)
    state = await checkins.open_window(GUILD, ADMIN, "Duo", timedelta(hours=24),
                                       deadline=timedelta(days=3), auto_next=False)
    assert state.round_number == 1 and (state.checked, state.signed) == (0, 5)
    assert state.closes == leagues.clock() + timedelta(hours=24)
    assert "<t:" in state.text() and "Checked in: 0 of 5 signed up." in state.text()
    for member in (ALICE, BOB, CAROL, DAVE):
        await leagues.check_in(state.league.id, member)
    assert "Checked in: 4 of 5" in (await checkins.state(state.league.id)).text()

    referee = Referee(Rounds(leagues, tables))
    later(leagues, timedelta(hours=23))
    assert (await referee.settle_due(leagues.clock())).plans == []  # not yet
    later(leagues, timedelta(hours=1))
    # Two processes at the close: one round.
    both = await asyncio.gather(referee.settle_due(leagues.clock()),
                                Referee(Rounds(leagues, tables)).settle_due(leagues.clock()))
    plans = [p for s in both for p in s.plans]
    assert len(plans) == 1 and not any(s.refused for s in both)
    (plan,) = plans
    seated = {m.id for table in plan.tables for m in table}
    assert seated == {ALICE.id, BOB.id, CAROL.id, DAVE.id}
    assert [m.id for m in plan.no_shows] == [ERIN.id]
    assert plan.round.deadline is not None and not plan.round.auto_next
    # The no-shows survive a restart that finishes opening the round.
    (again,) = await Rounds(leagues, tables).opening()
    assert [m.id for m in again.no_shows] == [ERIN.id]
    # The window is spent: check-in starts afresh for the next round.
    league = await leagues.named(GUILD, "Duo")
    assert league.checkin_closes is None
    assert (await checkins.state(league.id)).checked == 0
    assert (await referee.settle_due(leagues.clock() + timedelta(days=1))).plans == []


async def test_a_window_that_cannot_open_a_round_says_why_once(tables: Tables,
                                                               leagues: Leagues) -> None:
    await CheckIns(leagues).open_window(GUILD, ADMIN, "Duo", timedelta(hours=1), deadline=None,
                                        auto_next=False)
    league = await leagues.named(GUILD, "Duo")
    await leagues.check_in(league.id, ALICE)
    later(leagues, timedelta(hours=1))
    referee = Referee(Rounds(leagues, tables))
    settled = await referee.settle_due(leagues.clock())
    assert settled.plans == []
    ((told, why),) = settled.refused
    assert told.id == league.id and "Not enough members checked in for a table (1;" in why
    assert (await referee.settle_due(leagues.clock())).refused == []


async def test_a_window_closing_while_a_round_is_open_is_refused_for_that(
        tables: Tables, leagues: Leagues) -> None:
    league = await leagues.named(GUILD, "Duo")
    for member in (ALICE, BOB):
        await leagues.check_in(league.id, member)
    rounds = Rounds(leagues, tables)
    await rounds.plan(GUILD, ADMIN, "Duo")
    await CheckIns(leagues).open_window(GUILD, ADMIN, "Duo", timedelta(hours=1), deadline=None,
                                        auto_next=False)
    later(leagues, timedelta(hours=2))
    ((_, why),) = (await Referee(rounds).settle_due(leagues.clock())).refused
    assert "still open" in why


async def test_an_automatic_rounds_check_in_closes_at_its_deadline(tables: Tables,
                                                                   leagues: Leagues) -> None:
    checkins = CheckIns(leagues)
    await checkins.open_window(GUILD, ADMIN, "Duo", timedelta(hours=2),
                               deadline=timedelta(days=2), auto_next=True)
    league = await leagues.named(GUILD, "Duo")
    for member in (ALICE, BOB):
        await leagues.check_in(league.id, member)
    later(leagues, timedelta(hours=2))
    (plan,) = (await Referee(Rounds(leagues, tables)).settle_due(leagues.clock())).plans
    assert plan.round.auto_next and plan.round.deadline is not None
    assert {m.id for m in plan.no_shows} == {CAROL.id, DAVE.id, ERIN.id}
    state = await checkins.state(league.id)
    assert state.round_number == 2 and state.checked == 0
    assert state.closes is not None and state.closes.isoformat(
        timespec="seconds") == plan.round.deadline


async def test_a_round_opened_by_hand_uses_up_the_window(tables: Tables,
                                                         leagues: Leagues) -> None:
    await CheckIns(leagues).open_window(GUILD, ADMIN, "Duo", timedelta(hours=6), deadline=None,
                                        auto_next=False)
    league = await leagues.named(GUILD, "Duo")
    for member in (ALICE, BOB):
        await leagues.check_in(league.id, member)
    rounds = Rounds(leagues, tables)
    await rounds.plan(GUILD, ADMIN, "Duo")
    assert (await leagues.named(GUILD, "Duo")).checkin_closes is None
    later(leagues, timedelta(hours=7))
    settled = await Referee(rounds).settle_due(leagues.clock())
    assert settled.plans == [] and settled.refused == []


@pytest.mark.parametrize(("by", "closes", "deadline", "auto", "said"), [
    (ALICE, timedelta(hours=1), None, False, "league-admin role can ask for check-in"),
    (ADMIN, timedelta(minutes=5), None, False, "between 10 minutes and 14 days"),
    (ADMIN, timedelta(days=15), None, False, "between 10 minutes and 14 days"),
    (ADMIN, timedelta(hours=1), None, True, "Only a round with a deadline"),
])
async def test_a_window_is_an_organisers_within_bounds(
        tables: Tables, leagues: Leagues, by: Member, closes: timedelta,
        deadline: timedelta | None, auto: bool, said: str) -> None:
    with pytest.raises(TableError, match=said):
        await CheckIns(leagues).open_window(GUILD, by, "Duo", closes, deadline=deadline,
                                            auto_next=auto)
    assert (await leagues.named(GUILD, "Duo")).checkin_closes is None


async def test_a_window_needs_check_in_turned_on(tables: Tables, leagues: Leagues) -> None:
    await leagues.set_signups(GUILD, ADMIN, "Duo", checkin=False)
    with pytest.raises(TableError, match="Turn check-in on first"):
        await CheckIns(leagues).open_window(GUILD, ADMIN, "Duo", timedelta(hours=1),
                                            deadline=None, auto_next=False)
