"""The scheduler: plans turns after each commit, and on each tick fires what is due.

Every deadline and reminder is a row; firing one is an atomic claim in the store, so each
fires at most once, and one that fell due while the bot was down fires on the next tick.
``tick()`` returns notices for a front end to deliver; tests call it after moving a fake
clock, the bot calls it from ``run``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import asdict

from bot.metrics import DEADLINES, REMINDERS
from bot.notices import Notice
from bot.pace.clock import Clock
from bot.pace.member import MemberSettings, plan_holiday
from bot.pace.model import MINUTE, Policy, Timing
from bot.pace.notices import (
    Dashboard,
    MoveNotice,
    Reminder,
    TableMessage,
    VoteEnded,
    VoteRequest,
)
from bot.pace.plan import after_quiet
from bot.pace.planning import TurnPlanning
from bot.pace.running import Running
from bot.pace.server_settings import ServerSettings
from bot.pace.usecases import move_for, substitute
from bot.store import Status, Store
from bot.store.timing_records import (
    TurnRecord,
    WaitingTurn,
)
from bot.tables import Tables
from bot.text import escape
from bot.values import Member, TableError

log = logging.getLogger(__name__)

Delivered = MoveNotice | TableMessage | VoteRequest | VoteEnded | Reminder | Dashboard


class Scheduler(Running):
    def __init__(self, tables: Tables, *, owns: Callable[[int | None], bool] | None = None,
                 on_absent: Callable[[int, int], Awaitable[object]] | None = None) -> None:
        """``tables`` plan their turns with a ``TurnPlanning`` (``paced`` builds the two);
        ``owns`` and ``on_absent``: see ``SchedulerBase``."""
        turns = tables.live.timing
        if not isinstance(turns, TurnPlanning):
            raise TypeError("a scheduler's tables plan their turns: build them with paced()")
        super().__init__(tables, turns, owns=owns, on_absent=on_absent)
        # Votes seen 'closing', with when first seen: one still closing a minute later failed
        # to be carried out (one a click just closed is being carried out now, not retried).
        self._closing: dict[tuple[int, int], int] = {}

    # -- configuration ---------------------------------------------------------------------

    async def set_timing(self, table_id: int, timing: Timing, member: Member) -> Timing:
        """A table's pace and policy: chosen at ``/game new``, changeable until it starts.
        Returns the timing in force (a league's pace wins over the table's choice)."""
        table = await self.tables.live.record(table_id)
        if table.status != Status.LOBBY:
            raise TableError("The pace is fixed once the game has started.")
        if member.id != table.creator_id and not member.is_admin:
            raise TableError("Only the table's creator or a server manager can set its pace.")
        await self.store.set_table_timing(table_id, asdict(timing))
        return await self.timing(table_id)

    async def set_league_timing(self, league_id: int, timing: Timing | None) -> None:
        """A league's pace for every table that counts for it, from its next change on
        (organisers' rights are the leagues' to check). None: tables choose their own."""
        await self.store.set_league_timing(league_id, None if timing is None else asdict(timing))

    async def server(self, guild_id: int | None) -> ServerSettings:
        """A server's defaults (the built-in ones outside a server or until set)."""
        if guild_id is None:
            return ServerSettings(0)
        return ServerSettings.of(guild_id, await self.store.server_settings(guild_id))

    async def save_server(self, settings: ServerSettings) -> None:
        await self.store.save_server_settings(settings.guild_id, settings.checked().stored(),
                                              self.now())

    async def save_settings(self, settings: MemberSettings) -> None:
        """Save a member's settings; their open turns are planned again at once (a holiday or
        quiet hours set, changed or ended)."""
        before = await self.settings(settings.member_id)
        await self.store.save_member_settings(asdict(settings), self.now())
        await self.replan_member(settings.member_id, before)

    async def sync(self) -> None:
        """Plan every playing table from its current state (on start: tables opened before
        timing existed, or a plan a crash cut short); nothing already planned changes."""
        for table in await self.store.tables_with_status(Status.PLAYING):
            async with self.tables.live.locked(table.id) as loaded:
                await self.turns.after_commit(loaded, frozenset(), frozenset())

    # -- firing ----------------------------------------------------------------------------

    async def tick(self) -> list[Delivered]:
        """Fire every deadline and reminder that is due, each once."""
        out: list[Delivered] = []
        now = self.now()
        for turn in await self.store.due_turns(now):
            if not await self.store.claim_turn(turn.id, now):
                continue  # another process fired it
            DEADLINES.inc()
            try:
                if turn.member_id is not None:
                    await self.store.add_member_event(turn.member_id, turn.table_id, "missed",
                                                      turn.id, now)
                out.extend(await self._expire(turn))
            except Exception:
                log.exception("deadline %s of table %s failed", turn.id, turn.table_id)
        for turn in await self.store.due_votes(now):
            try:
                out.extend(await self.conclude(turn))
            except Exception:
                log.exception("vote on turn %s of table %s failed", turn.id, turn.table_id)
        out.extend(await self._retry_votes())
        out.extend(await self._remind(now))
        for board in await self.store.take_dashboards():
            waiting = tuple(await self.store.waiting_turns(board.member_id))
            out.append(Dashboard(board.member_id, waiting, board.channel_id, board.message_id,
                                 now))
        return out

    async def _retry_votes(self) -> list[Delivered]:
        """Carry out again a vote whose carrying out failed (every step is harmless twice)."""
        out: list[Delivered] = []
        closing = await self.store.closing_votes()
        now = self.now()
        self._closing = {(t.id, t.round): self._closing.get((t.id, t.round), now)
                         for t in closing}
        for turn in closing:
            if now - self._closing[(turn.id, turn.round)] < MINUTE:
                continue
            try:
                out.extend(await self.carry_out(turn))
            except Exception:
                log.exception("vote on turn %s of table %s failed again", turn.id,
                              turn.table_id)
        return out

    async def dms_refused(self, member_id: int, refused: bool) -> None:
        """Discord refused a DM to the member (50007), or one got through again."""
        await self.store.set_dms_refused(member_id, refused, self.now())

    async def dashboard_posted(self, member_id: int, channel_id: int | None,
                               message_id: int | None) -> None:
        await self.store.dashboard_posted(member_id, channel_id, message_id)

    async def recover(self) -> list[Delivered]:
        """What a crash cut short after a deadline fired is done now: the move the computer
        was to make (its key makes a second attempt harmless), the vote that was to open, and
        what an ended vote decided."""
        out: list[Delivered] = []
        for table in await self.store.tables_with_status(Status.PLAYING):
            if not self.owns(table.guild_id):
                continue  # another process's shard recovers it
            fired = [t for t in (await self.store.open_turns(table.id)).values()
                     if t.fired_at is not None]
            if not fired:
                continue  # most tables: nothing fired, no timing to read
            timing = await self.timing(table.id)
            for turn in fired:
                try:
                    out.extend(await self._recover(turn, timing.policy, table.version))
                except Exception:
                    log.exception("could not recover turn %s of table %s", turn.id, table.id)
        return out

    async def _recover(self, turn: TurnRecord, policy: Policy, version: int
                       ) -> list[Delivered]:
        if policy in (Policy.AUTOPILOT, Policy.SKIP):
            return await self._expire(turn) if turn.since_version == version else []
        if policy is not Policy.VOTE:
            return []
        if turn.vote_due is not None:
            # An open vote ends on a tick, unless its votes decided it before a crash.
            return list(await self.decided_early(turn))
        if turn.vote_state == "closing":
            return list(await self.carry_out(turn))
        if turn.vote_state is None:
            return await self._expire(turn)  # fired, but the vote never opened
        return []

    async def _expire(self, turn: TurnRecord) -> list[Delivered]:
        table = await self.tables.live.record(turn.table_id)
        timing = await self.timing(table.id)
        clocks = await self.store.seat_clocks(table.id)
        absent = turn.seat in clocks and clocks[turn.seat].absent
        policy = Policy.AUTOPILOT if absent else timing.policy
        if policy in (Policy.AUTOPILOT, Policy.SKIP):
            notice = await move_for(self.tables.live, turn, timing.level,
                                    policy is Policy.SKIP)
            if not absent:
                after = (await self.store.seat_clocks(table.id)).get(turn.seat)
                if after is not None and after.absent:
                    await self.gone(table.id, turn.member_id)
                    if self.on_absent is not None:
                        await self.on_absent(table.id, turn.seat)
            return [MoveNotice(notice)] if notice is not None else []
        if policy is Policy.WAIT:
            seats = await self.tables.seats(table.id)
            return [TableMessage(table.channel_id,
                                 f"Time ran out for {escape(seats[turn.seat].name)}; the "
                                 "table waits for them.",
                                 (turn.member_id,) if turn.member_id else ())]
        return list(await self.open_vote(turn))

    async def _remind(self, now: int) -> list[Delivered]:
        due = await self.store.due_reminders(now)
        if not due:
            return []
        found = await self.store.member_settings({r.member_id for r in due})
        reminded: set[int] = set()
        for r in due:
            member = MemberSettings(**found[r.member_id]) if r.member_id in found \
                else MemberSettings(r.member_id)
            turn = await self.store.get_turn(r.turn_id)
            window = member.quiet_window(now)
            if window is not None and turn is not None:
                # Quiet hours (perhaps set since it was planned): later, or not at all.
                if turn.due_at is None or window[1] < turn.due_at:
                    await self.store.move_reminder(r.id, window[1])
                    continue
                await self.store.claim_reminder(r.id, now)
                continue
            if not await self.store.claim_reminder(r.id, now):
                continue
            REMINDERS.inc()
            reminded.add(r.member_id)
            if turn is not None and turn.due_at is None and member.interval_hours:
                await self.store.add_reminder(
                    turn.id, turn.table_id, r.member_id,
                    after_quiet(member, now + member.interval_hours * 3600))
        out: list[Delivered] = []
        for member_id in sorted(reminded):
            waiting = await self.store.waiting_turns(member_id)
            dm = found.get(member_id, {}).get("dm_notices", True)
            refused = bool(found.get(member_id, {}).get("dms_refused", False))
            if waiting:
                out.append(Reminder(member_id, tuple(waiting), by_dm=bool(dm) and not refused,
                                    dms_refused=refused))
        return out

    async def run(self, deliver: Callable[[Sequence[Delivered]], Awaitable[None]],
                  every: float, stop: asyncio.Event) -> None:
        """The bot's loop: plan and recover, then tick every few seconds until ``stop``."""
        await self.sync()
        await deliver(await self.recover())
        while not stop.is_set():
            try:
                await deliver(await self.tick())
            except Exception:
                log.exception("scheduler tick failed")
            try:
                await asyncio.wait_for(stop.wait(), every)
            except TimeoutError:
                pass

    # -- pause, votes, substitutes, my turns -------------------------------------------------

    async def pause(self, table_id: int, member: Member, reason: str) -> str:
        await self.managed(table_id, member, "pause it")
        reason = reason.strip()[:200] or "no reason given"
        if not await self.store.pause_table(table_id, self.now(), member.id, reason,
                                            asdict(Timing())):
            raise TableError("This table is already paused.")
        return f"{escape(member.name)} paused the game's clock: {escape(reason)}"

    async def resume(self, table_id: int, member: Member) -> str:
        await self.managed(table_id, member, "resume it")
        paused = await self.store.resume_table(table_id, self.now())
        if paused is None:
            raise TableError("This table is not paused.")
        await self.replan(table_id)  # moved on by the pause, then out of quiet hours again
        return (f"{escape(member.name)} restarted the game's clock; deadlines moved on by "
                "the pause.")

    async def come_back(self, table_id: int, member_id: int) -> tuple[bool, bool]:
        """``/game back``: the member's holiday under way ends now (everywhere) and an absent
        seat of theirs here is theirs again. Whether they were absent, and on holiday."""
        mine = await self.settings(member_id)
        on_holiday = mine.away(self.now())
        if on_holiday:
            await self.save_settings(plan_holiday(mine, self.clock.now(), 0, None))
        return await self.present(table_id, member_id), on_holiday

    async def waiting(self, member_id: int) -> list[WaitingTurn]:
        """``/turns``: every table that waits on the member, across servers, oldest first."""
        return await self.store.waiting_turns(member_id)

    async def next_waiting(self, member_id: int, after_table: int) -> WaitingTurn | None:
        """After a move: the mover's other table that waits longest on them."""
        for w in await self.store.waiting_turns(member_id):
            if w.table_id != after_table:
                return w
        return None

    async def substitute(self, table_id: int, seat: int, newcomer: Member, by: Member
                         ) -> Notice:
        return await substitute(self.tables.live, table_id, seat, newcomer, by, self.now())


def paced(store: Store, clock: Clock, *, thinker: Executor | None = None,
          on_over: Callable[[int], Awaitable[object]] | None = None,
          owns: Callable[[int | None], bool] | None = None,
          on_absent: Callable[[int, int], Awaitable[object]] | None = None,
          ) -> tuple[Tables, Scheduler]:
    """Table use cases that plan their turns, and the scheduler that fires what they plan."""
    tables = Tables(store, thinker=thinker, timing=TurnPlanning(store, clock), on_over=on_over)
    return tables, Scheduler(tables, owns=owns, on_absent=on_absent)
