"""Member settings and dashboards, read and marked by several row groups."""

from __future__ import annotations

from typing import Any

from bot.store.sql.script import Script, marks, rows

SETTINGS_COLUMNS = ("member_id", "tz", "quiet_start", "quiet_end", "interval_hours",
                    "dm_notices", "preview", "away_from", "away_until", "dashboard",
                    "dms_refused")
_FLAGS = ("dm_notices", "preview", "dashboard", "dms_refused")

# Marks the dashboards of a table's members for an edit (their waiting tables changed).
MARK_DASHBOARDS = ("UPDATE dashboards SET dirty = TRUE WHERE NOT dirty AND member_id IN"
                   " (SELECT member_id FROM seats WHERE table_id = ?)")


def member_settings(ids: list[int]) -> Script[dict[int, dict[str, Any]]]:
    """Stored settings of these members, as ``bot.pace.member.MemberSettings`` fields."""
    if not ids:
        return {}
    found = yield rows(f"SELECT * FROM member_settings WHERE member_id IN ({marks(len(ids))})",
                       *ids)
    return {int(r["member_id"]): {c: bool(r[c]) if c in _FLAGS else r[c]
                                  for c in SETTINGS_COLUMNS} for r in found}
