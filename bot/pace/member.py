"""A member's own settings, the same on every server: time zone, quiet hours, holidays,
reminder interval, DM notices and previews; and the quiet-hours arithmetic."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.values import TableError

INTERVALS = (0, 6, 12, 24)  # hours between reminders at tables without deadlines; 0 = off
MAX_QUIET_HOURS = 12  # quiet hours longer than this would hold a table up most of each day
MAX_HOLIDAY_DAYS = 30
_CLOCK_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True)
class MemberSettings:
    member_id: int
    tz: str = "UTC"
    quiet_start: str | None = None  # "22:00", local time; None = no quiet hours
    quiet_end: str | None = None  # "07:30"
    interval_hours: int = 0
    dm_notices: bool = True
    preview: bool = True
    away_from: int | None = None  # a holiday: epoch seconds, from..until
    away_until: int | None = None
    dashboard: bool = False  # one DM listing the tables waiting on them, edited in place
    dms_refused: bool = False  # Discord refused a DM (50007): channel mentions until one works

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    def quiet_window(self, at: int) -> tuple[int, int] | None:
        """The quiet window (start, end, epoch seconds) that holds ``at``, if any."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        start, end = _hm(self.quiet_start), _hm(self.quiet_end)
        if start == end:
            return None
        local = datetime.fromtimestamp(at, UTC).astimezone(self.zone)
        # The window that holds ``at`` began today or yesterday (local dates).
        for days_back in (0, 1):
            day = local.date() - timedelta(days=days_back)
            begin = datetime.combine(day, start, self.zone)
            finish_day = day if end > start else day + timedelta(days=1)
            finish = datetime.combine(finish_day, end, self.zone)
            b, f = int(begin.timestamp()), int(finish.timestamp())
            if b <= at < f:
                return b, f
        return None

    def quiet(self, at: int) -> bool:
        return self.quiet_window(at) is not None

    def away(self, at: int) -> bool:
        return (self.away_from is not None and self.away_until is not None
                and self.away_from <= at < self.away_until)

    def away_overlap(self, start: int, end: int) -> int:
        """Seconds of the holiday inside [start, end)."""
        if self.away_from is None or self.away_until is None:
            return 0
        return max(0, min(end, self.away_until) - max(start, self.away_from))

    def describe(self, now: int) -> str:
        quiet = (f"{self.quiet_start}–{self.quiet_end}" if self.quiet_start and self.quiet_end
                 else "none")
        every = f"every {self.interval_hours} h" if self.interval_hours else "off"
        lines = [f"Time zone: {self.tz}", f"Quiet hours: {quiet}",
                 f"Reminders at tables without deadlines: {every}",
                 f"Notices by DM: {'on' if self.dm_notices else 'off'}",
                 f"Preview before Confirm: {'on' if self.preview else 'off'}",
                 f"DM dashboard of your waiting tables: {'on' if self.dashboard else 'off'}"]
        if self.away_from is not None and self.away_until is not None \
                and self.away_until > now:
            # An ended holiday stays stored (it moved deadlines) but is no longer the member's.
            lines.append(f"Holiday: <t:{self.away_from}:f> to <t:{self.away_until}:f>")
        if self.dms_refused:
            lines.append("Discord refused my last DM to you: reminders come as a mention in "
                         "the table's channel until you next use a command or a button "
                         "(`/settings dm_notices:true` tries again).")
        return "\n".join(lines)

    def away_text(self, now: int) -> str | None:
        """"away until ..." (or a holiday planned ahead) for ``/game status``."""
        if self.away_from is None or self.away_until is None or self.away_until <= now:
            return None
        if self.away_from <= now:
            return f"away until <t:{self.away_until}:f>"
        return f"away from <t:{self.away_from}:f> to <t:{self.away_until}:f>"


