"""How reliably a member finishes the games they start, separate from how well they play: the
one reliability figure, shown by ``/profile`` and asked for by tables and leagues alike.

Its events: games finished, games abandoned (a seat gone absent for good, voted out, left by
``/game abandon``, or a league game forfeited) and deadlines missed. Forgiving by design: each
event's weight halves every ``HALF_LIFE_DAYS``, so an old miss fades; a few imaginary finished
games (``PRIOR_GAMES``) keep one missed weekend from sinking a newcomer; a missed deadline
weighs a quarter of an abandoned game. A member with no games is fully reliable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from rules.words import counted

HALF_LIFE_DAYS = 60.0
PRIOR_GAMES = 3.0
MISSED_WEIGHT = 0.25
KINDS = ("finished", "abandoned", "missed")


@dataclass(frozen=True)
class Record:
    finished: int
    abandoned: int
    missed: int
    score: float  # 0..1, decayed

    def describe(self, name: str) -> str:
        return (f"{name}: reliability {percent(self.score)} · "
                f"{counted(self.finished, 'game')} finished, {self.abandoned} abandoned, "
                f"{counted(self.missed, 'deadline')} missed.\n"
                f"Old misses fade (their weight halves every {HALF_LIFE_DAYS:.0f} days).")


def record_of(events: Iterable[tuple[str, int]], now: int) -> Record:
    """The figure from (kind, when in epoch seconds) events: the weighted share of games
    finished, a missed deadline counting as a quarter of a game not finished."""
    counts = dict.fromkeys(KINDS, 0)
    good = total = PRIOR_GAMES
    for kind, at in events:
        counts[kind] += 1
        weight = 0.5 ** (max(0, now - at) / 86_400 / HALF_LIFE_DAYS)
        if kind == "finished":
            good += weight
            total += weight
        else:
            total += weight * (MISSED_WEIGHT if kind == "missed" else 1.0)
    return Record(counts["finished"], counts["abandoned"], counts["missed"], good / total)


def member_events(table_events: Iterable[tuple[int, str, int]],
                  league_games: Iterable[tuple[int, str, bool]]) -> list[tuple[str, int]]:
    """A member's events from their tables' record (table, kind, when) and their league games
    (table, finished at, forfeited): a league game counts once, as its result says."""
    out: list[tuple[str, int]] = []
    league = set()
    for table_id, when, forfeited in league_games:
        league.add(table_id)
        out.append(("abandoned" if forfeited else "finished",
                    int(datetime.fromisoformat(when).timestamp())))
    out += [(kind, at) for table_id, kind, at in table_events
            if kind == "missed" or table_id not in league]
    return out


def reliability(games: Iterable[tuple[datetime, bool]], now: datetime) -> float:
    """The figure from league games alone: (when it ended, whether the member forfeited)."""
    return record_of((("abandoned" if forfeited else "finished", int(when.timestamp()))
                      for when, forfeited in games), int(now.timestamp())).score


def percent(value: float) -> str:
    return f"{round(value * 100)}%"
