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
- a member is reminded at most once per deadline, never in their quiet hours;
- every open turn's deadline is the one an independent statement of the rules gives
  (``tests/bot/pace/reference.py``: period or bank or an absent seat's grace, the holiday up
  to the allowance left, quiet hours in the member's zone), from the turn's start and the
  time the table added; a vote lasts no longer than half the period, at most a day;
- a seat's holiday used adds up across its turns the time its member was away in each, up
  to the allowance; a bank after its member's move is what was left plus the increment;
- a seat offered to a substitute goes to whoever takes it, or, unclaimed when the offer
  ends, to the computer;
- a turn two processes both saw due fires once.

``REACHED`` counts what the runs got to (bank deadlines checked, the allowance used up, a
vote at its one-day cap, ...): each run reports them as hypothesis events, and targeted
examples below show each is reached.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from dataclasses import replace
from datetime import datetime, time, timedelta
from itertools import count
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
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
from bot.store import Store, open_store
from bot.store.records import SeatClock, TurnRecord
from bot.store.sql.script import rows
from bot.values import Member, TableError
from rules.core import RulesError
from tests.bot.pace import reference as ref
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
PERIODS = {"10m": 10 * MINUTE, "1h": HOUR, "1d": DAY, "3d": 3 * DAY}
# What the runs reached, over every machine of the process (see the module's doc).
REACHED: Counter[str] = Counter()


def reached(what: str) -> None:
    REACHED[what] += 1
    try:
        event(what)
    except InvalidArgument:
        pass  # a targeted example drives the machine outside a hypothesis test


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
        self.offering = False  # a seat offered to a substitute (as of the last check)
        self.absent = False  # an absent seat (as of the last check)
        self.table_rules = ref.TableRules(HOUR)
        # Each member's time as the model set it, and the spells they were really away.
        self.member_time = {m.id: ref.MemberTime() for m in EVERYONE}
        self.spells: dict[int, list[tuple[int, int]]] = {m.id: [] for m in EVERYONE}
        self.uncharged: set[int] = set()  # turns a substitution ended
        # The table's pauses: [from, to] (to None while it lasts). A turn ended during one is
        # charged only up to its start: the table's clock stood still.
        self.pauses: list[tuple[int, int | None]] = []
        # What each vote decided as it ended, and among whom: (turn id, round) -> both.
        self.decided: dict[tuple[int, int], tuple[str | None, frozenset[int]]] = {}
        self.open_services()

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def open_services(self) -> None:
        self.store = self.run(open_store(self.target))
        self.tables, self.scheduler = paced(self.store, self.clock)
        self.watch(self.store)

    def watch(self, store: Store) -> None:
        """Every deadline ``store`` claims is checked (``check_fired``)."""
        claim = store.claim_turn

        async def watched(turn_id: int, now: int) -> bool:
            before = await store.get_turn(turn_id)
            won = await claim(turn_id, now)
            if won and before is not None:
                self.fired.append((before, now))
            return won

        store.claim_turn = watched  # type: ignore[method-assign]

    def tick(self) -> None:
        offered = {t.id: t for t in self.offered_turns()}
        for item in self.run(self.scheduler.tick()):
            if isinstance(item, Reminder):
                self.check_reminder(item)
        self.check_fired()
        self.check_unclaimed(offered)

    def offered_turns(self) -> list[TurnRecord]:
        """Open turns whose seat the table offers to a substitute (the vote of the turn's
        round said so, counted among the voters as it ended; the offer has not run out)."""
        if not self.table_id or self.policy != "vote":
            return []
        out = []
        for turn in self.run(self.store.open_turns(self.table_id)).values():
            if turn.vote_state != "done" or turn.fired_at is not None:
                continue
            key = (turn.id, turn.round)
            if key not in self.decided:
                voters = self.voters(turn.seat)
                cast = self.run(self.store.votes_cast(turn.id, turn.round))
                ranked = Counter(c for m, c in cast.items() if m in voters).most_common()
                won = ranked[0][0] if ranked and (
                    len(ranked) == 1 or ranked[1][1] < ranked[0][1]) else None
                self.decided[key] = (won, voters)
            if self.decided[key][0] == "substitute":
                out.append(turn)
        return out

    def voters(self, seat: int) -> frozenset[int]:
        return frozenset(s.member_id for s in self.run(self.tables.seats(self.table_id))
                         if s.position != seat and s.member_id is not None)

    def check_unclaimed(self, offered: dict[int, TurnRecord]) -> None:
        """An offer that ran out with nobody taking the seat: the computer plays it."""
        if not offered or not self.playing():
            return
        clocks = self.run(self.store.seat_clocks(self.table_id))
        seated = {s.position: s.member_id for s in self.run(self.tables.seats(self.table_id))}
        for turn in offered.values():
            after = self.run(self.store.get_turn(turn.id))
            if after is None or after.round == turn.round or seated[turn.seat] != turn.member_id:
                continue
            assert clocks[turn.seat].absent, "an offered seat nobody took is not the computer's"
            reached("substitute not taken")

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
    # allowance runs out across turns; ninety days never does. A bank starts at the period.
    @initialize(pace=st.sampled_from(["10m", "1h", "1d", "3d"]), ignore_quiet=st.booleans(),
                absent_after=st.integers(1, 2), allowance=st.sampled_from([1, 90]),
                bank=st.booleans())
    def a_timed_game(self, pace: str, ignore_quiet: bool, absent_after: int,
                     allowance: int, bank: bool = False) -> None:
        self.ignore_quiet = ignore_quiet
        self.allowance = allowance * DAY
        self.table_rules = ref.TableRules(PERIODS[pace], bank, allowance, not ignore_quiet)
        # A fixed seed: the same steps replay the same game (hypothesis replays to shrink).
        opened = self.run(self.tables.open("pebbles", CHANNEL, MEMBERS[0], seat_order="join",
                                           seed="model", options={"turns": 12, "first": 0}))
        self.table_id = opened.table_id
        timing = make_timing("custom", duration=pace, bank=bank, policy=self.policy,
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
        seat = self.seat_of(who)
        turn = self.run(self.store.open_turns(self.table_id)).get(seat) \
            if seat is not None else None
        before = self.run(self.store.seat_clocks(self.table_id)).get(seat or 0)
        try:
            self.run(self.tables.act(self.table_id, who, moves[pick % len(moves)]))
        except RulesError:
            return
        self.check_present(who)
        if turn is not None and before is not None:
            self.check_bank(turn, before)

    def check_bank(self, turn: TurnRecord, before: SeatClock) -> None:
        """A bank after its member's move: what was left, less the time the turn took (its
        holiday not counted), plus the increment, at most the cap."""
        clock = self.run(self.store.table_clock(self.table_id))
        if not self.table_rules.bank or not self.playing() or (clock and clock.paused_at):
            return
        ended = self.run(self.store.get_turn(turn.id))
        assert ended is not None
        if ended.ended_at is None:
            return
        after = self.run(self.store.seat_clocks(self.table_id))[turn.seat]
        off = after.holiday_used - before.holiday_used
        spent = ended.ended_at - turn.started_at - off
        assert after.bank == ref.bank_after(self.table_rules, before.bank, spent), (
            "a bank that is not what was left plus the increment", before.bank, spent, after)
        reached("bank after a move checked")

    @rule(pick=st.integers(0, 3))
    def a_member_owed_a_move_moves(self, pick: int) -> None:
        """One of the members the table waits on moves (on holiday or not): games move on,
        and a holiday spans several of a seat's turns."""
        if not self.playing():
            return
        owing = sorted(t.member_id for t in
                       self.run(self.store.open_turns(self.table_id)).values()
                       if t.member_id is not None)
        if owing:
            who = next(m for m in EVERYONE if m.id == owing[pick % len(owing)])
            self.a_member_moves(who, pick)

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
        """``/settings holiday_days`` (from today, or ``holiday_from`` a date ahead); 0 ends
        a holiday under way, or cancels one planned."""
        mine = self.run(self.scheduler.settings(who.id))
        day = (self.clock.now() + timedelta(seconds=ahead)).strftime("%Y-%m-%d") if ahead \
            else None
        try:
            mine = plan_holiday(mine, self.clock.now(), days, day)
        except TableError:
            return
        expected = self.holiday_asked(who.id, days, day)
        assert (mine.away_from, mine.away_until) == (expected or (None, None))
        self.run(self.scheduler.save_settings(mine))
        self.now_away(who.id, expected)

    def holiday_asked(self, member_id: int, days: int, day: str | None
                      ) -> tuple[int, int] | None:
        """The holiday the settings ask for, as the model understands them."""
        now = epoch(self.clock)
        away = self.member_time[member_id].away
        if days == 0:
            return (away[0], now) if away is not None and away[0] <= now < away[1] else None
        begin = now
        if day is not None:
            zone = ZoneInfo(self.member_time[member_id].zone)
            midnight = datetime.combine(datetime.strptime(day, "%Y-%m-%d").date(), time(0, 0),
                                        zone)
            begin = max(now, int(midnight.timestamp()))
        return begin, begin + days * DAY

    def now_away(self, member_id: int, away: tuple[int, int] | None) -> None:
        """The member's holiday is ``away`` from now: one under way ends now, one planned and
        not begun never happens."""
        if away == self.member_time[member_id].away:
            return
        now, spells = epoch(self.clock), self.spells[member_id]
        if spells:
            begun, until = spells.pop()
            if begun < now:
                spells.append((begun, min(until, now)))
        if away is not None and away[0] >= now:
            spells.append(away)
        self.member_time[member_id] = replace(self.member_time[member_id], away=away)

    @rule(who=st.sampled_from(EVERYONE))
    def back_from_holiday(self, who: Member) -> None:
        """``/game back``: a holiday under way ends now, an absent seat is the member's again."""
        if self.seat_of(who) is None or not self.playing():
            return
        self.run(self.scheduler.come_back(self.table_id, who.id))
        mine = self.run(self.scheduler.settings(who.id))
        assert not mine.away(epoch(self.clock)), "still on holiday after /game back"
        away, now = self.member_time[who.id].away, epoch(self.clock)
        if away is not None and away[0] <= now < away[1]:
            self.now_away(who.id, (away[0], now))
        self.check_present(who)

    @rule(who=st.sampled_from(EVERYONE), start=st.integers(0, 23),
          length=st.sampled_from([0, 1, 6, 12]), zone=st.sampled_from(["UTC", "Asia/Tokyo"]))
    def quiet_hours(self, who: Member, start: int, length: int, zone: str) -> None:
        mine = self.run(self.scheduler.settings(who.id))
        if length == 0:
            mine = replace(mine, quiet_start=None, quiet_end=None)
            quiet = None
        else:
            quiet = (f"{start:02d}:00", f"{(start + length) % 24:02d}:00")
            mine = replace(mine, tz=zone, quiet_start=quiet[0], quiet_end=quiet[1])
        self.run(self.scheduler.save_settings(mine))
        self.member_time[who.id] = replace(self.member_time[who.id], zone=mine.tz, quiet=quiet)

    @rule(pause=st.booleans())
    def pause_or_resume(self, pause: bool) -> None:
        try:
            if pause:
                self.run(self.scheduler.pause(self.table_id, MEMBERS[0], "a break"))
            else:
                self.run(self.scheduler.resume(self.table_id, MEMBERS[0]))
        except TableError:
            return
        clock = self.run(self.store.table_clock(self.table_id))
        paused = clock is not None and clock.paused_at is not None
        if paused and (not self.pauses or self.pauses[-1][1] is not None):
            assert clock is not None and clock.paused_at is not None
            self.pauses.append((clock.paused_at, None))
        elif not paused and self.pauses and self.pauses[-1][1] is None:
            self.pauses[-1] = (self.pauses[-1][0], epoch(self.clock))

    def charged_until(self, end: int) -> int:
        """Where a turn that ended at ``end`` is charged up to, at the least: the start of a
        pause it may have ended in (a move at the instant of a resume may come either side)."""
        for start, stop in self.pauses:
            if start <= end and (stop is None or end <= stop):
                return start
        return end

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
        self.hand_over(seat, newcomer, MEMBERS[0])

    def hand_over(self, seat: int, newcomer: Member, by: Member) -> bool:
        """The seat is the newcomer's. The open turn it ends is its old member's, whose
        holiday in it the seat is not charged (the table keeps no settings of a member who
        left it)."""
        turn = self.run(self.store.open_turns(self.table_id)).get(seat)
        try:
            self.run(self.scheduler.substitute(self.table_id, seat, newcomer, by))
        except RulesError:
            return False
        if turn is not None:
            self.uncharged.add(turn.id)
        return True

    @precondition(lambda self: self.offering)
    @rule(newcomer=st.sampled_from(EVERYONE))
    def someone_takes_the_offered_seat(self, newcomer: Member) -> None:
        """**Take this seat** on the table's offer (the advert acts with its author's say-so):
        the seat is the newcomer's, and its turn starts afresh."""
        offered = self.offered_turns()
        if not offered or self.seat_of(newcomer) is not None:
            return
        turn = offered[0]
        assert self.hand_over(turn.seat, newcomer, Member(MEMBERS[0].id, "advert",
                                                          is_admin=True))
        assert self.seat_of(newcomer) == turn.seat
        after = self.run(self.store.open_turns(self.table_id)).get(turn.seat)
        assert after is None or (after.member_id == newcomer.id and after.fired_at is None
                                 and after.started_at == epoch(self.clock)), after
        reached("substitute taken")

    @rule()
    def two_processes_see_one_deadline_due(self) -> None:
        """Another process read the same due deadlines and claims each after this one fired
        it (it fires what it wins): each deadline still fires once."""
        pending = [t.due_at for t in self.run(self.store.open_turns(self.table_id)).values()
                   if t.fired_at is None and t.due_at is not None]
        if not pending:
            return
        self.clock.advance(max(0, min(pending) - epoch(self.clock)))
        now = epoch(self.clock)
        seen = self.run(self.store.due_turns(now))
        self.tick()
        for turn in seen:
            if self.run(self.store.claim_turn(turn.id, now)):
                self.run(self.scheduler.firing._expire(turn))
        self.check_fired()
        if seen:
            reached("a deadline two processes saw due")

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
        self.offering = bool(self.offered_turns())
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
                span = ref.vote_span(self.table_rules.period)
                assert paused or turn.vote_due - now <= span, "a vote longer than its span"
                if span == DAY:
                    reached("a vote at its one-day cap")
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
        offered = {t.id for t in self.offered_turns()}  # waiting for the offer's end
        for turn in self.run(self.store.open_turns(self.table_id)).values():
            clock = clocks.get(turn.seat)
            if turn.due_at is None or turn.fired_at is not None or clock is None \
                    or turn.id in offered:
                continue
            span = turn_span(timing, clock)
            left = max(0, self.allowance - clock.holiday_used)
            pushed = turn.due_at - turn.started_at - span - turn.extra
            assert pushed <= left + quiet_lead(timing.period), (
                "a deadline pushed by more holiday than is left", pushed, left)

    @invariant()
    def every_deadline_is_the_one_the_rules_give(self) -> None:
        """Compared with ``reference.deadline`` from the turn's start and added time, its
        seat's clock and its member's time as the model set it (a seat offered to a
        substitute waits for the offer's end instead)."""
        if not self.table_id or not self.playing():
            return
        clocks = self.run(self.store.seat_clocks(self.table_id))
        offered = {t.id for t in self.offered_turns()}
        for turn in self.run(self.store.open_turns(self.table_id)).values():
            if turn.member_id is None:
                continue
            stored = self.run(self.scheduler.settings(turn.member_id))
            mine = self.member_time[turn.member_id]
            assert ((stored.away_from, stored.away_until) == (mine.away or (None, None))
                    and stored.tz == mine.zone), "settings the member did not choose"
            if turn.fired_at is not None or turn.due_at is None or turn.id in offered:
                continue
            clock = clocks.get(turn.seat) or SeatClock(turn.seat, bank=self.table_rules.period)
            seat = ref.SeatTime(clock.bank, clock.absent, clock.holiday_used)
            expected = ref.deadline(self.table_rules, seat, mine, turn.started_at, turn.extra)
            assert turn.due_at == expected, ("a deadline the rules do not give", turn,
                                             expected, seat, mine)
            reached("deadline checked")
            if self.table_rules.bank:
                reached("bank deadline checked")
            if clock.absent:
                reached("absent seat's grace checked")
            if mine.away is not None and mine.away[0] < turn.due_at \
                    and mine.away[1] > turn.started_at:
                reached("deadline over a holiday checked")

    @invariant()
    def holiday_used_adds_up_across_turns(self) -> None:
        """A seat's holiday used is the time its members were away in its ended turns, each
        up to what the allowance left (and, charged early when a holiday changed, part of
        the open turn's)."""
        if not self.table_id or not self.playing():
            return
        # A turn's start moves on by a pause; a holiday changed during the pause is charged
        # from where it was (``created_at``), so that is where the most it may charge starts.
        turns = self.run(self.raw(
            "SELECT id, seat, member_id, created_at, started_at, ended_at FROM turns"
            " WHERE table_id = ? AND member_id IS NOT NULL ORDER BY ended_at IS NULL,"
            " ended_at, id", self.table_id))
        now = epoch(self.clock)
        # The allowance is each player's: a substitute starts with none of it used.
        since = {c.seat: c.at for c in self.run(self.store.seat_changes(self.table_id))}
        turns = [t for t in turns if t[3] >= since.get(t[1], t[3])]
        for seat, clock in self.run(self.store.seat_clocks(self.table_id)).items():
            ended = [(i, ref.away_within(self.spells[m], start, self.charged_until(end)),
                      ref.away_within(self.spells[m], min(made, start), end))
                     for i, s, m, made, start, end in turns if s == seat and end is not None]
            # A turn a substitution ended is charged only what a change of holiday charged
            # early (at most all it was away); an open turn, what such a change charged.
            least = ref.holiday_used(self.table_rules, [a for i, a, _ in ended
                                                  if i not in self.uncharged])
            most = ref.holiday_used(self.table_rules, [
                *(a for _, _, a in ended),
                *(ref.away_within(self.spells[m], min(made, start), now)
                  for _, s, m, made, start, end in turns if s == seat and end is None)])
            assert least <= clock.holiday_used <= most, (
                "holiday used does not add up across turns", seat, clock, least, most)
            if len([a for _, a, _ in ended if a]) > 1:
                reached("holiday added up across turns")
            if clock.holiday_used == self.allowance:
                reached("holiday allowance used up")

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
        max_examples=examples(25), stateful_step_count=50, deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    ))


