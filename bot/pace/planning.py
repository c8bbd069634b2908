"""Planning a table's turns after each change, under the table's lock: the hook the table use
cases call (``bot.tables.live.TimingHook``), built before them and handed to them, and to the
scheduler that fires what it plans."""

from __future__ import annotations

from bot.pace.clock import Clock, epoch
from bot.pace.member import MemberSettings
from bot.pace.model import timing_of
from bot.pace.plan import SeatInfo, reconcile
from bot.store import Status, Store
from bot.store.records import PlanInputs, PlanRequest, PlanRows, TurnRecord
from bot.tables.live import Loaded, Planning, Timed


class TurnPlanning:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def now(self) -> int:
        return epoch(self.clock)

    async def after_commit(
        self, loaded: Loaded, movers: frozenset[int], autopiloted: frozenset[int]
    ) -> Timed:
        """Plan the table's turns after a change, in a transaction of its own."""
        planning = self.planning(loaded, movers, autopiloted)
        return planning.told(await self.store.write_plan(planning.request))

    def planning(self, loaded: Loaded, movers: frozenset[int], autopiloted: frozenset[int]
                 ) -> Planning:
        """Planning the table's turns as it is in ``loaded``: a pure planner the store calls
        with what it read in its transaction (a move's own, so a move costs no transaction
        more), and how the notice learns of the deadlines from the open turns written."""
        table, now = loaded.table, self.now()
        if table.status != Status.PLAYING or loaded.state is None:
            return Planning(PlanRequest(table.id, (), now), lambda turns: Timed())
        seats = [SeatInfo(s.position, s.member_id, s.is_computer) for s in loaded.seats]
        active = loaded.game.active_seats(loaded.state)
        no_dm: set[int] = set()

        def planner(inputs: PlanInputs) -> PlanRows:
            settings = {m: MemberSettings(**v) for m, v in inputs.settings.items()}
            no_dm.update(m for m, v in settings.items() if not v.dm_notices)
            plan = reconcile(timing_of(inputs.timing), seats, inputs.clocks, inputs.open_turns,
                             active, movers, autopiloted, table.version, now, settings,
                             inputs.paused_at)
            return PlanRows(plan.end_turns, plan.new_turns, plan.clocks)

        def told(turns: dict[int, TurnRecord]) -> Timed:
            deadlines = {t.member_id: t.due_at for t in turns.values()
                         if t.member_id is not None and t.due_at is not None}
            return Timed(deadlines, frozenset(no_dm))

        members = tuple(dict.fromkeys(s.member_id for s in seats if s.member_id is not None))
        return Planning(PlanRequest(table.id, members, now, planner), told)
