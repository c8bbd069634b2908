"""Leagues: seasons, sign-ups and check-in, Swiss-like rounds with a state and a deadline,
OpenSkill ratings from the results of sanctioned tables, forfeits and reliability, tournament
points with tie-breaks, corrections, standings and CSV export. No Discord import.

``Leagues`` is the front end's entry point; ``Leagues.recorder`` stores results and forfeits
(``forfeit(table_id, seat, reason)`` is what out-of-time handling calls); ``Rounds`` forms and
opens rounds; ``Referee`` hands seats to substitutes and settles rounds at their deadline.
"""

from bot.leagues.service import Leagues, Standings

__all__ = ["Leagues", "Standings"]