def checked(machine: PaceMachine) -> None:
    """Every invariant of the machine, as hypothesis checks them after each step."""
    machine.every_open_turn_waits_on_one_deadline_or_says_why_not()
    machine.holiday_never_takes_more_than_the_allowance_left()
    machine.every_deadline_is_the_one_the_rules_give()
    machine.holiday_used_adds_up_across_turns()


def a_seat_offered(tmp_path: Path) -> PaceMachine:
    """A vote table with a time bank of three days and a one-day holiday allowance: Ann,
    first to move, goes on holiday for two days; her deadline takes one day of it; out of
    time, the others vote for a substitute, and the vote lasts its one-day cap."""

    class Machine(PaceMachine):
        folder = str(tmp_path)
        policy = "vote"

    machine = Machine()
    machine.a_timed_game(pace="3d", ignore_quiet=True, absent_after=1, allowance=1, bank=True)
    checked(machine)
    machine.a_holiday(who=MEMBERS[0], ahead=0, days=2)
    checked(machine)
    for _ in range(4):  # a reminder, then the deadline
        if machine.voting:
            break
        machine.time_passes_to_the_next_deadline()
        checked(machine)
    assert machine.voting
    # A new holiday planned while the first is still on: the day taken so far is charged.
    machine.a_holiday(who=MEMBERS[0], ahead=DAY, days=1)
    checked(machine)
    machine.a_vote(pick=0, choice="substitute")
    checked(machine)
    if machine.voting:
        machine.a_vote(pick=1, choice="substitute")
        checked(machine)
    assert machine.offering
    return machine


