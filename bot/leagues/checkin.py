"""Check-in windows: a league with check-in pairs, in each round, only the members who said they
are present for it. A window opens when its post goes up (an organiser's
``/league-admin check-in``, or the opening of an automatic round for the round after it) and
closes at a stated time: then the round opens by itself with those present, or the organisers
are told why it could not. The post shows how many have checked in; the round's summary lists
the members who did not."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.leagues.report import safe_name
from bot.leagues.service import Leagues
from bot.store import LeagueRecord
from bot.values import Member, TableError

# How long an organiser's window may stay open, and at least.
SHORTEST = timedelta(minutes=10)
LONGEST = timedelta(days=14)


@dataclass(frozen=True)
class CheckIn:
    """Where a league's check-in stands: the round it is for, when it closes (None: when an
    organiser opens the round), how many of how many signed up have checked in."""

    league: LeagueRecord
    round_number: int
    closes: datetime | None
    checked: int
    signed: int

    def text(self) -> str:
        name = safe_name(self.league.name)
        if self.closes is None:
            when = "Check in: only members who do are paired."
        else:
            at = int(self.closes.timestamp())
            when = (f"Check in by <t:{at}:f> (<t:{at}:R>): then the round opens with the "
                    "members who did.")
        return (f"Playing round {self.round_number} of **{name}**? {when}\n"
                f"Checked in: {self.checked} of {self.signed} signed up.")


class CheckIns:
    def __init__(self, leagues: Leagues) -> None:
        self.leagues = leagues
        self.store = leagues.store

    async def open_window(self, guild_id: int, member: Member, name: str, closes_in: timedelta,
                          *, deadline: timedelta | None, auto_next: bool,
                          roles: Collection[int] = ()) -> CheckIn:
        """An organiser opens check-in for the next round, closing in ``closes_in``: then the
        round opens by itself (with ``deadline`` and ``auto_next`` as ``/league-admin round``
        takes them). A window already open is replaced."""
        await self.leagues.require_runner(guild_id, member, roles, "ask for check-in")
        league = await self.leagues.named(guild_id, name)
        if league.closed:
            raise TableError("That league is closed.")
        if not league.checkin:
            raise TableError("Turn check-in on first: `/league-admin signups checkin:True`.")
        if not SHORTEST <= closes_in <= LONGEST:
            raise TableError("A check-in window closes between 10 minutes and 14 days from "
                             "now.")
        if auto_next and deadline is None:
            raise TableError("Only a round with a deadline can open the next one by itself.")
        closes = (self.leagues.clock() + closes_in).isoformat(timespec="seconds")
        await self.store.open_checkin_window(
            league.id, closes, None if deadline is None else int(deadline.total_seconds()),
            auto_next)
        return await self.state(league.id)

    async def state(self, league_id: int) -> CheckIn:
        """The league's check-in now: its window's close, or the automatic round's deadline
        that opens the next one."""
        league = await self.store.get_league(league_id)
        if league is None:
            raise TableError("That league no longer exists.")
        rounds = await self.store.rounds(league.id)
        closes = None
        if league.checkin_closes is not None:
            closes = datetime.fromisoformat(league.checkin_closes)
        else:
            # A round that opens the next at its deadline (``auto_next`` until it has).
            following = [r for r in rounds if r.auto_next and r.deadline is not None]
            if following:
                closes = datetime.fromisoformat(following[-1].deadline or "")
        signed = {m.member_id for m in await self.store.league_members(league.id)}
        present = await self.store.checked_in(league.id) & signed
        return CheckIn(league, max((r.number for r in rounds), default=0) + 1, closes,
                       len(present), len(signed))
