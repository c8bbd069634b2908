"""A table's pace (how long a move may take) and its out-of-time policy.

Paces: ``none`` (no limit), the presets ``fast`` (1 h per move), ``daily`` (24 h) and
``relaxed`` (72 h), and ``custom`` with 1 minute to 14 days, either as a fixed deadline per
move or as a time bank per player (initial bank, increment per move, cap).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bot.tables.computers import DEFAULT_LEVEL, check_level
from bot.values import TableError
from rules.words import counted

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
MIN_PERIOD = MINUTE
MAX_PERIOD = 14 * DAY


class Mode(StrEnum):
    NONE = "none"  # no limit: only members' own reminder intervals apply
    DEADLINE = "deadline"  # a fixed time per move
    BANK = "bank"  # a time bank per seat, refilled per move


class Policy(StrEnum):
    AUTOPILOT = "autopilot"  # the computer plays the seat's move at the table's level
    SKIP = "skip"  # pass, where the game has a legal pass (else the computer plays)
    VOTE = "vote"  # the other members vote: remove, wait another period, or substitute
    WAIT = "wait"  # say so once, and keep waiting


PRESETS: dict[str, int] = {"fast": HOUR, "daily": DAY, "relaxed": 3 * DAY}


@dataclass(frozen=True)
class Timing:
    """Everything about time a table decides once, before it starts."""

    mode: Mode = Mode.NONE
    period: int = 0  # seconds per move (deadline), or the initial bank (bank)
    increment: int = 0  # bank: seconds added after each move
    cap: int = 0  # bank: the most a bank can hold
    policy: Policy = Policy.AUTOPILOT
    level: str = DEFAULT_LEVEL  # the computer level of the autopilot
    absent_after: int = 3  # consecutive autopilot moves before a seat is marked absent
    quiet_push: bool = True  # a deadline inside its member's quiet hours moves past their end
    holiday_days: int = 7  # days off each member may take at this table
    min_reliability: int = 0  # percent a member's reliability record needs to join

    @property
    def timed(self) -> bool:
        return self.mode is not Mode.NONE

    def describe(self) -> str:
        if self.mode is Mode.NONE:
            pace = "no time limit"
        elif self.mode is Mode.DEADLINE:
            pace = f"{span(self.period)} per move"
        else:
            pace = (f"time bank of {span(self.period)}, +{span(self.increment)} per move, "
                    f"at most {span(self.cap)}")
        needs = (f" Players need a reliability of {self.min_reliability}% to join."
                 if self.min_reliability else "")
        if not self.timed:
            return f"Pace: {pace}.{needs}"
        computer = f"the computer (level {self.level})"
        what = {
            Policy.AUTOPILOT: f"`autopilot`: {computer} plays the move; after "
                              f"{self.absent_after} in a row the seat counts as absent",
            Policy.SKIP: f"`skip`: the seat passes where the game allows it, else {computer} "
                         f"plays; after {self.absent_after} in a row the seat counts as absent "
                         "and the computer plays its moves",
            Policy.VOTE: "`vote`: the other players vote to remove the seat (then "
                         f"{computer} plays it), wait another period or find a substitute; "
                         "on a tie or without votes the computer plays that move",
            Policy.WAIT: "`wait`: the table says so and waits",
        }[self.policy]
        quiet = ("Deadlines move out of each player's quiet hours" if self.quiet_push
                 else "Quiet hours do not move deadlines here")
        return (f"Pace: {pace}. Out of time: {what}. {quiet}; holidays are covered up to "
                f"{self.holiday_days} days per player.{needs}")


def span(seconds: int) -> str:
    """A duration as people say it: 90 -> "1 min 30 s", 86400 -> "1 day"."""
    parts = []
    for unit, size in (("day", DAY), ("h", HOUR), ("min", MINUTE), ("s", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(counted(count, unit) if unit == "day" else f"{count} {unit}")
    return " ".join(parts[:2]) or "0 s"


_DURATION = re.compile(r"(\d+)\s*(d|h|m|min|s)?", re.IGNORECASE)
_UNITS = {"d": DAY, "h": HOUR, "m": MINUTE, "min": MINUTE, "s": 1, None: MINUTE}


def parse_duration(text: str) -> int:
    """"90m", "1h30m", "2d", "45" (minutes) -> seconds."""
    text = text.strip().lower().replace(" ", "")
    if not text or _DURATION.sub("", text):
        raise TableError(f"Write a duration like `90m`, `6h` or `2d`, not {text[:20]!r}.")
    return sum(int(n) * _UNITS[u or None] for n, u in _DURATION.findall(text))


def _period(seconds: int, what: str) -> int:
    if not MIN_PERIOD <= seconds <= MAX_PERIOD:
        raise TableError(f"The {what} must be between 1 minute and 14 days.")
    return seconds


def make_timing(
    pace: str = "none",
    *,
    duration: str | None = None,
    bank: bool = False,
    increment: str | None = None,
    cap: str | None = None,
    policy: str = "autopilot",
    level: str = DEFAULT_LEVEL,
    absent_after: int = 3,
    quiet_hours: bool = True,
    min_reliability: int = 0,
) -> Timing:
    """A table's timing from the options of ``/game new`` (refused with a clear message)."""
    pace = pace.lower()
    if pace == "none" and (duration or increment or cap or bank):
        raise TableError("`pace:none` has no time limit: a duration, bank, increment or cap "
                         "needs a pace (`fast`, `daily`, `relaxed` or `custom`).")
    if pace in PRESETS and duration:
        raise TableError(f"`pace:{pace}` has its own time per move; a duration goes with "
                         "`pace:custom`.")
    if pace == "none":
        period = 0
    elif pace in PRESETS:
        period = PRESETS[pace]
    elif pace == "custom":
        if duration is None:
            raise TableError("A custom pace needs a duration, e.g. `duration:90m`.")
        period = _period(parse_duration(duration), "duration")
    else:
        raise TableError("Pace is `none`, `fast`, `daily`, `relaxed` or `custom`.")
    try:
        chosen = Policy(policy.lower())
    except ValueError:
        raise TableError("Out-of-time policy is `autopilot`, `skip`, `vote` or `wait`.") from None
    level = check_level(level)
    if not 1 <= absent_after <= 20:
        raise TableError("A seat counts as absent after 1 to 20 autopilot moves.")
    if not 0 <= min_reliability <= 100:
        raise TableError("A minimum reliability is 0 to 100 (percent).")
    timing = Timing(policy=chosen, level=level, absent_after=absent_after,
                    quiet_push=quiet_hours, min_reliability=min_reliability)
    if period == 0:
        return timing
    if not bank:
        return replace(timing, mode=Mode.DEADLINE, period=period)
    inc = _period(parse_duration(increment), "increment") if increment else period // 4
    top = _period(parse_duration(cap), "cap") if cap else 2 * period
    if top < period:
        raise TableError("A bank's cap cannot be below its initial time.")
    return replace(timing, mode=Mode.BANK, period=period, increment=inc, cap=top)


def reminder_lead(period: int) -> int:
    """How long before a deadline its one reminder goes: scaled to the time a move has."""
    if period <= HOUR:
        return 15 * MINUTE
    if period <= DAY:
        return HOUR
    if period <= 4 * DAY:
        return 2 * HOUR
    return 4 * HOUR


def timing_of(data: dict[str, Any] | None) -> Timing:
    if not data:
        return Timing()
    return Timing(**{**data, "mode": Mode(data["mode"]), "policy": Policy(data["policy"])})
