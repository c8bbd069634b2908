"""Seasons an organiser can leave running (both stores): a voided result is not corrected and
no correction puts a forfeit ahead of a seat that played on; a second round is refused for the
open one first; a member whose table finished sees it while the round runs on; standings pages,
titles and seat counts say what they mean."""

from __future__ import annotations

import pytest

from bot.leagues import Leagues
from bot.leagues.members import me_text, member_view
from bot.leagues.report import check_page
from bot.leagues.rounds import Rounds
from bot.store import LeagueSettings
from bot.tables import Tables
from bot.values import Member, TableError
from tests.bot.leagues.test_league_integrity import round_of
from tests.bot.leagues.test_leagues import GUILD, ROLE, Clock, league_game, play_to_end
from tests.conftest import ADMIN, ALICE, BOB, CAROL

DAVE = Member(104, "Dave")


@pytest.fixture
async def leagues(tables: Tables) -> Leagues:
    made = Leagues(tables.store, tables.games, clock=Clock())
    await made.create(GUILD, ADMIN, "Cup", "pebbles")
    await made.create(GUILD, ADMIN, "Duo", "pebbles", settings=LeagueSettings(None, 2, 2))
    await made.set_admin_role(GUILD, ADMIN, ROLE)
    return made


async def test_a_voided_result_is_not_corrected(tables: Tables, leagues: Leagues) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB], winner=ALICE)
    (result,) = await tables.store.league_results()
    await leagues.void(GUILD, ADMIN, "Cup", result.id, "wrong game")
    with pytest.raises(TableError, match="void"):
        await leagues.correct(GUILD, ADMIN, "Cup", result.id, BOB.id, 1, "Bob won")
    assert await tables.store.corrections(result.id) == [("void", ADMIN.id, "wrong game")]


async def test_no_correction_puts_a_forfeit_ahead_of_a_seat_that_played_on(
    tables: Tables, leagues: Leagues
) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB, CAROL], winner=ALICE, forfeit=CAROL)
    (result,) = await tables.store.league_results()
    with pytest.raises(TableError, match="forfeit"):
        await leagues.correct(GUILD, ADMIN, "Cup", result.id, ALICE.id, 3, "misread")
    with pytest.raises(TableError, match="forfeit"):
        await leagues.correct(GUILD, ADMIN, "Cup", result.id, BOB.id, 3, "misread")
    assert await tables.store.corrections(result.id) == []
    # Behind the forfeit's seat is refused, beside the others is not.
    fixed = await leagues.correct(GUILD, ADMIN, "Cup", result.id, ALICE.id, 2, "misread")
    assert {p.member_id: p.place for p in fixed.places} == {BOB.id: 1, ALICE.id: 2,
                                                          CAROL.id: 3}


async def test_a_second_round_is_refused_for_the_open_one_with_check_in_on(
    tables: Tables, leagues: Leagues
) -> None:
    league = await leagues.set_signups(GUILD, ADMIN, "Cup", checkin=True)
    for m in (ALICE, BOB):
        await leagues.join(GUILD, m, "Cup")
        await leagues.check_in(league.id, m)
    rounds = Rounds(leagues, tables)
    await rounds.plan(GUILD, ADMIN, "Cup")
    with pytest.raises(TableError, match="still open"):
        await rounds.plan(GUILD, ADMIN, "Cup")


async def test_a_finished_table_shows_while_its_round_runs_on(tables: Tables,
                                                               leagues: Leagues) -> None:
    first, _ = await round_of(tables, leagues, [ALICE, BOB, CAROL, DAVE], league="Duo")
    seated = {s.member_id for s in await tables.seats(first)}
    members = [m for m in (ALICE, BOB, CAROL, DAVE) if m.id in seated]
    await play_to_end(tables, await tables.status(first), members, members[0])
    await leagues.recorder.record(first)
    view = await member_view(leagues, GUILD, "Duo", members[0].id, members[0].name)
    text = me_text(view, leagues.clock())
    channel = (await tables.table_for(first)).channel_id
    assert "Round 1 is open" in text and "no table in it" not in text
    assert f"your table <#{channel}> has finished: place 1 of 2" in text


async def test_a_page_past_the_last_is_refused_with_the_count(tables: Tables,
                                                              leagues: Leagues) -> None:
    for i in range(27):
        await leagues.join(GUILD, Member(300 + i, f"M{i:02}"), "Cup")
    lines = (await leagues.standings(GUILD, "Cup")).lines
    check_page(lines, 2)
    with pytest.raises(TableError, match="only 2 pages"):
        check_page(lines, 3)


async def test_titles_and_seat_counts_say_what_they_mean(tables: Tables,
                                                         leagues: Leagues) -> None:
    await leagues.join(GUILD, ALICE, "Duo")
    assert "all-time" not in (await leagues.standings(GUILD, "Duo")).title
    with pytest.raises(TableError, match=r"needs 2 seats\)"):
        await Rounds(leagues, tables).plan(GUILD, ADMIN, "Duo")
