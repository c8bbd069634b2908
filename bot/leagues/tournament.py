"""Tournament standings beside the rating table: points per place, byes, and tie-breaks.

Points: a table's places score the league's points list (``'3,1,0'``: 3 for first, 1 for
second, 0 after), or by default from 1 for first to 0 for last, evenly (1/½/0 at three seats,
1/0 at two). Seats tied on the board share the points of the places they cover (a draw of two
is ½ each by default); computer seats take places like anyone; a forfeit scores 0. A member
paired in no table of a round (sitting out) has a bye: the average points of a place.
Voided results count for nothing.

Tie-breaks, adapted to tables of more than two: Buchholz sums, over a member's games, the mean
total points of their opponents at that table; Sonneborn-Berger sums, over the games, the
points the member scored there times that mean. Then the rating, then the name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.store import LeagueResult


@dataclass(frozen=True)
class PointsLine:
    rank: int
    member_id: int
    name: str
    points: float
    games: int
    byes: int
    buchholz: float
    sonneborn: float
    rating: float


def parse_points(text: str | None) -> tuple[float, ...] | None:
    """``'3,1,0'`` as numbers (ValueError when it is not a list of numbers from 0 to 100)."""
    if text is None or not text.strip():
        return None
    values = tuple(float(part) for part in text.replace(" ", "").split(","))
    if not values or len(values) > 6 or any(not 0 <= v <= 100 for v in values):
        raise ValueError("points")
    return values


def place_points(place_list: tuple[float, ...] | None, seats: int, position: int) -> float:
    """Points for the ``position``-th place (from 1) at a table of ``seats``."""
    if place_list is not None:
        return place_list[position - 1] if position <= len(place_list) else 0.0
    return 1.0 if seats < 2 else (seats - position) / (seats - 1)


def table_points(result: LeagueResult, place_list: tuple[float, ...] | None
                 ) -> dict[int, float]:
    """Each member's points at one table (members only; computers take places)."""
    seats = len(result.places)
    out: dict[int, float] = {}
    for p in result.places:
        if p.member_id is None:
            continue
        if p.forfeited:
            out[p.member_id] = 0.0
            continue
        tied = sum(1 for q in result.places if q.place == p.place and not q.forfeited)
        covered = range(p.place, p.place + tied)
        out[p.member_id] = sum(place_points(place_list, seats, k) for k in covered) / tied
    return out


def bye_points(place_list: tuple[float, ...] | None, seats: int) -> float:
    return sum(place_points(place_list, seats, k) for k in range(1, seats + 1)) / seats


def points_lines(results: Iterable[LeagueResult], byes: Mapping[int, int],
                 names: Mapping[int, str], ratings: Mapping[int, float],
                 place_list: tuple[float, ...] | None, table_size: int) -> list[PointsLine]:
    """Everyone in ``names`` by points, Buchholz, Sonneborn-Berger, rating, then name.
    ``byes`` counts each member's byes."""
    counted = [r for r in results if r.voided is None]
    games: list[dict[int, float]] = [table_points(r, place_list) for r in counted]
    bye = bye_points(place_list, table_size)
    total: dict[int, float] = {m: byes.get(m, 0) * bye for m in names}
    played: dict[int, int] = dict.fromkeys(names, 0)
    for scored in games:
        for member, points in scored.items():
            total[member] = total.get(member, 0.0) + points
            played[member] = played.get(member, 0) + 1
    buchholz: dict[int, float] = dict.fromkeys(total, 0.0)
    sonneborn: dict[int, float] = dict.fromkeys(total, 0.0)
    for scored in games:
        for member, points in scored.items():
            others = [total[o] for o in scored if o != member]
            mean = sum(others) / len(others) if others else 0.0
            buchholz[member] += mean
            sonneborn[member] += points * mean
    rows = sorted(names, key=lambda m: (-round(total.get(m, 0.0), 9),
                                        -round(buchholz.get(m, 0.0), 9),
                                        -round(sonneborn.get(m, 0.0), 9),
                                        -round(ratings.get(m, 0.0), 9), names[m].lower(), m))
    return [PointsLine(i, m, names[m], total.get(m, 0.0), played.get(m, 0), byes.get(m, 0),
                       buchholz.get(m, 0.0), sonneborn.get(m, 0.0), ratings.get(m, 0.0))
            for i, m in enumerate(rows, start=1)]


def byes_of(rounds: Sequence[tuple[Iterable[int], Iterable[int]]]) -> dict[int, int]:
    """Byes from each round's (members it was formed from, members seated at its tables)."""
    out: dict[int, int] = {}
    for formed, seated in rounds:
        for member in set(formed) - set(seated):
            out[member] = out.get(member, 0) + 1
    return out
