"""Organisers' corrections (a void, a placing corrected; each with a reason, logged, ratings
recomputed in the same transaction) and what members see of themselves (`/league me`,
`/league history`); sign-ups that close, fill up, and check in for rounds."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.leagues import Leagues
from bot.leagues.members import history_text, me_text, member_view
from bot.leagues.referee import Referee
from bot.leagues.results import replay
from bot.leagues.rounds import Rounds
from bot.store import open_store
from bot.tables import Tables
from bot.values import Member, TableError
from tests.bot.leagues.test_leagues import GUILD, ROLE, Clock, league_game, play_to_end
from tests.conftest import ADMIN, ALICE, BOB, CAROL


@pytest.fixture
async def leagues(tables: Tables) -> Leagues:
    made = Leagues(tables.store, tables.games, clock=Clock())
    await made.create(GUILD, ADMIN, "Cup", "pebbles")
    await made.set_admin_role(GUILD, ADMIN, ROLE)
    return made


async def replayed(leagues: Leagues) -> bool:
    store = leagues.store
    return await store.all_ratings() == replay(await store.league_results(),
                                               await store.season_carries())


async def test_a_void_is_an_organisers_with_a_reason_and_recomputes_ratings(
    tables: Tables, leagues: Leagues
) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB], winner=ALICE)
    await league_game(tables, leagues, 2, [ALICE, BOB, CAROL], winner=BOB)
    first, _ = await tables.store.league_results()
    with pytest.raises(TableError, match="server manager"):
        await leagues.void(GUILD, BOB, "Cup", first.id, "I lost")
    with pytest.raises(TableError, match="reason"):
        await leagues.void(GUILD, ADMIN, "Cup", first.id, "   ")
    with pytest.raises(TableError, match="no result 99"):
        await leagues.void(GUILD, ADMIN, "Cup", 99, "typo")
    await leagues.void(GUILD, ADMIN, "Cup", first.id, "played the wrong  game")
    with pytest.raises(TableError, match="voided before"):
        await leagues.void(GUILD, ADMIN, "Cup", first.id, "again")
    assert (await tables.store.league_results())[0].voided == "played the wrong game"
    assert await tables.store.corrections(first.id) == [("void", ADMIN.id,
                                                         "played the wrong game")]
    assert await replayed(leagues)
    lines = {x.name: x for x in (await leagues.standings(GUILD, "Cup")).lines}
    assert (lines["Alice"].games, lines["Alice"].wins) == (1, 0)
    assert lines["Bob"].wins == 1
    points = {x.name: x.points for x in (await leagues.standings(GUILD, "Cup")).points}
    assert points == {"Bob": 1.0, "Alice": 0.25, "Carol": 0.25}  # Alice and Carol tied


async def test_a_placing_is_corrected_with_a_reason_and_ratings_follow(
    tables: Tables, leagues: Leagues
) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB, CAROL], winner=ALICE, forfeit=CAROL)
    (result,) = await tables.store.league_results()
    with pytest.raises(TableError, match="server manager"):
        await leagues.correct(GUILD, CAROL, "Cup", result.id, CAROL.id, 1, "mine")
    with pytest.raises(TableError, match="from 1 to 3"):
        await leagues.correct(GUILD, ADMIN, "Cup", result.id, CAROL.id, 4, "x")
    fixed = await leagues.correct(GUILD, ADMIN, "Cup", result.id, CAROL.id, 1,
                                  "the forfeit was our mistake")
    assert {p.member_id: (p.place, p.forfeited) for p in fixed.places} == {
        CAROL.id: (1, False), ALICE.id: (2, False), BOB.id: (3, False)}
    (stored,) = await tables.store.league_results()
    assert stored.places == fixed.places
    assert await tables.store.corrections(result.id) == [
        ("place", ADMIN.id, "the forfeit was our mistake")]
    assert await replayed(leagues)
    lines = (await leagues.standings(GUILD, "Cup")).lines
    assert [x.name for x in lines] == ["Carol", "Alice", "Bob"]
    assert lines[0].forfeits == 0 and lines[0].wins == 1


async def test_a_member_sees_their_rank_results_and_table(tables: Tables,
                                                          leagues: Leagues) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB], winner=BOB)
    for m in (ALICE, BOB, CAROL):
        await leagues.join(GUILD, m, "Cup")
    rounds = Rounds(leagues, tables)
    plan = await rounds.plan(GUILD, ADMIN, "Cup")
    await rounds.open_table(plan, 0, 4242, GUILD)
    view = await member_view(leagues, GUILD, "Cup", BOB.id, "Bob")
    text = me_text(view, leagues.clock())
    assert "Rank 1 of 3" in text and "Round 1 is open: your table is <#4242>" in text
    assert "place 1 of 2" in text and "rating 0.0 →" in text
    history = history_text(await member_view(leagues, GUILD, "Cup", ALICE.id, "Alice"))
    assert "place 2 of 2" in history
    with pytest.raises(TableError, match="no standing"):
        await member_view(leagues, GUILD, "Cup", 777, "Nobody")


async def test_sign_ups_close_fill_up_and_rounds_pair_who_checked_in(
    tables: Tables, leagues: Leagues
) -> None:
    dave, erin = Member(104, "Dave"), Member(105, "Erin")
    with pytest.raises(TableError, match="server manager"):
        await leagues.set_signups(GUILD, ALICE, "Cup", signups_open=False)
    await leagues.set_signups(GUILD, ADMIN, "Cup", signups_open=False)
    with pytest.raises(TableError, match="closed"):
        await leagues.join(GUILD, ALICE, "Cup")
    league = await leagues.set_signups(GUILD, ADMIN, "Cup", signups_open=True, cap=3)
    assert league.signups_open and league.cap == 3 and not league.checkin
    for m in (ALICE, BOB, CAROL):
        await leagues.join(GUILD, m, "Cup")
    await leagues.join(GUILD, BOB, "Cup")  # signed up already: no seat of the cap taken
    with pytest.raises(TableError, match="full"):
        await leagues.join(GUILD, dave, "Cup")
    await leagues.set_signups(GUILD, ADMIN, "Cup", cap=0, checkin=True)
    await leagues.join(GUILD, dave, "Cup")
    with pytest.raises(TableError, match="Sign up"):
        await leagues.check_in(league.id, erin)
    rounds = Rounds(leagues, tables)
    with pytest.raises(TableError, match="Not enough members checked in"):
        await rounds.plan(GUILD, ADMIN, "Cup")
    assert (await leagues.check_in(league.id, BOB))[1]
    assert not (await leagues.check_in(league.id, BOB))[1]
    await leagues.check_in(league.id, dave)
    plan = await rounds.plan(GUILD, ADMIN, "Cup")
    assert [{m.id for m in t} for t in plan.tables] == [{BOB.id, dave.id}]
    assert await tables.store.checked_in(league.id) == set()  # the next round asks again


async def test_two_members_joining_at_once_never_pass_the_cap(
    tables: Tables, leagues: Leagues, store_target: str
) -> None:
    league = await leagues.set_signups(GUILD, ADMIN, "Cup", cap=1)
    other = await open_store(store_target)  # a second process on the same database
    try:
        joined = await asyncio.gather(
            tables.store.join_league(league.id, ALICE.id, "Alice", 1),
            other.join_league(league.id, BOB.id, "Bob", 1))
    finally:
        await other.close()
    assert sorted(joined) == [False, True]
    assert len(await tables.store.league_members(league.id)) == 1


async def test_at_the_deadline_the_next_round_opens_by_itself_once(
    tables: Tables, leagues: Leagues, store_target: str
) -> None:
    for m in (ALICE, BOB):
        await leagues.join(GUILD, m, "Cup")
    rounds = Rounds(leagues, tables)
    with pytest.raises(TableError, match="with a deadline"):
        await rounds.plan(GUILD, ADMIN, "Cup", auto_next=True)
    plan = await rounds.plan(GUILD, ADMIN, "Cup", deadline=timedelta(hours=6), auto_next=True)
    assert plan.round.auto_next == 6 * 3600
    notice = await rounds.open_table(plan, 0, 4300, GUILD)
    await play_to_end(tables, notice, [ALICE, BOB], ALICE)
    await leagues.recorder.record(notice.table_id)
    assert not (await tables.store.rounds(plan.league.id))[0].open  # ended early
    referee = Referee(rounds)
    clock = leagues.clock
    assert isinstance(clock, Clock)
    clock.now += timedelta(hours=5)
    assert (await referee.settle_due(clock())).plans == []
    clock.now += timedelta(hours=2)
    (second,) = (await referee.settle_due(clock())).plans
    assert second.round.number == 2 and second.round.auto_next == 6 * 3600
    clock.now += timedelta(hours=1)
    assert (await referee.settle_due(clock())).plans == []  # round 2's deadline is later
    # Two processes at the deadline: one of them opens the next round.
    other = await open_store(store_target)
    try:
        claims = await asyncio.gather(tables.store.claim_next(second.round.id),
                                      other.claim_next(second.round.id))
    finally:
        await other.close()
    assert sorted(claims, key=str) == [6 * 3600, None]
