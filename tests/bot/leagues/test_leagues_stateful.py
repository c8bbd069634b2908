"""A league season at random (hypothesis state machine): sign-ups and departures, rounds
(forced or not, with deadlines), moves until games end, forfeits, walk-outs, substitutions by
the organiser, voids, corrected placings, rebuilds, and tables nobody sanctioned. After every
step:

- every finished game of a sanctioned table has exactly one result, every seat in it placed
  or forfeited (a finished game: over, or abandoned after a forfeit);
- the stored ratings equal a fresh replay of the stored results, and the ratings recomputed
  with ``openskill`` directly from them (``rating_reference``, apart from the league code);
- a voided result stays void and is never corrected;
- no member sits at two live tables of one open round, and a league has one open round at most;
- no table nobody sanctioned has a result (so none changes the standings);
- a round cut short by a crash while its tables open (finished or rolled back by a restart):
  no member sits in two open rounds of one league, and every table of a closed round is
  finished or forfeited (none is left live), also after a forced close.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.results import placed_at, replay
from bot.leagues.rounds import Rounds
from bot.pace.clock import FakeClock
from bot.pace.scheduler import paced
from bot.store import LeagueSettings, Status
from bot.values import Member, TableError
from tests.bot.leagues import rating_reference
from tests.bot.store.stateful_stores import StoreMachine, give_stores
from tests.examples import examples

GUILD = 5
ORGANISER = Member(99, "Org", is_admin=True)
MEMBERS = [Member(i, f"M{i}") for i in range(1, 7)]
STRANGER = Member(50, "Stranger")


class Crash(Exception):
    """The process dies here."""


def crash_on(calls: int, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``method``, dying on its ``calls``-th call (from 1)."""
    seen = count(1)

    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        if next(seen) == calls:
            raise Crash
        return await method(*args, **kwargs)

    return wrapped


