"""The one source of time: a real clock for the bot, a fake one tests move by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """Stands still until told to move, so a week of play takes no real time."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2025, 1, 6, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | float) -> datetime:
        step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        if step < timedelta(0):
            raise ValueError("a clock does not go back")
        self._now += step
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when


def epoch(clock: Clock) -> int:
    """Whole seconds since 1970: what the store keeps and Discord timestamps show."""
    return int(clock.now().timestamp())