def test_the_model_reaches_a_bank_the_allowance_limit_the_vote_cap_and_a_taker(
        tmp_path: Path) -> None:
    before = REACHED.copy()
    machine = a_seat_offered(tmp_path)
    try:
        machine.someone_takes_the_offered_seat(newcomer=SPARE)
        checked(machine)
    finally:
        machine.teardown()
    got = REACHED - before
    for what in ("bank deadline checked", "deadline over a holiday checked",
                 "a vote at its one-day cap", "holiday allowance used up",
                 "substitute taken"):
        assert got[what] > 0, what


def test_the_model_reaches_an_offer_nobody_takes(tmp_path: Path) -> None:
    before = REACHED.copy()
    machine = a_seat_offered(tmp_path)
    try:
        for _ in range(4):
            if not machine.offering:
                break
            machine.time_passes_to_the_next_deadline()
            checked(machine)
    finally:
        machine.teardown()
    assert (REACHED - before)["substitute not taken"] > 0


def test_an_offer_outlives_a_change_of_voters(tmp_path: Path) -> None:
    """Ben alone votes to look for a substitute for Ann (the vote ends at its deadline, his
    vote the only one); Ben then hands his seat to Dee. Nobody takes Ann's seat: when the
    offer runs out, the computer plays it (docs/playing.md), as the table was told."""

    class Machine(PaceMachine):
        folder = str(tmp_path)
        policy = "vote"

    machine = Machine()
    try:
        machine.a_timed_game(pace="1d", ignore_quiet=True, absent_after=3, allowance=90)
        for _ in range(4):
            if machine.voting:
                break
            machine.time_passes_to_the_next_deadline()
            machine.every_open_turn_waits_on_one_deadline_or_says_why_not()
        machine.a_vote(pick=0, choice="substitute")  # Ben, one of two voters: not settled
        for _ in range(4):  # the vote ends at its deadline: look for a substitute
            if not machine.voting:
                break
            machine.time_passes_to_the_next_deadline()
            machine.every_open_turn_waits_on_one_deadline_or_says_why_not()
        (offered,) = machine.offered_turns()
        assert offered.seat == 0
        assert machine.hand_over(1, SPARE, MEMBERS[0])  # Ben's seat is Dee's
        for _ in range(4):  # the offer runs out
            if machine.run(machine.store.get_turn(offered.id)) != offered:
                break
            machine.time_passes_to_the_next_deadline()
        clock = machine.run(machine.store.seat_clocks(machine.table_id))[0]
        turn = machine.run(machine.store.get_turn(offered.id))
        assert turn is not None and turn.vote_due is None, "a new vote on the offered seat"
        assert clock.absent, "the computer does not play the seat nobody took"
    finally:
        machine.teardown()


