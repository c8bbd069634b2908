"""League ratings, results, reliability and pairing: pure functions, hand-checked cases."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from bot.leagues.pairing import Entrant, form_tables, split
from bot.leagues.ratings import MU, SIGMA, Rating, carried, provisional, rate
from bot.leagues.reliability import reliability
from bot.leagues.results import Place, Result, all_time, apply, places_from, replay

BETA, TAU, KAPPA = MU / 6, MU / 300, 0.0001


def reference(before: dict[str, Rating], ranking: list[list[str]]) -> dict[str, Rating]:
    """Plackett–Luce as written in Weng & Lin (2011), Algorithm 4, for one-player teams,
    straight from the paper's formulas: an independent check of the library's arithmetic."""
    rank = {p: i for i, group in enumerate(ranking) for p in group}
    players = list(rank)
    var = {p: before[p].sigma ** 2 + TAU ** 2 for p in players}
    c = math.sqrt(sum(var[p] + BETA ** 2 for p in players))
    e = {p: math.exp(before[p].mu / c) for p in players}
    big_c = {q: sum(e[s] for s in players if rank[s] >= rank[q]) for q in players}
    a = {q: sum(1 for s in players if rank[s] == rank[q]) for q in players}
    out = {}
    for i in players:
        omega = delta = 0.0
        for q in players:
            if rank[q] <= rank[i]:
                share = e[i] / big_c[q]
                omega += ((1.0 if q == i else 0.0) - share) / a[q]
                delta += share * (1 - share) / a[q]
        omega *= var[i] / c
        delta *= math.sqrt(var[i]) / c * var[i] / c ** 2
        sigma = math.sqrt(var[i]) * math.sqrt(max(1 - delta, KAPPA))
        out[i] = Rating(before[i].mu + omega, sigma)
    return out


def test_a_duel_from_the_defaults_moves_both_by_the_same_amount() -> None:
    after = rate({}, [["ann"], ["ben"]])
    # By hand: sigma^2 = (25/3)^2 + (25/300)^2, c^2 = 2 (sigma^2 + (25/6)^2), and the winner
    # gains sigma^2 / c * 1/2.
    var = SIGMA ** 2 + TAU ** 2
    gain = var / math.sqrt(2 * (var + BETA ** 2)) / 2
    assert after["ann"].mu == pytest.approx(MU + gain)
    assert after["ben"].mu == pytest.approx(MU - gain)
    assert after["ann"].sigma == after["ben"].sigma < SIGMA
    assert after["ann"].shown > after["ben"].shown
    assert (after["ann"].games, after["ann"].wins, after["ben"].wins) == (1, 1, 0)


def test_a_tie_between_equals_keeps_their_estimates_and_firms_them_up() -> None:
    after = rate({}, [["ann", "ben"]])
    assert after["ann"].mu == pytest.approx(MU) and after["ben"].mu == pytest.approx(MU)
    assert after["ann"].sigma < SIGMA
    assert after["ann"].wins == after["ben"].wins == 1  # a shared first place is a win


@pytest.mark.parametrize("ranking", [
    [["a"], ["b"]],
    [["a"], ["b"], ["c"]],
    [["a", "b"], ["c"]],
    [["a"], ["b", "c"], ["d"]],
    [["a"], ["b"], ["c"], ["d"], ["e"]],
    [["a", "b", "c"], ["d"], ["e", "f"]],
])
def test_ratings_follow_plackett_luce_for_two_to_six_players(ranking: list[list[str]]) -> None:
    players = [p for g in ranking for p in g]
    before = {p: Rating(MU + 2 * i - 3, SIGMA - i / 3, games=i) for i, p in enumerate(players)}
    after = rate(before, ranking)
    expected = reference(before, ranking)
    for p in players:
        assert after[p].mu == pytest.approx(expected[p].mu, abs=1e-9)
        assert after[p].sigma == pytest.approx(expected[p].sigma, abs=1e-9)
        assert after[p].games == before[p].games + 1
    # From equal ratings, a better place never ends lower. (Only without ties: in the
    # Plackett–Luce model a group tied for first, divided by its size, can gain less than a
    # lone second place.)
    if all(len(g) == 1 for g in ranking):
        fresh = rate({}, ranking)
        means = [fresh[g[0]].mu for g in ranking]
        assert means == sorted(means, reverse=True)


def test_a_solo_game_is_not_rated() -> None:
    assert rate({}, [["ann"]]) == {}


def test_a_forfeit_finishes_last_whatever_the_board_said() -> None:
    seats = {0: (1, "Ann"), 1: (2, "Ben"), 2: (None, "Computer 1"), 3: (3, "Cy")}
    # The board had Cy first, but Cy forfeited; the computer seat is ranked but not rated.
    places = places_from([[3], [0, 2], [1]], seats, {3: (3, "Cy")})
    assert [(p.seat, p.place, p.forfeited) for p in places] == [
        (0, 1, False), (2, 1, False), (1, 3, False), (3, 4, True)]
    result = Result(1, 9, "g", 5, "2025-01-01T00:00:00+00:00", places)
    book = apply({}, result)
    scope = all_time(9, "g")
    assert set(book) == {(scope, 1), (scope, 2), (scope, 3)}
    assert book[(scope, 1)].mu > book[(scope, 2)].mu > book[(scope, 3)].mu
    assert book[(scope, 3)].forfeits == 1 and book[(scope, 3)].wins == 0


def test_a_season_starts_from_a_share_of_the_all_time_rating() -> None:
    strong = Rating(35.0, 5.0, games=20)
    assert carried(strong, 0) == Rating()
    half = carried(strong, 0.5)
    assert half.mu == pytest.approx(30.0) and half.sigma == pytest.approx((SIGMA + 5) / 2)
    assert half.games == 0
    assert carried(strong, 1).mu == 35.0


def test_replaying_results_gives_what_applying_them_one_by_one_gave() -> None:
    def game(n: int, order: list[list[int]], season: int | None) -> Result:
        seats = {i: (m, f"M{m}") for i, m in enumerate(m for g in order for m in g)}
        seat_of = {m: i for i, m in seats.items() for m in [m[0]]}
        ranking = [[seat_of[m] for m in g] for g in order]
        return Result(1, 9, "g", n, "t", places_from(ranking, seats, {}), season_id=season)

    results = [game(1, [[1], [2], [3]], None), game(2, [[2, 3], [1]], 7),
               game(3, [[4], [1]], 7), game(4, [[1], [4], [2], [3]], 8)]
    book: dict[tuple[str, int], Rating] = {}
    carry = {7: 0.5, 8: 0.0}
    for r in results:
        book.update(apply(book, r, carry.get(r.season_id or 0, 0.0)))
    assert replay(results, carry) == book
    assert book[("season:7", 1)].games == 2


def test_provisional_below_five_games() -> None:
    assert provisional(Rating(games=4)) and not provisional(Rating(games=5))


NOW = datetime(2025, 6, 1, tzinfo=UTC)


def test_reliability_forgives_one_miss_and_lets_it_fade() -> None:
    assert reliability([], NOW) == 1.0
    fresh_miss = reliability([(NOW, True)], NOW)
    assert fresh_miss == pytest.approx(0.75)  # three imaginary finished games and one miss
    regular = [(NOW - timedelta(days=d), False) for d in range(1, 6)]
    one_miss = reliability([*regular, (NOW, True)], NOW)
    assert one_miss > 0.85
    old_miss = reliability([*regular, (NOW - timedelta(days=120), True)], NOW)
    assert old_miss > one_miss
    # The half-life: a miss 60 days ago weighs half a game.
    assert reliability([(NOW - timedelta(days=60), True)], NOW) == pytest.approx(3 / 3.5)
    serial = reliability([(NOW - timedelta(days=d), True) for d in range(6)], NOW)
    assert serial < 0.4


def test_tables_are_as_even_as_the_seat_counts_allow() -> None:
    assert split(7, 2, 4) == [4, 3]
    assert split(7, 3, 5) == [4, 3]
    assert split(8, 2, 5) == [4, 4]
    assert split(5, 3, 4) is None
    assert split(12, 2, 4) == [4, 4, 4]


def entrants(ratings: list[float]) -> list[Entrant]:
    return [Entrant(i + 1, r) for i, r in enumerate(ratings)]


def test_pairing_puts_similar_ratings_together() -> None:
    plan = form_tables(entrants([10, 1, 9, 2, 8, 3, 7, 4]), 2, 4, {})
    assert plan.tables == [[1, 3, 5, 7], [8, 6, 4, 2]]
    assert plan.computers == [0, 0] and plan.sitting_out == []


def test_pairing_avoids_repeat_meetings_where_it_can() -> None:
    players = entrants([10, 9, 8, 7])
    met = {frozenset((1, 2)): 1}
    plan = form_tables(players, 2, 2, met)
    assert [1, 2] not in map(sorted, plan.tables)
    assert sorted(m for t in plan.tables for m in t) == [1, 2, 3, 4]
    # A repeat in the top group moves the smallest step down the ratings.
    six = entrants([10, 9, 8, 7, 6, 5])
    plan = form_tables(six, 3, 3, {frozenset((1, 2)): 1})
    assert [sorted(t) for t in plan.tables] == [[1, 3, 4], [2, 5, 6]] or \
        [sorted(t) for t in plan.tables] == [[2, 3, 4], [1, 5, 6]]
    # Where every split repeats a meeting, the fewest repeats win.
    everyone = {frozenset((a, b)): 1 for a in range(1, 5) for b in range(a + 1, 5)}
    assert len(form_tables(players, 2, 2, everyone).tables) == 2


def test_short_tables_take_computers_only_when_allowed() -> None:
    five = entrants([5, 4, 3, 2, 1])
    without = form_tables(five, 3, 4, {})
    assert [len(t) for t in without.tables] == [4] and len(without.sitting_out) == 1
    assert without.sitting_out == [5]  # nobody played yet: the lowest rating sits out
    filled = form_tables(five, 3, 4, {}, computers=True)
    assert [len(t) for t in filled.tables] == [3, 2] and filled.computers == [0, 1]
    assert form_tables(entrants([1]), 2, 4, {}, computers=True).tables == []
    place = Place(0, 1, "x", 1)
    assert place.place == 1
