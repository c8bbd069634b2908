"""A server's defaults for asynchronous play, set by its managers with ``/server-settings``:
the pace and out-of-time rule a new table gets when ``/game new`` does not choose, whether
quiet hours move deadlines, and the role ``/game seek`` mentions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.pace.model import Timing, make_timing


@dataclass(frozen=True)
class ServerSettings:
    guild_id: int
    pace: str = "none"
    duration: str | None = None
    policy: str = "autopilot"
    quiet_hours: bool = True
    substitute_role: int | None = None

    @classmethod
    def of(cls, guild_id: int, stored: dict[str, Any] | None) -> ServerSettings:
        return cls(guild_id, **(stored or {}))

    def stored(self) -> dict[str, Any]:
        return {"pace": self.pace, "duration": self.duration, "policy": self.policy,
                "quiet_hours": self.quiet_hours, "substitute_role": self.substitute_role}

    def checked(self) -> ServerSettings:
        """Refused with a clear message unless a table could be opened with these."""
        self.timing()
        return self

    def timing(self) -> Timing:
        return make_timing(self.pace, duration=self.duration, policy=self.policy,
                           quiet_hours=self.quiet_hours)

    def new_table(self, pace: str | None, duration: str | None, bank: bool,
                  policy: str | None, level: str, quiet_hours: bool | None,
                  min_reliability: int = 0) -> Timing:
        """The timing of a table ``/game new`` opens: what it chose, else these defaults (a
        duration without a pace is a custom pace)."""
        if pace is None:
            pace, duration = ("custom", duration) if duration else (self.pace, self.duration)
        return make_timing(pace, duration=duration, bank=bank, policy=policy or self.policy,
                           level=level,
                           quiet_hours=self.quiet_hours if quiet_hours is None else quiet_hours,
                           min_reliability=min_reliability)

    def describe(self) -> str:
        role = f"<@&{self.substitute_role}>" if self.substitute_role else "none"
        pace = self.pace + (f" ({self.duration})" if self.duration else "")
        return (f"New tables: pace {pace}, out of time `{self.policy}`, quiet hours "
                f"{'move deadlines' if self.quiet_hours else 'ignored'}.\n"
                f"Role `/game seek` mentions: {role}.")