def test_a_holiday_replaced_during_a_pause_moves_the_deadline_once(tmp_path: Path) -> None:
    """Ann's turn is open when the table pauses; she goes on holiday at once, and twelve
    hours later, still paused, plans her next one for a week ahead instead. The table
    resumes then: her deadline moves on by the twelve hours the clock stood still, once (as
    it does when she ends the holiday instead of replacing it)."""

    class Machine(PaceMachine):
        folder = str(tmp_path)
        policy = "autopilot"

    machine = Machine()
    try:
        machine.a_timed_game(pace="1d", ignore_quiet=True, absent_after=3, allowance=90)
        (turn,) = machine.run(machine.store.open_turns(machine.table_id)).values()
        assert turn.member_id == MEMBERS[0].id and turn.due_at == turn.started_at + DAY
        machine.pause_or_resume(pause=True)
        machine.a_holiday(who=MEMBERS[0], ahead=0, days=1)
        machine.clock.advance(12 * HOUR)
        later = (machine.clock.now() + timedelta(days=7)).strftime("%Y-%m-%d")
        mine = plan_holiday(machine.run(machine.scheduler.settings(MEMBERS[0].id)),
                            machine.clock.now(), 1, later)
        machine.run(machine.scheduler.save_settings(mine))
        machine.pause_or_resume(pause=False)
        after = machine.run(machine.store.open_turns(machine.table_id))[0]
        assert after.due_at == turn.due_at + 12 * HOUR, (after.due_at - turn.due_at) / HOUR
    finally:
        machine.teardown()


