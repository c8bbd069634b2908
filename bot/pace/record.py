"""A member's reliability outside leagues (as Board Game Arena's karma): games finished,
games abandoned (their seat went absent, the table voted them out, or they abandoned it) and
deadlines missed. Forgiving by design: each event's weight halves every ``HALF_LIFE_DAYS``
(the leagues' half-life), a few imaginary finished games (``PRIOR_GAMES``) keep one missed
weekend from marking a newcomer, and a missed deadline weighs a quarter of an abandoned game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.leagues.reliability import HALF_LIFE_DAYS, PRIOR_GAMES, percent
from rules.words import counted

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
