"""Elo ratings from finished multi-player games (each game counted as every pair's match)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

START = 1500.0
K = 32.0


@dataclass
class Standing:
    rating: float = START
    games: int = 0
    wins: int = 0


def rate(games: Sequence[Sequence[Sequence[P]]]) -> dict[P, Standing]:
    """Ratings after ``games`` in order; each game is its ranking: groups of players, best
    first, tied players sharing a group. A game splits K over the pairs a player meets, so a
    five-player game moves a rating about as much as a two-player one."""
    table: dict[P, Standing] = {}
    for ranking in games:
        place = {p: i for i, group in enumerate(ranking) for p in group}
        players = list(place)
        if len(players) < 2:
            continue
        before = {p: table.setdefault(p, Standing()).rating for p in players}
        for p in players:
            delta = 0.0
            for q in players:
                if q == p:
                    continue
                expected = 1 / (1 + 10 ** ((before[q] - before[p]) / 400))
                score = 1.0 if place[p] < place[q] else 0.5 if place[p] == place[q] else 0.0
                delta += score - expected
            standing = table[p]
            standing.rating += K * delta / (len(players) - 1)
            standing.games += 1
            standing.wins += int(place[p] == 0)
    return table
