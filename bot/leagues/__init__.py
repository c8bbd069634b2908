"""Leagues: seasons, sign-ups, Swiss-like rounds, OpenSkill ratings from stored results,
forfeits and reliability, standings and CSV export. No Discord import.

``Leagues`` is the front end's entry point; ``Leagues.recorder`` stores results and forfeits
(``forfeit(table_id, seat, reason)`` is what out-of-time handling calls).
"""

from bot.leagues.service import Leagues, Standings

__all__ = ["Leagues", "Standings"]
