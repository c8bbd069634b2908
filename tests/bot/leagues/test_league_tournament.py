"""Tournament points beside the ratings: points per place (shared by ties), byes, Buchholz and
Sonneborn-Berger at tables of more than two, then rating; and the CSV's rating moves."""

from __future__ import annotations

import csv
import io

import pytest

from bot.leagues.report import rating_moves, results_csv
from bot.leagues.results import replay
from bot.leagues.tournament import (
    byes_of,
    parse_points,
    points_lines,
    table_points,
)
from bot.store import LeaguePlace, LeagueResult


def result(rid: int, *places: tuple[int | None, int, bool], voided: str | None = None
           ) -> LeagueResult:
    """Members (None: a computer) with their place and whether they forfeited."""
    return LeagueResult(
        league_id=1, guild_id=1, game_id="pebbles", table_id=rid, finished_at="2025-01-01",
        places=tuple(LeaguePlace(seat, m, f"m{m}", place, forfeited, score=float(10 - seat))
                     for seat, (m, place, forfeited) in enumerate(places)),
        id=rid, voided=voided)


def test_points_per_place_shared_by_ties_and_zero_for_a_forfeit() -> None:
    # Default: 1 for first to 0 for last, evenly; a draw of two is a half each.
    assert table_points(result(1, (1, 1, False), (2, 1, False)), None) == {1: 0.5, 2: 0.5}
    assert table_points(result(2, (1, 1, False), (2, 2, False), (3, 3, False)), None) == {
        1: 1.0, 2: 0.5, 3: 0.0}
    # Computers take places; a forfeit scores nothing.
    assert table_points(result(3, (None, 1, False), (1, 2, False), (2, 3, True)), None) == {
        1: 0.5, 2: 0.0}
    # Configured points: two tied for first share 3 and 1.
    three = parse_points("3, 1, 0")
    assert table_points(result(4, (1, 1, False), (2, 1, False), (3, 3, False)), three) == {
        1: 2.0, 2: 2.0, 3: 0.0}
    for bad in ("3,x", "3,-1", "1,2,3,4,5,6,7"):
        with pytest.raises(ValueError):
            parse_points(bad)


def test_equal_points_are_ordered_by_buchholz_then_sonneborn_berger_then_rating() -> None:
    names = {m: f"m{m}" for m in (1, 2, 3, 4, 5)}
    games = [
        result(1, (1, 1, False), (2, 2, False), (3, 3, False)),  # 1: 1, 2: .5, 3: 0
        result(2, (4, 1, False), (5, 2, False)),                 # 4: 1, 5: 0
        result(3, (3, 1, False), (4, 2, False)),                 # 3: 1, 4: 0
        result(4, (5, 1, False), (1, 2, False), voided="wrong"),  # counts for nothing
    ]
    byes = byes_of([([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]), ([1, 2, 3, 4, 5], [3, 4])])
    assert byes == {1: 1, 2: 1, 5: 1}
    lines = points_lines(games, byes, names, {1: 1.0, 2: 2.0, 3: 3.0, 4: 4.0, 5: 5.0},
                         None, 2)
    by = {x.member_id: x for x in lines}
    # Totals: 1: 1 + .5 bye; 2: .5 + .5; 3: 0 + 1; 4: 1 + 0; 5: 0 + .5.
    assert [by[m].points for m in (1, 2, 3, 4, 5)] == [1.5, 1.0, 1.0, 1.0, 0.5]
    # Buchholz: the mean total of the opponents at each table, summed.
    assert by[3].buchholz == pytest.approx((1.5 + 1.0) / 2 + 1.0)
    assert by[2].buchholz == pytest.approx((1.5 + 1.0) / 2)
    assert by[4].buchholz == pytest.approx(0.5 + 1.0)
    assert by[4].sonneborn == pytest.approx(1 * 0.5)
    assert by[3].sonneborn == pytest.approx(0 * 1.25 + 1 * 1.0)
    assert [x.member_id for x in lines] == [1, 3, 4, 2, 5]


def test_the_csv_has_rating_moves_and_scores() -> None:
    games = [result(1, (1, 1, False), (2, 2, False)), result(2, (2, 1, False), (1, 2, True))]
    moves = rating_moves(games, {})
    book = replay(games, {})
    text = results_csv(games, {}, {}, moves)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["score"] for r in rows] == ["10.0", "9.0", "10.0", "9.0"]
    first = next(r for r in rows if r["result"] == "1" and r["member_id"] == "2")
    assert float(first["rating_before"]) == 0.0 and float(first["rating_after"]) < 0
    last = next(r for r in rows if r["result"] == "2" and r["member_id"] == "1")
    assert float(last["rating_before"]) == pytest.approx(
        float(next(r for r in rows if r["result"] == "1" and r["member_id"] == "1")
              ["rating_after"]), abs=1e-3)
    assert float(last["rating_after"]) == pytest.approx(
        book[("game:1:pebbles", 1)].shown, abs=1e-3)
