"""A member's reliability record: defined once, in ``bot.leagues.reliability``."""

from __future__ import annotations

from bot.leagues.reliability import KINDS, MISSED_WEIGHT, Record, record_of

__all__ = ["KINDS", "MISSED_WEIGHT", "Record", "record_of"]
