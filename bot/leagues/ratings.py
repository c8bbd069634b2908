"""Skill ratings from finishing ranks, through ``openskill``'s Plackett–Luce model.

A rating is a belief about skill: ``mu`` (the estimate) and ``sigma`` (how unsure it is). What a
player sees is the conservative estimate ``mu - 3 * sigma``, which starts at 0 and rises as the
rating both improves and firms up. Ties share a rank. Every player is a team of one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from openskill.models import PlackettLuce

from bot.store.records import RATING_MU as MU
from bot.store.records import RATING_SIGMA as SIGMA
from bot.store.records import LeagueRating as Rating

PROVISIONAL_GAMES = 5  # fewer rated games than this: the rating is shown as provisional

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

K = TypeVar("K")

__all__ = ["MU", "PROVISIONAL_GAMES", "SIGMA", "Rating", "carried", "provisional", "rate"]


def provisional(rating: Rating) -> bool:
    return rating.games < PROVISIONAL_GAMES


def carried(rating: Rating | None, share: float) -> Rating:
    """A new season's starting rating: ``share`` of the way from the default to ``rating``
    (0 starts afresh, 1 carries everything over). Counts start at zero."""
    if rating is None or share <= 0:
        return Rating()
    share = min(share, 1.0)
    return Rating(mu=MU + share * (rating.mu - MU), sigma=SIGMA + share * (rating.sigma - SIGMA))


def rate(
    ratings: Mapping[K, Rating],
    ranking: Sequence[Sequence[K]],
    forfeited: frozenset[K] = frozenset(),
    winners: frozenset[K] | None = None,
) -> dict[K, Rating]:
    """The players' ratings after one game.

    ``ranking`` lists groups of players best first; players in one group tied. Players missing
    from ``ratings`` start at the default. Fewer than two players: nothing changes (a solo game
    is not rated). ``forfeited`` players are counted as forfeits (the caller ranks them last).
    ``winners`` count a win (default: the first group); the caller leaves out a member who
    finished behind a computer seat, which is no win.
    """
    players = [p for group in ranking for p in group]
    if len(players) < 2:
        return {}
    before = [ratings.get(p) or Rating() for p in players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    ranks = [float(place) for place, group in enumerate(ranking) for _ in group]
    after = _MODEL.rate(teams, ranks=ranks)
    if winners is None:
        winners = frozenset(ranking[0])
    out: dict[K, Rating] = {}
    for player, old, team in zip(players, before, after, strict=True):
        new = team[0]
        out[player] = replace(
            old, mu=float(new.mu), sigma=float(new.sigma), games=old.games + 1,
            wins=old.wins + int(player in winners and player not in forfeited),
            forfeits=old.forfeits + int(player in forfeited),
        )
    return out
