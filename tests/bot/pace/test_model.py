"""A model-based test of asynchronous play (hypothesis state machine, fake clock, SQLite): members
move, look at the table, take holidays, set quiet hours, pause and resume, vote, hand seats on,
come back from absence, and the bot restarts (also dying in the middle of firing a deadline or
ending a vote), in random order; after every step:

- every open turn has one pending deadline, or is explicitly waiting (fired: a vote, a table
  that waits, a substitute sought) or paused; a seat has at most one open turn;
- no deadline fires twice, nor inside its member's holiday or quiet hours (unless the table
  ignores quiet hours);
- every vote ends by its own deadline; under ``vote``, a seat out of time is voted on, or what
  its vote decided was done (a restart finishes what a crash cut short);
- a member who acts is not absent;
- a member is reminded at most once per deadline, never in their quiet hours.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import replace
from datetime import timedelta
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import bot.pace.firing as firing_module
import bot.pace.votes as votes_module
import rules
from bot.pace.clock import FakeClock, epoch
from bot.pace.member import plan_holiday
from bot.pace.model import DAY, HOUR, MINUTE, make_timing
from bot.pace.notices import Reminder
from bot.pace.plan import quiet_lead, turn_span
from bot.pace.scheduler import paced
from bot.pace.votes import VOTE_CHOICES
from bot.store import open_store
from bot.store.records import TurnRecord
from bot.store.sql.script import rows
from bot.values import Member, TableError
from rules.core import RulesError
from tests.examples import examples
from tests.pebbles import GAME as PEBBLES

MEMBERS = [Member(1, "Ann"), Member(2, "Ben"), Member(3, "Cy")]
SPARE = Member(4, "Dee")
EVERYONE = [*MEMBERS, SPARE]
CHANNEL = 10
STEPS = [30, 5 * MINUTE, 20 * MINUTE, HOUR, 3 * HOUR, 9 * HOUR]
# Where the process may die while firing: before a fired deadline's vote opens, inside the
# computer's move for a deadline or for an ended vote, before a vote to wait plans the period.
CRASH_POINTS = ["open_vote", "deadline move", "vote move", "replan"]


class Died(BaseException):
    """The process died (not an ``Exception``: nothing in the bot catches it)."""
NAMES = count()


class PaceMachine(RuleBasedStateMachine):
    folder: str
    policy: str

    def __init__(self) -> None:
        super().__init__()
        rules.GAMES[PEBBLES.id] = PEBBLES
        self.loop = asyncio.new_event_loop()
        self.target = str(Path(self.folder) / f"{next(NAMES)}.db")
        self.clock = FakeClock()
        self.fired: list[tuple[TurnRecord, int]] = []
        self.seen_deadlines: set[tuple[int, int | None]] = set()
        self.reminded: set[tuple[int, int, int | None]] = set()
        self.ignore_quiet = False
        self.allowance = 90 * DAY
        self.table_id = 0
        self.voting = False  # an open vote (as of the last check)
        self.absent = False  # an absent seat (as of the last check)
        self.open_services()

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def open_services(self) -> None:
        self.store = self.run(open_store(self.target))
        self.tables, self.scheduler = paced(self.store, self.clock)
        claim = self.store.claim_turn

        async def watched(turn_id: int, now: int) -> bool:
            before = await self.store.get_turn(turn_id)
            won = await claim(turn_id, now)
            if won and before is not None:
                self.fired.append((before, now))
            return won

        self.store.claim_turn = watched  # type: ignore[method-assign]

    def tick(self) -> None:
        for item in self.run(self.scheduler.tick()):
            if isinstance(item, Reminder):
                self.check_reminder(item)
        self.check_fired()

    def check_reminder(self, reminder: Reminder) -> None:
        member = self.run(self.scheduler.settings(reminder.member_id))
        assert not member.quiet(epoch(self.clock))
        for waiting in reminder.waiting:
            key = (reminder.member_id, waiting.started_at, waiting.due_at)
            assert key not in self.reminded, "reminded twice of one deadline"
            self.reminded.add(key)

    def check_fired(self) -> None:
        for turn, _ in self.fired:
            key = (turn.id, turn.due_at)
            assert key not in self.seen_deadlines, "a deadline fired twice"
            self.seen_deadlines.add(key)
            assert turn.due_at is not None
            if turn.member_id is None:
                continue
            member = self.run(self.scheduler.settings(turn.member_id))
            if member.away(turn.due_at):
                # Only once the table's holiday allowance is used up does the clock run on.
                clock = self.run(self.store.seat_clocks(self.table_id)).get(turn.seat)
                used = clock.holiday_used if clock is not None else 0
                taken = member.away_overlap(turn.started_at, turn.due_at)
                assert used + taken >= self.allowance, \
                    "fired during the member's holiday with allowance left"
            if not self.ignore_quiet:
                assert not member.quiet(turn.due_at), "fired during quiet hours"
        self.fired.clear()

    def seat_of(self, member: Member) -> int | None:
        seats = self.run(self.tables.seats(self.table_id))
        return next((s.position for s in seats if s.member_id == member.id), None)

    def playing(self) -> bool:
        return str(self.run(self.tables.table_for(self.table_id)).status) == "playing"

    # "3d": a vote then lasts its one-day cap, not half the period. A one-day holiday
    # allowance runs out across turns; ninety days never does.
    @initialize(pace=st.sampled_from(["10m", "1h", "1d", "3d"]), ignore_quiet=st.booleans(),
                absent_after=st.integers(1, 2), allowance=st.sampled_from([1, 90]))
    def a_timed_game(self, pace: str, ignore_quiet: bool, absent_after: int,
                     allowance: int) -> None:
        self.ignore_quiet = ignore_quiet
        self.allowance = allowance * DAY
        # A fixed seed: the same steps replay the same game (hypothesis replays to shrink).
        opened = self.run(self.tables.open("pebbles", CHANNEL, MEMBERS[0], seat_order="join",
                                           seed="model", options={"turns": 12, "first": 0}))
        self.table_id = opened.table_id
        timing = make_timing("custom", duration=pace, policy=self.policy,
                             absent_after=absent_after,
                             quiet_hours=not ignore_quiet)
        self.run(self.scheduler.set_timing(self.table_id,
                                           replace(timing, holiday_days=allowance),
                                           MEMBERS[0]))
        for member in MEMBERS[1:]:
            self.run(self.tables.join(self.table_id, member))
        self.run(self.tables.start(self.table_id, MEMBERS[0]))

    @rule(step=st.sampled_from(STEPS))
    def time_passes(self, step: int) -> None:
        self.clock.advance(step)
        self.tick()

    @rule()
    def time_passes_to_the_next_deadline(self) -> None:
        """To the next deadline, vote's end or reminder, where things happen."""
        pending = [t for t in self.run(self.store.open_turns(self.table_id)).values()]
        times = [t.due_at for t in pending if t.fired_at is None and t.due_at is not None]
        times += [t.vote_due for t in pending if t.vote_due is not None]
        times += [r.due_at for r in self.run(self.store.due_reminders(epoch(self.clock) + DAY))]
        ahead = [at for at in times if at > epoch(self.clock)]
        self.clock.advance(min(ahead, default=epoch(self.clock) + HOUR) - epoch(self.clock))
        self.tick()

    @rule()
    def time_passes_again(self) -> None:
        """The same, twice as often: deadlines are where the promises are tested."""
        self.time_passes_to_the_next_deadline()

    @rule(who=st.sampled_from(EVERYONE), pick=st.integers(0, 3))
    def a_member_moves(self, who: Member, pick: int) -> None:
        if not self.playing():
            return
        moves = self.run(self.tables.legal_moves(self.table_id, who))
        if not moves:
            return
        try:
            self.run(self.tables.act(self.table_id, who, moves[pick % len(moves)]))
        except RulesError:
            return
        self.check_present(who)

    @precondition(lambda self: self.absent)
    @rule(who=st.sampled_from(EVERYONE))
    def a_member_looks_at_the_table(self, who: Member) -> None:
        """``/hand``, a button, ``/game back``: any action at the table."""
        if self.seat_of(who) is None:
            return
        self.run(self.scheduler.present(self.table_id, who.id))
        self.check_present(who)

    def check_present(self, who: Member) -> None:
        seat = self.seat_of(who)
        if seat is None or not self.playing():
            return
        clock = self.run(self.store.seat_clocks(self.table_id)).get(seat)
        assert clock is None or not clock.absent, "a member who acts is absent"

    @rule(who=st.sampled_from(EVERYONE), ahead=st.sampled_from([0, 2 * HOUR, DAY]),
          days=st.integers(0, 2))
    def a_holiday(self, who: Member, ahead: int, days: int) -> None:
        mine = self.run(self.scheduler.settings(who.id))
        day = (self.clock.now() + timedelta(seconds=ahead)).strftime("%Y-%m-%d") if ahead \
            else None
        try:
            mine = plan_holiday(mine, self.clock.now(), days, day)
        except TableError:
            return
        self.run(self.scheduler.save_settings(mine))

    @rule(who=st.sampled_from(EVERYONE))
    def back_from_holiday(self, who: Member) -> None:
        """``/game back``: a holiday under way ends now, an absent seat is the member's again."""
        if self.seat_of(who) is None or not self.playing():
            return
        self.run(self.scheduler.come_back(self.table_id, who.id))
        mine = self.run(self.scheduler.settings(who.id))
        assert not mine.away(epoch(self.clock)), "still on holiday after /game back"
        self.check_present(who)

    @rule(who=st.sampled_from(EVERYONE), start=st.integers(0, 23),
          length=st.sampled_from([0, 1, 6, 12]), zone=st.sampled_from(["UTC", "Asia/Tokyo"]))
    def quiet_hours(self, who: Member, start: int, length: int, zone: str) -> None:
        mine = self.run(self.scheduler.settings(who.id))
        if length == 0:
            mine = replace(mine, quiet_start=None, quiet_end=None)
        else:
            mine = replace(mine, tz=zone, quiet_start=f"{start:02d}:00",
                           quiet_end=f"{(start + length) % 24:02d}:00")
        self.run(self.scheduler.save_settings(mine))

    @rule(pause=st.booleans())
    def pause_or_resume(self, pause: bool) -> None:
        try:
            if pause:
                self.run(self.scheduler.pause(self.table_id, MEMBERS[0], "a break"))
            else:
                self.run(self.scheduler.resume(self.table_id, MEMBERS[0]))
        except TableError:
            return

    @precondition(lambda self: self.voting)
    @rule(pick=st.integers(0, 3), choice=st.sampled_from(VOTE_CHOICES))
    def a_vote(self, pick: int, choice: str) -> None:
        for turn in self.run(self.store.open_turns(self.table_id)).values():
            voters = self.run(self.scheduler.voters(self.table_id, turn.seat))
            if turn.vote_due is None or not voters:
                continue
            who = next(m for m in EVERYONE if m.id == voters[pick % len(voters)])
            self.run(self.scheduler.vote(turn.id, turn.round, who, choice))
            self.check_fired()

    @precondition(lambda self: self.voting)
    @rule(pick=st.integers(0, 3), choice=st.sampled_from(VOTE_CHOICES))
    def another_vote(self, pick: int, choice: str) -> None:
        self.a_vote(pick, choice)

    @rule(seat=st.integers(0, 2), newcomer=st.sampled_from(EVERYONE))
    def a_substitute(self, seat: int, newcomer: Member) -> None:
        try:
            self.run(self.scheduler.substitute(self.table_id, seat, newcomer, MEMBERS[0]))
        except RulesError:
            return

    @rule(by=st.sampled_from([None, "2h"]))
    def an_extension(self, by: str | None) -> None:
        try:
            self.run(self.scheduler.extend(self.table_id, MEMBERS[0], by))
        except TableError:
            return

    @rule()
    def a_restart(self) -> None:
        self.run(self.store.close())
        self.open_services()
        self.run(self.scheduler.sync())
        self.run(self.scheduler.recover())
        self.check_fired()

    @precondition(lambda self: self.table_id)
    @rule(point=st.sampled_from(CRASH_POINTS))
    def a_crash_while_firing(self, point: str) -> None:
        """Time runs to the next deadline or vote's end, and the process dies at ``point`` if
        the tick gets there; then it starts again."""
        async def die(*args: Any, **kwargs: Any) -> Any:
            raise Died(point)

        owner, name = {
            "open_vote": (self.store, "open_vote"),
            "deadline move": (firing_module, "move_for"),
            "vote move": (votes_module, "move_for"),
            "replan": (self.scheduler.deadlines, "replan"),
        }[point]
        real = getattr(owner, name)
        setattr(owner, name, die)
        try:
            self.time_passes_to_the_next_deadline()
        except Died:
            pass
        finally:
            setattr(owner, name, real)
        self.a_restart()

    @invariant()
    def every_open_turn_waits_on_one_deadline_or_says_why_not(self) -> None:
        if not self.table_id:
            return
        rows = self.run(self.store.open_turns(self.table_id))
        seats = [r[0] for r in self.run(self.raw(
            "SELECT seat FROM turns WHERE table_id = ? AND ended_at IS NULL", self.table_id))]
        assert len(seats) == len(set(seats)), "a seat with two open turns"
        clock = self.run(self.store.table_clock(self.table_id))
        paused = clock is not None and clock.paused_at is not None
        now = epoch(self.clock)
        self.voting = any(t.vote_due is not None for t in rows.values())
        self.absent = any(c.absent for c in self.run(self.store.seat_clocks(self.table_id))
                          .values())
        for turn in rows.values():
            waiting = turn.fired_at is not None  # a vote, a table that waits, a substitute
            assert turn.due_at is not None or waiting
            if not waiting and not paused and turn.due_at is not None:
                # Every rule ticks after time passes, and a re-plan never moves a deadline
                # behind the time now: one not yet fired is ahead.
                assert turn.due_at > now, "a deadline in the past, not fired"
            if waiting and self.policy == "vote" and not paused:
                assert turn.vote_due is not None or turn.vote_state == "done", \
                    "a seat out of time that nobody votes on"
            if turn.vote_due is not None:
                assert turn.fired_at is not None
                assert paused or turn.vote_due > now, "a vote outlived its deadline"
                assert turn.vote_due <= now + DAY or paused
        if self.playing():
            loaded = self.run(self.tables.live.load(self.table_id))
            humans = {s.position for s in loaded.seats if not s.is_computer}
            assert loaded.state is not None
            owed = set(loaded.game.active_seats(loaded.state)) & humans
            assert owed == set(rows), "an owed move without a turn, or a turn without one"

    @invariant()
    def holiday_never_takes_more_than_the_allowance_left(self) -> None:
        """Across every turn of a seat: its holiday used stays within the table's allowance,
        and an open turn's deadline is pushed by holiday at most the allowance still left
        (checked where quiet hours push nothing else: a table that ignores them)."""
        if not self.table_id:
            return
        clocks = self.run(self.store.seat_clocks(self.table_id))
        for clock in clocks.values():
            assert clock.holiday_used <= self.allowance, "more holiday than the allowance"
        if not self.ignore_quiet:
            return
        timing = self.run(self.scheduler.timing(self.table_id))
        for turn in self.run(self.store.open_turns(self.table_id)).values():
            clock = clocks.get(turn.seat)
            if turn.due_at is None or turn.fired_at is not None or clock is None:
                continue
            span = turn_span(timing, clock)
            left = max(0, self.allowance - clock.holiday_used)
            pushed = turn.due_at - turn.started_at - span - turn.extra
            assert pushed <= left + quiet_lead(timing.period), (
                "a deadline pushed by more holiday than is left", pushed, left)

    async def raw(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        found = await self.store._db.query(rows(sql, *params))
        return [tuple(r) for r in found]

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        Path(self.target).unlink(missing_ok=True)
        rules.GAMES.pop(PEBBLES.id, None)


@pytest.mark.parametrize("policy", ["autopilot", "skip", "vote", "wait"])
def test_asynchronous_play_keeps_its_promises(policy: str, request: pytest.FixtureRequest
                                              ) -> None:
    folder = tempfile.TemporaryDirectory()
    request.addfinalizer(folder.cleanup)

    class Machine(PaceMachine):
        pass

    Machine.folder = folder.name
    Machine.policy = policy
    run_state_machine_as_test(Machine, settings=settings(
        max_examples=examples(12), stateful_step_count=50, deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    ))
