"""The scheduler: asynchronous play's services, built once over the table use cases, behind
the one object the front ends and the web pages hold.

``TableTime`` is what the services share (store, clock, a table's timing, a member's
settings); ``Deadlines`` plans open turns again, ``Votes`` runs the vote on a seat out of
time, ``Retiming`` changes a running table's time, ``PaceSettings`` keeps members' and
servers' settings, and ``Firing`` fires what falls due. Each is handed what it uses when it
is built; none inherits another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import Executor

from bot.leagues.reliability import Record
from bot.notices import Notice
from bot.pace.clock import Clock
from bot.pace.deadlines import Deadlines
from bot.pace.firing import Delivered, Firing
from bot.pace.member import MemberSettings
from bot.pace.model import Timing
from bot.pace.planning import TurnPlanning
from bot.pace.running import Retiming
from bot.pace.server_settings import ServerSettings
from bot.pace.settings import PaceSettings
from bot.pace.table_time import TableTime
from bot.pace.votes import Decided, Votes
from bot.store import Store
from bot.store.records import WaitingTurn
from bot.tables import Tables
from bot.values import Member

__all__ = ["Delivered", "Scheduler", "paced"]


class Scheduler:
    def __init__(self, tables: Tables, *, owns: Callable[[int | None], bool] | None = None,
                 on_absent: Callable[[int, int], Awaitable[object]] | None = None) -> None:
        """``tables`` plan their turns with a ``TurnPlanning`` (``paced`` builds the two);
        ``owns``: the servers whose tables this process recovers; ``on_absent``: told when
        the computer's moves make a seat absent."""
        turns = tables.live.timing
        if not isinstance(turns, TurnPlanning):
            raise TypeError("a scheduler's tables plan their turns: build them with paced()")
        self.time = time = TableTime(tables, turns, owns=owns, on_absent=on_absent)
        self.deadlines = deadlines = Deadlines(time)
        self.votes = votes = Votes(time, deadlines)
        self.pace = pace = PaceSettings(time, deadlines)
        self.retiming = Retiming(time, deadlines, pace)
        self.firing = Firing(time, votes)
        self.tables, self.store = tables, tables.store

    # -- what the services share -------------------------------------------------------------

    @property
    def clock(self) -> Clock:
        return self.time.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.time.clock = clock

    @property
    def owns(self) -> Callable[[int | None], bool]:
        return self.time.owns

    @owns.setter
    def owns(self, owns: Callable[[int | None], bool]) -> None:
        self.time.owns = owns

    @property
    def on_absent(self) -> Callable[[int, int], Awaitable[object]] | None:
        return self.time.on_absent

    @on_absent.setter
    def on_absent(self, told: Callable[[int, int], Awaitable[object]] | None) -> None:
        self.time.on_absent = told

    def now(self) -> int:
        return self.time.now()

    async def timing(self, table_id: int) -> Timing:
        return await self.time.timing(table_id)

    async def settings(self, member_id: int) -> MemberSettings:
        return await self.time.settings(member_id)

    async def settings_of(self, member_ids: Iterable[int]) -> dict[int, MemberSettings]:
        return await self.time.settings_of(member_ids)

    # -- settings and records ----------------------------------------------------------------

    async def set_timing(self, table_id: int, timing: Timing, member: Member) -> Timing:
        return await self.pace.set_timing(table_id, timing, member)

    async def set_league_timing(self, league_id: int, timing: Timing | None) -> None:
        await self.pace.set_league_timing(league_id, timing)

    async def server(self, guild_id: int | None) -> ServerSettings:
        return await self.pace.server(guild_id)

    async def save_server(self, settings: ServerSettings) -> None:
        await self.pace.save_server(settings)

    async def save_settings(self, settings: MemberSettings) -> None:
        await self.pace.save_settings(settings)

    async def record(self, member_id: int) -> Record:
        return await self.pace.record(member_id)

    async def may_join(self, table_id: int, member_id: int) -> None:
        await self.pace.may_join(table_id, member_id)

    async def waiting(self, member_id: int) -> list[WaitingTurn]:
        return await self.pace.waiting(member_id)

    async def next_waiting(self, member_id: int, after_table: int) -> WaitingTurn | None:
        return await self.pace.next_waiting(member_id, after_table)

    async def dms_refused(self, member_id: int, refused: bool) -> None:
        await self.pace.dms_refused(member_id, refused)

    async def dashboard_posted(self, member_id: int, channel_id: int | None,
                               message_id: int | None) -> None:
        await self.pace.dashboard_posted(member_id, channel_id, message_id)

    # -- a running table's time --------------------------------------------------------------

    async def present(self, table_id: int, member_id: int) -> bool:
        return await self.deadlines.present(table_id, member_id)

    async def extend(self, table_id: int, member: Member, by: str | None) -> str:
        return await self.retiming.extend(table_id, member, by)

    async def change_pace(self, table_id: int, member: Member, pace: str,
                          duration: str | None) -> str:
        return await self.retiming.change_pace(table_id, member, pace, duration)

    async def change_policy(self, table_id: int, member: Member, policy: str,
                            level: str | None) -> str:
        return await self.retiming.change_policy(table_id, member, policy, level)

    async def pause(self, table_id: int, member: Member, reason: str) -> str:
        return await self.retiming.pause(table_id, member, reason)

    async def resume(self, table_id: int, member: Member) -> str:
        return await self.retiming.resume(table_id, member)

    async def come_back(self, table_id: int, member_id: int) -> tuple[bool, bool]:
        return await self.retiming.come_back(table_id, member_id)

    async def left(self, table_id: int, member_id: int) -> None:
        await self.retiming.left(table_id, member_id)

    async def substitute(self, table_id: int, seat: int, newcomer: Member, by: Member
                         ) -> Notice:
        return await self.retiming.substitute(table_id, seat, newcomer, by)

    # -- votes and firing --------------------------------------------------------------------

    async def vote(self, turn_id: int, round_: int, member: Member, choice: str) -> Decided:
        return await self.votes.vote(turn_id, round_, member, choice)

    async def voters(self, table_id: int, seat: int) -> tuple[int, ...]:
        return await self.votes.voters(table_id, seat)

    async def tick(self) -> list[Delivered]:
        return await self.firing.tick()

    async def recover(self) -> list[Delivered]:
        return await self.firing.recover()

    async def sync(self) -> None:
        await self.firing.sync()

    async def run(self, deliver: Callable[[Sequence[Delivered]], Awaitable[None]],
                  every: float, stop: asyncio.Event) -> None:
        await self.firing.run(deliver, every, stop)


def paced(store: Store, clock: Clock, *, thinker: Executor | None = None,
          on_over: Callable[[int], Awaitable[object]] | None = None,
          owns: Callable[[int | None], bool] | None = None,
          on_absent: Callable[[int, int], Awaitable[object]] | None = None,
          ) -> tuple[Tables, Scheduler]:
    """Table use cases that plan their turns, and the scheduler that fires what they plan."""
    tables = Tables(store, thinker=thinker, timing=TurnPlanning(store, clock), on_over=on_over)
    return tables, Scheduler(tables, owns=owns, on_absent=on_absent)