def _hm(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def check_zone(name: str) -> str:
    """A valid IANA zone name, or a clear refusal."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise TableError(f"Unknown time zone {name[:40]!r}; use a name like Europe/Paris."
                         ) from None
    return name


# Zone names that are one fixed offset all year, and the city zone most who type them mean.
FIXED_ZONES = {"EST": "America/New_York", "MST": "America/Denver", "HST": "Pacific/Honolulu"}


def zone_hint(name: str) -> str | None:
    """A word on a valid zone that is a bare offset rather than a city's: accepted, with the
    city zone suggested (a city's zone follows its daylight saving; ``EST`` never does)."""
    key = name.strip()
    city = FIXED_ZONES.get(key.upper())
    if city is None and not (key.startswith("Etc/GMT") and key[7:].strip("+-0")):
        return None
    example = city or "Europe/Paris"
    return (f"`{key[:40]}` is a fixed offset that never changes for daylight saving; if your "
            f"clocks change in summer, use your city's zone, e.g. `{example}`.")


def zone_names(typed: str, limit: int = 25) -> list[str]:
    """Zone names containing what was typed (for autocomplete)."""
    low = typed.lower()
    return sorted(z for z in available_timezones() if low in z.lower())[:limit]


def check_clock_time(text: str) -> str:
    found = _CLOCK_TIME.match(text.strip())
    if not found:
        raise TableError(f"Write a time as HH:MM (24 h), not {text[:10]!r}.")
    return f"{int(found.group(1)):02d}:{found.group(2)}"


def check_quiet(settings: MemberSettings) -> MemberSettings:
    """Quiet hours come as a pair, at most ``MAX_QUIET_HOURS`` long; else a clear refusal."""
    start, end = settings.quiet_start, settings.quiet_end
    if (start is None) != (end is None):
        raise TableError("Quiet hours need both `quiet_start` and `quiet_end` (HH:MM), or "
                         "`quiet_off:true`.")
    if start is not None and end is not None:
        length = (_minutes(end) - _minutes(start)) % (24 * 60)
        if length > MAX_QUIET_HOURS * 60:
            raise TableError(f"Quiet hours last at most {MAX_QUIET_HOURS} hours; "
                             f"{start}–{end} is longer.")
    return settings


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def holiday(start: datetime, days: int) -> tuple[int | None, int | None]:
    """A holiday of ``days`` days from ``start`` (0 days: none), as epoch seconds."""
    if not 0 <= days <= MAX_HOLIDAY_DAYS:
        raise TableError(f"A holiday lasts 0 to {MAX_HOLIDAY_DAYS} days.")
    if days == 0:
        return None, None
    return int(start.timestamp()), int((start + timedelta(days=days)).timestamp())


def parse_date(text: str, zone: ZoneInfo, now: datetime) -> datetime:
    """"2025-03-01" as the start of that day in the member's zone; never in the past."""
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d").date()
    except ValueError:
        raise TableError(f"Write a date as YYYY-MM-DD, not {text[:12]!r}.") from None
    start = datetime.combine(day, time(0, 0), zone)
    if start.date() < now.astimezone(zone).date():
        raise TableError("A holiday starts today or later.")
    return max(start, now)


def check_interval(hours: int) -> int:
    if hours not in INTERVALS:
        raise TableError("The reminder interval is off (0), 6, 12 or 24 hours.")
    return hours


def plan_holiday(mine: MemberSettings, now: datetime, days: int | None, start: str | None
         ) -> MemberSettings:
    """The holiday asked for: ``days`` from ``start`` (today if not given); 0 days ends the
    holiday under way at once (the time already away still counts) or cancels one planned."""
    if days is None:
        if mine.away_from is None or mine.away_until is None:
            raise TableError("Say how long the holiday is: `holiday_days`.")
        days = max(1, round((mine.away_until - mine.away_from) / 86400))
    if days == 0:
        at = int(now.timestamp())
        if mine.away_from is not None and mine.away_from <= at < (mine.away_until or 0):
            return replace(mine, away_until=at)
        return replace(mine, away_from=None, away_until=None)
    begin = parse_date(start, mine.zone, now) if start is not None else now
    begin_at, end_at = holiday(begin, days)
    return replace(mine, away_from=begin_at, away_until=end_at)
