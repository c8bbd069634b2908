"""What the scheduler's services share: the table use cases and their store, the clock, a
table's timing, a member's settings, and what follows when a seat is lost to its member."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from bot.pace.clock import Clock, epoch
from bot.pace.member import MemberSettings
from bot.pace.model import Timing, timing_of
from bot.pace.planning import TurnPlanning
from bot.store.records import TurnRecord
from bot.tables import Tables


class TableTime:
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

    async def gone(self, table_id: int, member_id: int | None) -> None:
        """The member's seat went absent or was voted out: an abandoned game on their
        reliability record (once per table)."""
        if member_id is not None:
            await self.store.add_member_event(member_id, table_id, "abandoned", 0, self.now())

    async def absent_by_computer(self, turn: TurnRecord, was_absent: bool) -> None:
        """After the computer moved for a seat out of time: if those moves just made it
        absent (as autopilot counts them), the member has left the game."""
        if was_absent:
            return
        after = (await self.store.seat_clocks(turn.table_id)).get(turn.seat)
        if after is not None and after.absent:
            await self.gone(turn.table_id, turn.member_id)
            if self.on_absent is not None:
                await self.on_absent(turn.table_id, turn.seat)
