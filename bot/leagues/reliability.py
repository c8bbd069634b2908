"""How reliably a member finishes the games they start, separate from how well they play.

Finished and forfeited games count with a weight that halves every ``HALF_LIFE_DAYS``, so an old
miss fades; a few imaginary finished games (``PRIOR_GAMES``) keep one missed weekend from
sinking a newcomer. A member with no games is fully reliable.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

HALF_LIFE_DAYS = 60.0
PRIOR_GAMES = 3.0


def reliability(games: Iterable[tuple[datetime, bool]], now: datetime) -> float:
    """From 0 to 1: the weighted share of games finished. ``games`` holds (when it ended,
    whether the member forfeited it)."""
    finished = total = PRIOR_GAMES
    for when, forfeited in games:
        age_days = max(0.0, (now - when).total_seconds() / 86_400)
        weight = 0.5 ** (age_days / HALF_LIFE_DAYS)
        total += weight
        if not forfeited:
            finished += weight
    return finished / total


def percent(value: float) -> str:
    return f"{round(value * 100)}%"