class LeagueMachine(StoreMachine):
    def __init__(self) -> None:
        super().__init__()
        self.now = datetime(2025, 3, 1, 12, tzinfo=UTC)
        self.start()
        self.channels = count(1000)
        self.league_id = 0
        self.corrected: set[int] = set()
        self.voided: dict[int, tuple[object, ...]] = {}  # result id -> its places when voided

    def start(self) -> None:
        """The services a (re)started process builds over the store."""
        self.tables, scheduler = paced(self.store, FakeClock())
        self.leagues = Leagues(self.store, self.tables.games, clock=lambda: self.now)
        self.tables.live.on_over = self.leagues.recorder.record
        self.rounds = Rounds(self.leagues, self.tables)
        self.referee = Referee(self.rounds)
        self.hand_over = scheduler.substitute

    def live_tables(self) -> list[int]:
        return [t.id for t in self.run(self.store.tables_with_status(Status.PLAYING))]

    # Four or more signed up: rounds of two tables (of at most three seats) come often, so a
    # round closed when one of its tables ends, not all, is seen.
    @initialize(signed=st.sets(st.sampled_from(MEMBERS), min_size=4))
    def a_league(self, signed: set[Member]) -> None:
        league = self.run(self.leagues.create(GUILD, ORGANISER, "Cup", "pebbles",
                                              settings=LeagueSettings(max_seats=3)))
        self.league_id = league.id
        for member in sorted(signed, key=lambda m: m.id):
            self.run(self.leagues.join(GUILD, member, "Cup"))

    # -- rules -------------------------------------------------------------------------------

    @rule(who=st.sampled_from(MEMBERS))
    def sign_up(self, who: Member) -> None:
        self.run(self.leagues.join(GUILD, who, "Cup"))

    @rule(who=st.sampled_from(MEMBERS))
    def leave(self, who: Member) -> None:
        try:
            self.run(self.leagues.leave(GUILD, who, "Cup"))
        except TableError:
            pass

    # Deadlines in hours (0: none); two days leaves room for both reminders.
    @rule(force=st.booleans(), deadline=st.sampled_from([0, 1, 48]))
    def a_round(self, force: bool, deadline: int) -> None:
        limit = timedelta(hours=deadline) if deadline else None
        try:
            # Forced as the command forces it: the open round's tables are settled.
            plan = (self.run(self.referee.force_round(GUILD, ORGANISER, "Cup",
                                                      deadline=limit))[0] if force
                    else self.run(self.rounds.plan(GUILD, ORGANISER, "Cup", deadline=limit)))
        except TableError as exc:
            assert "still open" in str(exc) or "Not enough" in str(exc)
            if "still open" in str(exc):
                assert not force
            return
        for i in range(len(plan.tables)):
            self.run(self.rounds.open_table(plan, i, next(self.channels), GUILD))

    @rule(step=st.sampled_from(["open", "join", "add_computer", "start"]),
          at=st.integers(1, 4))
    def a_round_cut_short(self, step: str, at: int) -> None:
        """The process dies while the round's tables open (at the ``at``-th ``step``)."""
        try:
            plan = self.run(self.rounds.plan(GUILD, ORGANISER, "Cup"))
        except TableError:
            return
        setattr(self.tables, step, crash_on(at, getattr(self.tables, step)))
        try:
            for i in range(len(plan.tables)):
                self.run(self.rounds.open_table(plan, i, next(self.channels), GUILD))
        except Crash:
            pass
        finally:
            delattr(self.tables, step)

    @rule(give_up=st.booleans())
    def a_restart(self, give_up: bool) -> None:
        """A new process finishes opening the rounds cut short (or rolls them back)."""
        self.start()
        for plan in self.run(self.rounds.opening()):
            if give_up:
                self.run(self.rounds.roll_back(plan.round))
                continue
            slots = self.run(self.rounds.slots(plan))
            for i in range(len(plan.tables)):
                self.run(self.rounds.open_slot(plan, i, slots[i].channel_id
                                               or next(self.channels), GUILD))
        assert self.run(self.rounds.opening()) == []

    @rule(pick=st.integers(0, 5), play=st.booleans(),
          moves=st.sampled_from([1, 3, 40]))  # 40: to the end of the game
    def some_moves(self, pick: int, play: bool, moves: int) -> None:
        live = self.live_tables()
        if not live:
            return
        table_id = live[pick % len(live)]
        for _ in range(moves):
            notice = self.run(self.tables.status(table_id))
            if notice.over or notice.status != Status.PLAYING:
                return
            mover = next((s for s in self.run(self.tables.seats(table_id))
                          if s.member_id in notice.next_members), None)
            if mover is None or mover.member_id is None:
                return
            member = Member(mover.member_id, mover.name)
            legal = self.run(self.tables.legal_moves(table_id, member))
            move = sorted(legal)[-1] if play and len(legal) > 1 else "hold"
            self.run(self.tables.act(table_id, member, move))

    @rule(pick=st.integers(0, 5), seat=st.integers(0, 2))
    def a_forfeit_for_time(self, pick: int, seat: int) -> None:
        live = self.live_tables()
        if live:
            self.run(self.leagues.recorder.forfeit(live[pick % len(live)], seat, "time"))

    @rule(pick=st.integers(0, 5), seat=st.integers(0, 2))
    def a_walk_out(self, pick: int, seat: int) -> None:
        live = self.live_tables()
        if not live:
            return
        table_id = live[pick % len(live)]
        seats = self.run(self.tables.seats(table_id))
        held = seats[seat % len(seats)]
        if held.member_id is not None:
            self.run(self.rounds.abandon(table_id, Member(held.member_id, held.name)))

    @rule(pick=st.integers(0, 5), seat=st.integers(0, 2),
          newcomer=st.sampled_from([*MEMBERS, STRANGER]), anyone=st.booleans())
    def a_substitution(self, pick: int, seat: int, newcomer: Member, anyone: bool) -> None:
        live = self.live_tables()
        if not live:
            return
        try:
            self.run(self.referee.substitute(live[pick % len(live)], seat, newcomer, ORGANISER,
                                             self.hand_over, anyone=anyone))
        except TableError:
            pass

    @rule(pick=st.integers(0, 20))
    def a_void(self, pick: int) -> None:
        results = self.run(self.store.league_results(self.league_id))
        if not results:
            return
        chosen = results[pick % len(results)]
        try:
            self.run(self.leagues.void(GUILD, ORGANISER, "Cup", chosen.id, "wrong players"))
        except TableError:
            assert chosen.voided is not None

    @rule(pick=st.integers(0, 20), seat=st.integers(0, 2), place=st.integers(1, 3))
    def a_correction(self, pick: int, seat: int, place: int) -> None:
        results = self.run(self.store.league_results(self.league_id))
        if not results:
            return
        chosen = results[pick % len(results)]
        member = chosen.places[seat % len(chosen.places)].member_id
        if member is None:
            return
        at = min(place, len(chosen.places))
        try:
            self.run(self.leagues.correct(GUILD, ORGANISER, "Cup", chosen.id, member, at,
                                          "misread the board"))
        except TableError:
            # Refused: a void is not corrected, nor a forfeit put ahead of a seat that played.
            after = placed_at(chosen.places, member, at)
            assert chosen.voided is not None or any(
                f.forfeited and f.place < p.place for f in after for p in after
                if not p.forfeited)
            return
        self.corrected.add(chosen.id)

    @rule()
    def a_rebuild(self) -> None:
        self.run(self.leagues.recorder.rebuild())

    @rule(hours=st.sampled_from([1, 2, 23]))
    def the_deadlines_pass(self, hours: int) -> None:
        self.now += timedelta(hours=hours)
        # A round nearing its deadline reminds only its tables still playing, each member
        # it mentions seated there, and once: asked again at once, nothing more.
        for reminder in self.run(self.referee.remind_due(self.now)):
            table = self.run(self.store.live_table(reminder.channel_id))
            assert table is not None and table.status == Status.PLAYING
            seated = {s.member_id for s in self.run(self.store.seats(table.id))}
            assert set(reminder.members) <= seated
        assert self.run(self.referee.remind_due(self.now)) == []
        self.run(self.referee.settle_due(self.now))

    @rule(a=st.sampled_from(MEMBERS), b=st.sampled_from([*MEMBERS, STRANGER]))
    def an_unsanctioned_game(self, a: Member, b: Member) -> None:
        if a == b:
            return
        opened = self.run(self.tables.open("pebbles", next(self.channels), a, guild_id=GUILD,
                                           league="Cup", options={"turns": 1}))
        self.run(self.tables.join(opened.table_id, b))
        notice = self.run(self.tables.start(opened.table_id, a))
        by_id = {a.id: a, b.id: b}
        while not notice.over:
            notice = self.run(self.tables.act(notice.table_id,
                                              by_id[notice.next_members[0]], "hold"))

    # -- invariants --------------------------------------------------------------------------

    @invariant()
    def every_finished_sanctioned_game_has_one_complete_result(self) -> None:
        results = self.run(self.store.league_results())
        by_table: dict[int, int] = {}
        for r in results:
            by_table[r.table_id] = by_table.get(r.table_id, 0) + 1
        assert all(n == 1 for n in by_table.values())
        ended = self.run(self.store.tables_with_status(Status.OVER, Status.ABANDONED))
        for table in ended:
            if table.league_id is None or not self.run(self.store.sanctioned(table.id)):
                continue
            forfeits = self.run(self.store.forfeits(table.id))
            if table.status == Status.ABANDONED and not forfeits:
                continue  # closed with no result: nobody forfeited, nothing to count
            (result,) = [r for r in results if r.table_id == table.id]
            seats = self.run(self.store.seats(table.id))
            assert sorted(p.seat for p in result.places) == [s.position for s in seats]
            forfeited = {f.seat: f.member_id for f in forfeits}
            for p in result.places:
                # A corrected placing may lift a forfeit; it never adds one.
                assert p.forfeited <= (p.seat in forfeited)
                if result.id not in self.corrected:
                    assert p.forfeited == (p.seat in forfeited)
                if p.seat in forfeited:
                    assert p.member_id == forfeited[p.seat]

    @invariant()
    def ratings_equal_a_replay_of_the_results(self) -> None:
        results = self.run(self.store.league_results())
        carries = self.run(self.store.season_carries())
        assert self.run(self.store.all_ratings()) == replay(results, carries)

    @invariant()
    def ratings_equal_openskill_on_the_results(self) -> None:
        stored = self.run(self.store.all_ratings())
        expected = rating_reference.ratings(self.run(self.store.league_results()),
                                            self.run(self.store.season_carries()))
        assert rating_reference.differences(stored, expected) == []

    @invariant()
    def a_voided_result_is_never_corrected(self) -> None:
        for result in self.run(self.store.league_results(self.league_id)):
            if result.id in self.voided:
                assert result.voided is not None, "a void undone"
                assert result.places == self.voided[result.id], "a voided result corrected"
            elif result.voided is not None:
                self.voided[result.id] = result.places

    @invariant()
    def every_table_of_a_closed_round_is_finished_or_forfeited(self) -> None:
        for round_ in self.run(self.store.rounds(self.league_id)):
            if round_.open or round_.opened_at is None:
                continue
            for table in self.run(self.store.round_tables(round_.id)):
                assert table.status == Status.OVER or (
                    table.status == Status.ABANDONED
                    and self.run(self.store.forfeits(table.id))), (
                    "a closed round's table neither finished nor forfeited", round_.number,
                    table.id, table.status)

    @invariant()
    def nobody_sits_twice_in_an_open_round(self) -> None:
        open_rounds = [r for r in self.run(self.store.open_rounds())
                       if r.league_id == self.league_id]
        assert len(open_rounds) <= 1
        for round_ in open_rounds:
            seated = [s.member_id for t in self.run(self.store.round_tables(round_.id))
                      if t.live for s in self.run(self.store.seats(t.id))]
            assert len(seated) == len(set(seated))

    @invariant()
    def nobody_sits_in_two_open_rounds_and_closed_rounds_have_no_live_table(self) -> None:
        seated = []
        for round_ in self.run(self.store.rounds(self.league_id)):
            made = self.run(self.store.round_tables(round_.id))
            if not round_.open:
                assert not [t.id for t in made if t.live]
                continue
            seated += [s.member_id for t in made if t.live
                       for s in self.run(self.store.seats(t.id)) if s.member_id is not None]
        assert len(seated) == len(set(seated))

    @invariant()
    def a_round_is_open_exactly_while_one_of_its_tables_is_live(self) -> None:
        for round_ in self.run(self.store.rounds(self.league_id)):
            if round_.opened_at is None:
                continue  # still opening: its tables are to come
            live = [t.id for t in self.run(self.store.round_tables(round_.id)) if t.live]
            assert round_.open == bool(live), (round_.number, round_.open, live)

    @invariant()
    def no_unsanctioned_table_has_a_result(self) -> None:
        for result in self.run(self.store.league_results()):
            assert self.run(self.store.sanctioned(result.table_id))



@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_random_season_keeps_the_leagues_invariants(
    backend: str, request: pytest.FixtureRequest
) -> None:
    class Machine(LeagueMachine):
        pass

    give_stores(Machine, backend, request)
    run_state_machine_as_test(Machine, settings=settings(
        max_examples=examples(25 if backend == "sqlite" else 8), stateful_step_count=30,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    ))
