"""Leagues: who may run them, which tables count, and the standings they produce."""

from __future__ import annotations

import pytest

from bot.leagues import Leagues
from bot.ratings import START, rate
from bot.tables import Tables
from bot.values import TableError
from tests.conftest import ADMIN, ALICE, BOB, CAROL

GUILD = 77


def test_a_win_moves_ratings_apart_and_a_tie_keeps_them() -> None:
    after = rate([[["a"], ["b"]]])
    assert after["a"].rating == pytest.approx(START + 16)
    assert after["b"].rating == pytest.approx(START - 16)
    tied = rate([[["a", "b"]]])
    assert tied["a"].rating == tied["b"].rating == START


def test_a_many_player_game_moves_ratings_about_as_much_as_a_duel() -> None:
    after = rate([[["a"], ["b"], ["c"], ["d"]]])
    assert after["a"].rating == pytest.approx(START + 16)
    assert after["d"].rating == pytest.approx(START - 16)
    assert sum(s.rating for s in after.values()) == pytest.approx(4 * START)
    assert after["a"].wins == 1 and after["b"].wins == 0 and after["a"].games == 1


async def play_out(tables: Tables, channel: int, league: str | None) -> None:
    await tables.open("pebbles", channel, ALICE, guild_id=GUILD, league=league,
                      options={"first": 0, "turns": 2}, seat_order="join")
    await tables.join((await tables.table_in(channel)).id, BOB)
    notice = await tables.start((await tables.table_in(channel)).id, ALICE)
    by_id = {ALICE.id: ALICE, BOB.id: BOB}
    for _ in range(20):
        if notice.over:
            return
        mover = by_id[notice.next_members[0]]
        legal = await tables.legal_moves(notice.table_id, mover)
        # Alice always plays her highest card, Bob holds: Alice wins.
        move = sorted(legal)[-1] if mover is ALICE and len(legal) > 1 else "hold"
        notice = await tables.act(notice.table_id, mover, move)
    raise AssertionError("the game did not end")


async def test_only_managers_create_and_close_leagues(tables: Tables) -> None:
    leagues = Leagues(tables.store, tables.games)
    with pytest.raises(TableError, match="server manager"):
        await leagues.create(GUILD, ALICE, "Spring", "pebbles")
    league = await leagues.create(GUILD, ADMIN, "  Spring   Cup ", "pebbles")
    assert league.name == "Spring Cup"
    with pytest.raises(TableError, match="already has a league"):
        await leagues.create(GUILD, ADMIN, "spring cup", "pebbles")
    with pytest.raises(TableError, match="server manager"):
        await leagues.close(GUILD, BOB, "Spring Cup")
    await leagues.close(GUILD, ADMIN, "Spring Cup")
    with pytest.raises(TableError, match="closed"):
        await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Spring Cup")


async def test_a_league_table_must_play_the_leagues_game(tables: Tables) -> None:
    leagues = Leagues(tables.store, tables.games)
    await leagues.create(GUILD, ADMIN, "Cup", "palatinus")
    with pytest.raises(TableError, match="plays Palatinus"):
        await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Cup")
    with pytest.raises(TableError, match="no league of that name"):
        await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Nope")


async def test_standings_count_only_the_leagues_finished_games(tables: Tables) -> None:
    leagues = Leagues(tables.store, tables.games)
    await leagues.create(GUILD, ADMIN, "Cup", "pebbles")
    await play_out(tables, 1, "Cup")
    await play_out(tables, 2, "Cup")
    await play_out(tables, 3, None)  # not a league game
    await tables.open("pebbles", 4, CAROL, guild_id=GUILD, league="Cup")  # not finished
    league, lines = await leagues.standings(GUILD, "cup")
    assert league.name == "Cup"
    assert [line.name for line in lines] == ["Alice", "Bob"]
    assert [line.games for line in lines] == [2, 2]
    assert lines[0].wins == 2 and lines[0].rating > 1500 > lines[1].rating
