"""Replacing a player without blame (both stores): an organiser hands a seat on with no fault,
and the member replaced is left out of the result: no forfeit, no rating change, no reliability
charge (their missed deadlines at that table are forgiven too). Replaced the usual way, the
same member forfeits and is charged."""

from __future__ import annotations

import pytest

from bot.leagues import Leagues
from bot.tables import Tables
from bot.values import TableError
from tests.bot.leagues.test_league_integrity import DAVE, OLGA, leagues, referee, round_of
from tests.bot.leagues.test_leagues import GUILD, ROLE, play_to_end
from tests.conftest import ALICE, BOB, CAROL

__all__ = ["leagues"]  # the fixture


async def _replaced(tables: Tables, leagues: Leagues, *, no_fault: bool
                    ) -> tuple[int, str, float]:
    """A round table of three where an organiser replaces one member by Dave, played to the
    end: the member replaced, the channel's line about it, their reliability after it."""
    tables, ref, scheduler = referee(tables, leagues)
    (table_id,) = await round_of(tables, leagues, [ALICE, BOB, CAROL])
    await leagues.join(GUILD, DAVE, "Cup")
    table = await tables.table_for(table_id)
    leaver = next(s for s in await tables.seats(table_id) if s.member_id != table.creator_id)
    assert leaver.member_id is not None
    # The leaver had missed a deadline at this table before being replaced.
    await tables.store.add_member_event(leaver.member_id, table_id, "missed", 1, 1_000)
    notice = await ref.substitute(table_id, leaver.position, DAVE, OLGA, scheduler.substitute,
                                  roles=[ROLE], no_fault=no_fault)
    by_id = {m.id: m for m in (ALICE, BOB, CAROL, DAVE)}
    seated = [s.member_id for s in await tables.seats(table_id)]
    await play_to_end(tables, await tables.status(table_id),
                      [by_id[m] for m in seated if m is not None], DAVE)
    result = await leagues.recorder.record(table_id)
    assert result is not None
    places = {p.member_id: p for p in result.places}
    assert DAVE.id not in places  # the substitute is never rated for the seat
    if no_fault:
        assert leaver.member_id not in places and len(places) == 2
        assert await tables.store.forfeits(table_id) != []  # the hand-over is on record
    else:
        assert places[leaver.member_id].forfeited and len(places) == 3
    return (leaver.member_id, notice.public_text,
            await leagues.reliability_of(GUILD, leaver.member_id))


async def test_a_no_fault_replacement_charges_neither_rating_nor_reliability(
        tables: Tables, leagues: Leagues) -> None:
    leaver, said, reliable = await _replaced(tables, leagues, no_fault=True)
    assert "No fault" in said
    assert reliable == 1.0
    ratings = await tables.store.all_ratings()
    assert all(member != leaver for _scope, member in ratings)
    standings = await leagues.standings(GUILD, "Cup")
    assert all(line.member_id != leaver or line.games == 0 for line in standings.lines)


async def test_the_usual_replacement_is_a_forfeit_and_charged(tables: Tables,
                                                              leagues: Leagues) -> None:
    leaver, said, reliable = await _replaced(tables, leagues, no_fault=False)
    assert "No fault" not in said
    assert reliable < 1.0
    assert any(member == leaver for _scope, member in await tables.store.all_ratings())


async def test_no_fault_is_still_an_organisers_decision(tables: Tables,
                                                        leagues: Leagues) -> None:
    tables, ref, scheduler = referee(tables, leagues)
    (table_id,) = await round_of(tables, leagues, [ALICE, BOB, CAROL])
    await leagues.join(GUILD, DAVE, "Cup")
    seat = (await tables.seats(table_id))[1]
    by = {m.id: m for m in (ALICE, BOB, CAROL)}[seat.member_id or 0]
    with pytest.raises(TableError, match="only an organiser"):
        await ref.substitute(table_id, seat.position, DAVE, by, scheduler.substitute,
                             no_fault=True)
    assert await tables.store.forfeits(table_id) == []