@pytest.mark.parametrize("ends_it", [True, False], ids=["holiday ended", "holiday kept"])
def test_a_move_during_a_pause_charges_no_holiday_taken_while_paused(
        tmp_path: Path, ends_it: bool) -> None:
    """The table pauses; Ann goes on holiday for a day, and a day later, still paused, ends it
    (or not) and moves. Her clock stood still the whole time: the turn is charged nothing of
    her one-day allowance either way (it was charged the whole day when she kept the holiday,
    nothing when she ended it)."""

    class Machine(PaceMachine):
        folder = str(tmp_path)
        policy = "autopilot"

    machine = Machine()
    try:
        machine.a_timed_game(pace="10m", ignore_quiet=False, absent_after=1, allowance=1)
        machine.pause_or_resume(pause=True)
        machine.a_holiday(who=MEMBERS[0], ahead=0, days=1)
        machine.clock.advance(DAY)
        if ends_it:
            machine.a_holiday(who=MEMBERS[0], ahead=0, days=0)
        (turn,) = machine.run(machine.store.open_turns(machine.table_id)).values()
        assert turn.member_id == MEMBERS[0].id
        machine.a_member_moves(MEMBERS[0], 0)
        assert machine.run(machine.store.get_turn(turn.id)).ended_at is not None
        clock = machine.run(machine.store.seat_clocks(machine.table_id))[turn.seat]
        assert clock.holiday_used == 0
        machine.holiday_used_adds_up_across_turns()
    finally:
        machine.teardown()


