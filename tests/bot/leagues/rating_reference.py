"""League ratings recomputed from the stored results with ``openskill`` directly (DESIGN:
Plackett-Luce, one rating per member per game per server and per season; computer seats and
solo games not rated; ``docs/leagues.md``: a void no longer counts, a forfeit is counted and
is no win), without ``bot.leagues``' results or ratings code, to compare with the stored
ratings."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store.records import LeagueRating, LeagueResult

MU = 25.0
SIGMA = MU / 3
MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

Key = tuple[str, int]


@dataclass
class Rated:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    forfeits: int = 0


def ratings(results: Iterable[LeagueResult], carries: Mapping[int, float]) -> dict[Key, Rated]:
    """Every rating after ``results``, in the order they were recorded."""
    book: dict[Key, Rated] = {}
    for result in results:
        if result.voided is not None:
            continue
        # (member, place, forfeited) of every member's seat, best first.
        places = sorted(((p.member_id, p.place, p.forfeited, p.seat) for p in result.places
                         if p.member_id is not None), key=lambda p: (p[1], p[3]))
        if len({m for m, *_ in places}) < 2:
            continue
        game = f"game:{result.guild_id}:{result.game_id}"
        scopes = [game]
        if result.season_id is not None:
            season = f"season:{result.season_id}"
            share = min(1.0, carries.get(result.season_id, 0.0))
            for member, *_ in places:
                if (season, member) not in book:
                    # A first game of the season starts ``share`` of the way from the default
                    # to the all-time rating as it stands before this game.
                    start = book.get((game, member))
                    book[(season, member)] = Rated() if start is None or share <= 0 \
                        else Rated(MU + share * (start.mu - MU),
                                   SIGMA + share * (start.sigma - SIGMA))
            scopes.append(season)
        for scope in scopes:
            before = [book.get((scope, member)) or Rated() for member, *_ in places]
            after = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before],
                               ranks=[float(place) for _, place, _, _ in places])
            for (member, place, forfeited, _), old, team in zip(places, before, after,
                                                                strict=True):
                book[(scope, member)] = Rated(
                    float(team[0].mu), float(team[0].sigma), old.games + 1,
                    old.wins + int(place == 1 and not forfeited),
                    old.forfeits + int(forfeited))
    return book


def differences(stored: Mapping[Key, LeagueRating], expected: Mapping[Key, Rated]
                ) -> list[tuple[Key, LeagueRating | None, Rated | None]]:
    """Where the stored ratings are not the recomputed ones (floats to 1e-9)."""
    out: list[tuple[Key, LeagueRating | None, Rated | None]] = []
    for key in sorted(set(stored) | set(expected)):
        got, want = stored.get(key), expected.get(key)
        if got is None or want is None or not (
                math.isclose(got.mu, want.mu, abs_tol=1e-9)
                and math.isclose(got.sigma, want.sigma, abs_tol=1e-9)
                and (got.games, got.wins, got.forfeits) == (want.games, want.wins,
                                                             want.forfeits)):
            out.append((key, got, want))
    return out
