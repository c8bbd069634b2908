"""Firing what falls due: each deadline and reminder is a row, and firing one is an atomic
claim in the store, so each fires at most once, and one that fell due while the bot was down
fires on the next tick. ``tick()`` returns notices for a front end to deliver; tests call it
after moving a fake clock, the bot calls it from ``run``. After a restart, ``sync`` plans what
was never planned and ``recover`` finishes what a crash cut short after a deadline fired."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.metrics import DEADLINES, REMINDERS
from bot.pace.member import MemberSettings
from bot.pace.model import MINUTE, Policy
from bot.pace.notices import (
    Dashboard,
    MoveNotice,
    Reminder,
    TableMessage,
    VoteEnded,
    VoteRequest,
)
from bot.pace.plan import after_quiet
from bot.pace.table_time import TableTime
from bot.pace.usecases import move_for
from bot.pace.votes import Votes
from bot.store.records import TurnRecord
from bot.text import escape

log = logging.getLogger(__name__)

Delivered = MoveNotice | TableMessage | VoteRequest | VoteEnded | Reminder | Dashboard


class Firing:
    def __init__(self, time: TableTime, votes: Votes) -> None:
        self.time, self.votes = time, votes
        self.store, self.tables = time.store, time.tables
        # Votes seen 'closing', with when first seen: one still closing a minute later failed
        # to be carried out (one a click just closed is being carried out now, not retried).
        self._closing: dict[tuple[int, int], int] = {}

    async def sync(self) -> None:
        """On start: plan the playing tables that have no open turn (a crash came between a
        start and its plan, or a table from before timing existed). A move's plan is written
        in the move's own transaction, so a table with open turns was planned."""
        for table in await self.store.unplanned():
            async with self.tables.live.locked(table.id) as loaded:
                await self.time.turns.after_commit(loaded, frozenset(), frozenset())

    async def tick(self) -> list[Delivered]:
        """Fire every deadline and reminder that is due, each once."""
        out: list[Delivered] = []
        now = self.time.now()
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
                out.extend(await self.votes.conclude(turn))
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
        now = self.time.now()
        self._closing = {(t.id, t.round): self._closing.get((t.id, t.round), now)
                         for t in closing}
        for turn in closing:
            if now - self._closing[(turn.id, turn.round)] < MINUTE:
                continue
            try:
                out.extend(await self.votes.carry_out(turn))
            except Exception:
                log.exception("vote on turn %s of table %s failed again", turn.id,
                              turn.table_id)
        return out

    async def recover(self) -> list[Delivered]:
        """What a crash cut short after a deadline fired is done now: the move the computer
        was to make (its key makes a second attempt harmless), the vote that was to open, and
        what an ended vote decided."""
        out: list[Delivered] = []
        policies: dict[int, Policy] = {}
        # One query for every table (an index of the few open turns that fired), in the
        # order their deadlines fell.
        for turn, guild_id, version in await self.store.fired_turns():
            if not self.time.owns(guild_id):
                continue  # another process's shard recovers it
            try:
                if turn.table_id not in policies:
                    policies[turn.table_id] = (await self.time.timing(turn.table_id)).policy
                out.extend(await self._recover(turn, policies[turn.table_id], version))
            except Exception:
                log.exception("could not recover turn %s of table %s", turn.id, turn.table_id)
        return out

    async def _recover(self, turn: TurnRecord, policy: Policy, version: int
                       ) -> list[Delivered]:
        if policy in (Policy.AUTOPILOT, Policy.SKIP):
            return await self._expire(turn) if turn.since_version == version else []
        if policy is not Policy.VOTE:
            return []
        if turn.vote_due is not None:
            # An open vote ends on a tick, unless its votes decided it before a crash.
            return list(await self.votes.decided_early(turn))
        if turn.vote_state == "closing":
            return list(await self.votes.carry_out(turn))
        if turn.vote_state is None:
            # Fired, but the vote never opened (or an offer's end was never carried out).
            return await self._expire(turn)
        return []

    async def _expire(self, turn: TurnRecord) -> list[Delivered]:
        table = await self.tables.live.record(turn.table_id)
        timing = await self.time.timing(table.id)
        clocks = await self.store.seat_clocks(table.id)
        absent = turn.seat in clocks and clocks[turn.seat].absent
        policy = Policy.AUTOPILOT if absent else timing.policy
        if policy in (Policy.AUTOPILOT, Policy.SKIP):
            notice = await move_for(self.tables.live, turn, timing.level,
                                    policy is Policy.SKIP)
            await self.time.absent_by_computer(turn, absent)
            return [MoveNotice(notice)] if notice is not None else []
        if policy is Policy.WAIT:
            seats = await self.tables.seats(table.id)
            return [TableMessage(table.channel_id,
                                 f"Time ran out for {escape(seats[turn.seat].name)}; the "
                                 "table waits for them.",
                                 (turn.member_id,) if turn.member_id else ())]
        return list(await self.votes.open_vote(turn))

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