def test_a_substitute_has_a_holiday_allowance_of_their_own(tmp_path: Path) -> None:
    """Holidays are covered "up to the table's allowance, 7 days per player per table"
    (docs/playing.md). Ann uses her whole one-day allowance; Dee takes her seat and goes on
    holiday for a day: Dee's deadline moves on by that day."""

    class Machine(PaceMachine):
        folder = str(tmp_path)
        policy = "autopilot"

    machine = Machine()
    try:
        machine.a_timed_game(pace="1d", ignore_quiet=True, absent_after=3, allowance=1)
        machine.a_holiday(who=MEMBERS[0], ahead=0, days=2)
        machine.clock.advance(36 * HOUR)
        machine.a_member_moves(who=MEMBERS[0], pick=0)
        used = machine.run(machine.store.seat_clocks(machine.table_id))[0].holiday_used
        assert used == DAY  # Ann's allowance, all used
        assert machine.hand_over(0, SPARE, MEMBERS[0])
        machine.a_holiday(who=SPARE, ahead=0, days=1)
        checked(machine)
        for _ in range(3):  # Ben and Cy move: the seat owes a move again, now Dee's
            if 0 in machine.run(machine.store.open_turns(machine.table_id)):
                break
            machine.a_member_owed_a_move_moves(pick=0)
        turn = machine.run(machine.store.open_turns(machine.table_id))[0]
        assert turn.member_id == SPARE.id
        assert turn.started_at == epoch(machine.clock)  # as her holiday begins
        assert turn.due_at == turn.started_at + DAY + DAY  # the period, then the holiday
    finally:
        machine.teardown()
