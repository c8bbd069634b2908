"""League use cases on a temp store with the Pebbles test game: who may run leagues, results
stored when games end, forfeits, seasons, rebuilds, rounds, standings and the CSV."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.leagues import Leagues
from bot.leagues.__main__ import main
from bot.leagues.rounds import Rounds
from bot.notices import Notice
from bot.store import LeagueSettings
from bot.tables import Tables
from bot.values import Member, TableError
from tests.conftest import ADMIN, ALICE, BOB, CAROL

GUILD = 77
ROLE = 5150
DAVE, ERIN = Member(104, "Dave"), Member(105, "=Erin")
ORGANISER = Member(106, "Olga")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def leagues(tables: Tables, clock: Clock) -> Leagues:
    made = Leagues(tables.store, tables.games, clock=clock)
    await made.create(GUILD, ADMIN, "Cup", "pebbles")
    return made


async def sanctioned(tables: Tables, leagues: Leagues, channel: int, opener: Member,
                     league: str = "Cup", **options: Any) -> Notice:
    """A league table opened by an organiser (``opener`` holds the league-admin role)."""
    await leagues.set_admin_role(GUILD, ADMIN, ROLE)
    return await Rounds(leagues, tables).open_for_league(GUILD, opener, "pebbles", channel,
                                                         league, [ROLE], **options)


async def play_to_end(tables: Tables, notice: Notice, members: list[Member],
                      winner: Member | None) -> Notice:
    """``winner`` plays their highest card every turn, everyone else holds (all hold: a tie)."""
    by_id = {m.id: m for m in members}
    for _ in range(60):
        if notice.over:
            return notice
        mover = by_id[notice.next_members[0]]
        legal = await tables.legal_moves(notice.table_id, mover)
        move = sorted(legal)[-1] if mover == winner and len(legal) > 1 else "hold"
        notice = await tables.act(notice.table_id, mover, move)
    raise AssertionError("the game did not end")


async def league_game(tables: Tables, leagues: Leagues, channel: int, members: list[Member],
                      winner: Member | None, forfeit: Member | None = None) -> int:
    opened = await sanctioned(tables, leagues, channel, members[0], options={"turns": 2},
                              seed=f"s{channel}")
    for m in members[1:]:
        await tables.join(opened.table_id, m)
    notice = await tables.start(opened.table_id, members[0])
    if forfeit is not None:
        seat = next(s.position for s in await tables.seats(notice.table_id)
                    if s.member_id == forfeit.id)
        assert await leagues.recorder.forfeit(notice.table_id, seat, "time") is not None
        assert await leagues.recorder.forfeit(notice.table_id, seat, "time") is None
    await play_to_end(tables, notice, members, winner)
    assert await leagues.recorder.record(notice.table_id) is not None
    assert await leagues.recorder.record(notice.table_id) is None  # idempotent
    return notice.table_id


async def test_only_managers_or_the_league_admin_role_run_leagues(leagues: Leagues) -> None:
    with pytest.raises(TableError, match="server manager"):
        await leagues.create(GUILD, ALICE, "Spring", "pebbles")
    with pytest.raises(TableError, match="server manager"):
        await leagues.create(GUILD, ORGANISER, "Spring", "pebbles", roles=[ROLE])
    with pytest.raises(TableError, match="server manager"):
        await leagues.set_admin_role(GUILD, ORGANISER, ROLE)
    await leagues.set_admin_role(GUILD, ADMIN, ROLE)
    league = await leagues.create(GUILD, ORGANISER, "  Spring   Cup ", "pebbles", roles=[ROLE])
    assert league.name == "Spring Cup"
    with pytest.raises(TableError, match="already has a league"):
        await leagues.create(GUILD, ADMIN, "spring cup", "pebbles")
    for attempt in (leagues.close(GUILD, BOB, "Spring Cup", roles=[ROLE + 1]),
                    leagues.start_season(GUILD, BOB, "Cup"),
                    leagues.end_season(GUILD, BOB, "Cup")):
        with pytest.raises(TableError, match="server manager"):
            await attempt
    await leagues.join(GUILD, CAROL, "Cup")
    with pytest.raises(TableError, match="server manager"):
        await leagues.leave(GUILD, BOB, "Cup", who=CAROL)
    await leagues.leave(GUILD, ORGANISER, "Cup", who=CAROL, roles=[ROLE])
    await leagues.close(GUILD, ORGANISER, "Spring Cup", roles=[ROLE])
    with pytest.raises(TableError, match="closed"):
        await leagues.join(GUILD, ALICE, "spring cup")


async def test_seat_counts_must_fit_the_game(leagues: Leagues) -> None:
    with pytest.raises(TableError, match="seat 2 to 4"):
        await leagues.create(GUILD, ADMIN, "Big", "pebbles", settings=LeagueSettings(max_seats=6))
    league = await leagues.create(GUILD, ADMIN, "Duels", "pebbles",
                                  settings=LeagueSettings(max_seats=2, computers=True))
    assert leagues.seat_range(league) == (2, 2) and league.computers


async def test_a_finished_game_is_stored_and_moves_ratings(tables: Tables,
                                                           leagues: Leagues) -> None:
    await leagues.join(GUILD, ALICE, "Cup")
    await league_game(tables, leagues, 1, [ALICE, BOB], winner=ALICE)
    await league_game(tables, leagues, 2, [ALICE, BOB], winner=ALICE)
    await tables.open("pebbles", 3, ALICE, guild_id=GUILD)  # not a league game
    standings = await leagues.standings(GUILD, "cup")
    assert standings.season is None and standings.title == "Cup"  # no seasons: its games
    lines = standings.lines
    assert [(x.name, x.games, x.wins) for x in lines] == [("Alice", 2, 2), ("Bob", 2, 0)]
    assert lines[0].rating > 0 > lines[1].rating - lines[0].rating
    assert lines[0].provisional and lines[0].reliability == 1.0


async def test_a_forfeit_counts_as_last_place(tables: Tables, leagues: Leagues,
                                              clock: Clock) -> None:
    # Bob would win on the board but forfeited: he finishes last.
    await league_game(tables, leagues, 1, [ALICE, BOB, CAROL], winner=BOB, forfeit=BOB)
    lines = {x.name: x for x in (await leagues.standings(GUILD, "Cup")).lines}
    assert lines["Bob"].forfeits == 1 and lines["Bob"].wins == 0
    assert lines["Bob"].rating < lines["Alice"].rating
    assert lines["Alice"].wins == lines["Carol"].wins == 1  # both held: tied first
    assert lines["Bob"].reliability == pytest.approx(0.75)
    clock.now += timedelta(days=120)
    later = await leagues.reliability_of(GUILD, BOB.id)
    assert 0.9 < later < 1.0


async def test_rebuilding_from_results_equals_the_incremental_ratings(
    tables: Tables, leagues: Leagues, clock: Clock
) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB, CAROL], winner=CAROL)
    await leagues.start_season(GUILD, ADMIN, "Cup", ends_on="2025-06-30", carry=0.5)
    await league_game(tables, leagues, 2, [ALICE, BOB], winner=BOB)
    await league_game(tables, leagues, 3, [CAROL, DAVE, ALICE], winner=None, forfeit=DAVE)
    await leagues.start_season(GUILD, ADMIN, "Cup")
    await league_game(tables, leagues, 4, [DAVE, BOB, CAROL, ALICE], winner=DAVE)
    incremental = await tables.store.all_ratings()
    assert len(incremental) == 4 + 4 + 4  # all-time, season 1 and season 2
    assert await leagues.recorder.rebuild() == 4
    assert await tables.store.all_ratings() == incremental
    # Season standings only count their season; all-time counts every game.
    season1 = await leagues.standings(GUILD, "Cup", season=1)
    assert {x.name: x.games for x in season1.lines} == {"Alice": 2, "Bob": 1, "Carol": 1,
                                                        "Dave": 1}
    everything = await leagues.standings(GUILD, "Cup", all_time_view=True)
    assert {x.name: x.games for x in everything.lines}["Alice"] == 4
    current = await leagues.standings(GUILD, "Cup")
    assert current.season is not None and current.season.number == 2
    assert current.lines[0].name == "Dave"


async def test_seasons_need_a_sensible_end_date(leagues: Leagues) -> None:
    with pytest.raises(TableError, match="YYYY-MM-DD"):
        await leagues.start_season(GUILD, ADMIN, "Cup", ends_on="next week")
    with pytest.raises(TableError, match="past"):
        await leagues.start_season(GUILD, ADMIN, "Cup", ends_on="2025-02-01")
    with pytest.raises(TableError, match="no season"):
        await leagues.end_season(GUILD, ADMIN, "Cup")
    first = await leagues.start_season(GUILD, ADMIN, "Cup", ends_on="2025-05-31")
    second = await leagues.start_season(GUILD, ADMIN, "Cup")
    assert (first.number, second.number) == (1, 2)
    seasons = await leagues.store.seasons(first.league_id)
    assert [s.running for s in seasons] == [False, True]


async def test_a_league_can_ask_for_reliability(tables: Tables, leagues: Leagues) -> None:
    await leagues.create(GUILD, ADMIN, "Serious", "pebbles",
                         settings=LeagueSettings(min_reliability=0.8))
    await league_game(tables, leagues, 1, [ALICE, BOB], winner=ALICE, forfeit=BOB)
    await leagues.join(GUILD, ALICE, "Serious")
    with pytest.raises(TableError, match="reliability of 80%; yours is 75%"):
        await leagues.join(GUILD, BOB, "Serious")


async def test_a_round_forms_tables_and_the_next_avoids_repeats(tables: Tables,
                                                                leagues: Leagues) -> None:
    people = [Member(200 + i, f"P{i}") for i in range(7)]
    for p in people:
        await leagues.join(GUILD, p, "Cup")
    rounds = Rounds(leagues, tables)
    with pytest.raises(TableError, match="server manager"):
        await rounds.plan(GUILD, people[0], "Cup")
    plan = await rounds.plan(GUILD, ADMIN, "Cup")
    assert [len(t) for t in plan.tables] == [4, 3] and plan.sitting_out == []
    notices = [await rounds.open_table(plan, i, 1000 + i, GUILD) for i in range(2)]
    assert all(n.status == "playing" for n in notices)
    for notice, members in zip(notices, plan.tables, strict=True):
        await play_to_end(tables, notice, members, members[-1])
        await leagues.recorder.record(notice.table_id)
    first = [{m.id for m in t} for t in plan.tables]
    again = await rounds.plan(GUILD, ADMIN, "Cup")
    assert again.round.number == 2
    pairs_then = {frozenset((a, b)) for t in first for a in t for b in t if a < b}
    pairs_now = {frozenset((a.id, b.id)) for t in again.tables for a in t for b in t
                 if a.id < b.id}
    # Seven players at 4 + 3 seats again: three pairs must meet again (two at the table of
    # four, one at the table of three), and no more do.
    assert len(pairs_then & pairs_now) == 3
    changes = {x.name: x.change for x in (await leagues.standings(GUILD, "Cup")).lines}
    assert set(changes.values()) == {0.0}  # nothing played since round 2 formed


async def test_results_and_csv_list_finished_tables(tables: Tables, leagues: Leagues) -> None:
    await league_game(tables, leagues, 1, [ALICE, ERIN], winner=ERIN)
    await league_game(tables, leagues, 2, [BOB, ALICE], winner=ALICE, forfeit=BOB)
    _, results = await leagues.results(GUILD, "Cup")
    assert [channel for _, channel in results] == [2, 1]
    _, text = await leagues.export(GUILD, "Cup")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["result"], r["place"], r["name"], r["forfeited"]) for r in rows] == [
        ("1", "1", "'=Erin", "0"), ("1", "2", "Alice", "0"),
        ("2", "1", "Alice", "0"), ("2", "2", "Bob", "1")]


async def test_results_missed_by_a_crash_are_caught_up(tables: Tables,
                                                       leagues: Leagues) -> None:
    opened = await sanctioned(tables, leagues, 1, ALICE, options={"turns": 1})
    await tables.join(opened.table_id, BOB)
    notice = await tables.start(opened.table_id, ALICE)
    await play_to_end(tables, notice, [ALICE, BOB], ALICE)
    # A process whose shards do not hold the server leaves it to the one that does.
    assert await leagues.recorder.catch_up(lambda guild: guild != GUILD) == 0
    assert await leagues.recorder.catch_up(lambda guild: guild == GUILD) == 1
    assert await leagues.recorder.catch_up() == 0
    assert len(await leagues.store.league_results()) == 1


async def test_a_league_table_must_play_the_leagues_game(tables: Tables,
                                                         leagues: Leagues) -> None:
    await leagues.create(GUILD, ADMIN, "Pal", "palatinus")
    with pytest.raises(TableError, match="plays Palatinus"):
        await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Pal")
    with pytest.raises(TableError, match="no league of that name"):
        await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Nope")


async def test_the_rebuild_command_replays_the_stored_results(
    tables: Tables, leagues: Leagues, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], store_target: str,
) -> None:
    await league_game(tables, leagues, 1, [ALICE, BOB], winner=BOB)
    before = await tables.store.all_ratings()
    monkeypatch.setenv("TABULA_DB", store_target)
    assert main(["nonsense"]) == 2
    assert await asyncio.to_thread(main, ["rebuild"]) == 0
    assert "from 1 results" in capsys.readouterr().out
    assert await tables.store.all_ratings() == before


async def test_a_league_game_is_recorded_as_its_last_move_commits(tables: Tables,
                                                                  leagues: Leagues) -> None:
    """The table use cases tell the league of a game's end themselves (``Live.on_over``):
    nothing has to deliver the final board first."""
    tables.live.on_over = leagues.recorder.record
    opened = await sanctioned(tables, leagues, 900, ALICE, options={"turns": 2}, seed="hook")
    await tables.join(opened.table_id, BOB)
    notice = await tables.start(opened.table_id, ALICE)
    assert await tables.store.league_results() == []
    await play_to_end(tables, notice, [ALICE, BOB], winner=BOB)
    (result,) = await tables.store.league_results()
    assert result.table_id == opened.table_id
    assert await leagues.recorder.record(opened.table_id) is None  # already stored
