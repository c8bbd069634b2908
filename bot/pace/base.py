"""What the scheduler's parts share: the table use cases, the store, the clock, a table's
timing and a member's settings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from bot.pace.clock import Clock, epoch
from bot.pace.member import MemberSettings
from bot.pace.model import Timing, timing_of
from bot.pace.planning import TurnPlanning
from bot.tables import Tables


class SchedulerBase:
    def __init__(self, tables: Tables, turns: TurnPlanning, *,
                 owns: Callable[[int | None], bool] | None = None,
                 on_absent: Callable[[int, int], Awaitable[object]] | None = None) -> None:
        self.tables = tables
        self.store = tables.store
        self.turns = turns
        # Told when the computer's moves for a seat out of time make it absent (a league
        # records that as the member's forfeit).
        self.on_absent = on_absent
        # The servers whose tables this process recovers after a restart (its shards'): each
        # table is taken up by one process.
        self.owns: Callable[[int | None], bool] = owns or (lambda guild_id: True)

    @property
    def clock(self) -> Clock:
        """The clock of the turns planned and fired (tests move a fake one, or swap it)."""
        return self.turns.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.turns.clock = clock

    def now(self) -> int:
        return epoch(self.clock)

    async def timing(self, table_id: int) -> Timing:
        """The timing a table plays at: its league's when the league imposes one."""
        return timing_of((await self.store.timing_in_force(table_id))[0])

    async def settings(self, member_id: int) -> MemberSettings:
        return (await self.settings_of([member_id]))[member_id]

    async def settings_of(self, member_ids: Iterable[int]) -> dict[int, MemberSettings]:
        wanted = set(member_ids)
        found = await self.store.member_settings(wanted)
        return {m: MemberSettings(**found[m]) if m in found else MemberSettings(m)
                for m in wanted}
