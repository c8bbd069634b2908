"""A finished league game's result, and the ratings it moves.

A result is written once, when the game is over, and never changes: standings and rebuilds read
results, not game snapshots. Each result moves two ratings per member: the all-time one for the
server and game, and the one of the league season it was played in (when there is a season).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from bot.leagues.ratings import Rating, carried, rate
from bot.store.records import LeaguePlace, LeagueResult

Key = tuple[str, int]  # (scope, member id)


Place = LeaguePlace
Result = LeagueResult


def members(result: Result) -> list[int]:
    return [p.member_id for p in result.places if p.member_id is not None]


def is_rated(result: Result) -> bool:
    """Two members or more: computer seats and solo games are never rated."""
    return len(set(members(result))) >= 2


def ranking(result: Result) -> list[list[int]]:
    """Members grouped by place, best first (computer seats left out)."""
    groups: dict[int, list[int]] = {}
    for p in sorted(result.places, key=lambda p: (p.place, p.seat)):
        if p.member_id is not None:
            groups.setdefault(p.place, []).append(p.member_id)
    return [groups[k] for k in sorted(groups)]


def winners(result: Result) -> frozenset[int]:
    """Members in first place at the table: one behind a computer seat has not won."""
    return frozenset(p.member_id for p in result.places
                     if p.place == 1 and not p.forfeited and p.member_id is not None)


def forfeiters(result: Result) -> frozenset[int]:
    return frozenset(p.member_id for p in result.places if p.forfeited and p.member_id)


def all_time(guild_id: int, game_id: str) -> str:
    return f"game:{guild_id}:{game_id}"


def season_scope(season_id: int) -> str:
    return f"season:{season_id}"


def places_from(
    order: Sequence[Iterable[int]],
    seats: Mapping[int, tuple[int | None, str]],
    forfeits: Mapping[int, tuple[int, str]],
    scores: Sequence[float] = (),
) -> tuple[Place, ...]:
    """Places from the engine's ranking (groups of seats, best first).

    ``seats`` maps seat -> (member id or None for a computer, name); ``forfeits`` maps a
    forfeited seat -> (member, name) of who forfeited it (the seat may since be played by the
    computer). Forfeited seats finish last, tied, whatever the board says. ``scores`` are
    the seats' in-game scores, when the game ended on the board.
    """

    def score(seat: int) -> float | None:
        return float(scores[seat]) if seat < len(scores) else None

    places: list[Place] = []
    next_place = 1
    for group in order:
        kept = [s for s in group if s not in forfeits]
        for seat in kept:
            member, name = seats[seat]
            places.append(Place(seat, member, name, next_place, score=score(seat)))
        next_place += len(kept)
    for seat in sorted(forfeits):
        member, name = forfeits[seat]
        places.append(Place(seat, member, name, next_place, forfeited=True,
                            score=score(seat)))
    return tuple(places)


def keys(result: Result) -> list[Key]:
    """The ratings ``apply`` reads for ``result``."""
    scopes = [all_time(result.guild_id, result.game_id)]
    if result.season_id is not None:
        scopes.append(season_scope(result.season_id))
    return [(scope, m) for scope in scopes for m in members(result)]


def placed_at(places: Sequence[Place], member_id: int, place: int) -> tuple[Place, ...]:
    """The places with ``member_id`` moved to finish ``place`` (from 1) on their own, the
    others keeping their order and ties; their forfeit, if any, is lifted."""
    moved = next(p for p in places if p.member_id == member_id)
    groups: dict[int, list[Place]] = {}
    for p in sorted(places, key=lambda p: (p.place, p.seat)):
        if p is not moved:
            groups.setdefault(p.place, []).append(p)
    order = [groups[k] for k in sorted(groups)]
    at, count = 0, 0
    while at < len(order) and count + len(order[at]) < place:
        count += len(order[at])
        at += 1
    order.insert(at, [replace(moved, forfeited=False)])
    out: list[Place] = []
    next_place = 1
    for group in order:
        out += [replace(p, place=next_place) for p in group]
        next_place += len(group)
    return tuple(sorted(out, key=lambda p: p.seat))


def apply(book: Mapping[Key, Rating], result: Result, carry: float = 0.0) -> dict[Key, Rating]:
    """The ratings ``result`` changes, given the ratings before it (``book``).

    A member's first game of a season starts from ``carry`` times their all-time rating
    (as it stood just before this game). A voided result changes nothing.
    """
    if not is_rated(result) or result.voided is not None:
        return {}
    order, forfeited, won = ranking(result), forfeiters(result), winners(result)
    players = [m for group in order for m in group]
    scope = all_time(result.guild_id, result.game_id)
    changes = {(scope, m): r for m, r in
               rate({m: book[(scope, m)] for m in players if (scope, m) in book},
                    order, forfeited, won).items()}
    if result.season_id is not None:
        season = season_scope(result.season_id)
        start = {m: book.get((season, m)) or carried(book.get((scope, m)), carry)
                 for m in players}
        changes.update({(season, m): r
                        for m, r in rate(start, order, forfeited, won).items()})
    return changes


def replay(results: Iterable[Result], carry_of: Mapping[int, float]) -> dict[Key, Rating]:
    """Every rating from the results alone, in the order they were recorded."""
    book: dict[Key, Rating] = {}
    for result in results:
        carry = carry_of.get(result.season_id, 0.0) if result.season_id is not None else 0.0
        book.update(apply(book, result, carry))
    return book
