"""Random sequences of table use cases (hypothesis state machine) keep the table's invariants:
the snapshot always equals a replay of the log, versions only grow, refusals change nothing.
Run on both stores: each example gets a fresh SQLite file or a fresh PostgreSQL schema."""

from __future__ import annotations

import json
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

from bot.tables import Tables, gamelog
from bot.tables import live as live_module
from bot.values import Member
from rules.core import RulesError
from tests.bot.store.stateful_stores import StoreMachine, give_stores
from tests.examples import examples
from tests.pebbles import GAME as PEBBLES

MEMBERS = [Member(1, "Ann"), Member(2, "Ben"), Member(3, "Cy"), Member(9, "Mod", is_admin=True)]
CHANNEL = 10
ELSEWHERE = 11  # another table, whose use evicts this one (the cache holds one table here)


class TableMachine(StoreMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tables = Tables(self.store)
        self.versions: dict[int, int] = {}

    async def here(self, use_case: Any, *args: Any) -> Any:
        """A use case on this channel's live table (refused like any other without one)."""
        table = await self.tables.table_in(CHANNEL)
        return await use_case(table.id, *args)

    def attempt(self, coro: Any) -> Any:
        """A use case; a refusal (RulesError) must leave the table exactly as it was."""
        before = self.snapshot()
        try:
            return self.run(coro)
        except RulesError:
            assert self.snapshot() == before
            return None

    def snapshot(self) -> Any:
        table = self.run(self.store.latest_table(CHANNEL))
        if table is None:
            return None
        log = self.run(self.store.actions(table.id))
        return (table.version, table.status, json.dumps(table.snapshot), len(log))

    @initialize(computers=st.integers(min_value=0, max_value=2))
    def a_game_in_play(self, computers: int) -> None:
        self.run(self.tables.open("pebbles", CHANNEL, MEMBERS[0], seat_order="join",
                                  options={"turns": 3}))
        self.run(self.here(self.tables.join, MEMBERS[1]))
        for _ in range(computers):
            self.run(self.here(self.tables.add_computer, MEMBERS[0]))
        self.run(self.here(self.tables.start, MEMBERS[0]))

    @rule(pick=st.integers(min_value=0, max_value=5))
    def the_member_to_act_acts(self, pick: int) -> None:
        table = self.run(self.store.live_table(CHANNEL))
        if table is None or table.status != "playing":
            return
        notice = self.run(self.here(self.tables.status))
        for member in MEMBERS:
            if member.id in notice.next_members:
                self.act(member, pick)
                return

    @rule(who=st.sampled_from(MEMBERS))
    def open(self, who: Member) -> None:
        self.attempt(self.tables.open("pebbles", CHANNEL, who, seat_order="join",
                                      options={"turns": 3}))

    @rule(who=st.sampled_from(MEMBERS))
    def join(self, who: Member) -> None:
        self.attempt(self.here(self.tables.join, who))

    @rule(who=st.sampled_from(MEMBERS))
    def leave(self, who: Member) -> None:
        self.attempt(self.here(self.tables.leave, who))

    @rule(who=st.sampled_from(MEMBERS))
    def add_computer(self, who: Member) -> None:
        self.attempt(self.here(self.tables.add_computer, who))

    @rule(who=st.sampled_from(MEMBERS))
    def start(self, who: Member) -> None:
        self.attempt(self.here(self.tables.start, who))

    @rule(who=st.sampled_from(MEMBERS), pick=st.integers(min_value=0, max_value=5))
    def act(self, who: Member, pick: int) -> None:
        table = self.run(self.store.live_table(CHANNEL))
        if table is None:
            return
        moves = self.run(self.tables.legal_moves(table.id, who)) or ["hold"]
        self.attempt(self.tables.act(table.id, who, moves[pick % len(moves)]))

    @rule(who=st.sampled_from(MEMBERS))
    def undo(self, who: Member) -> None:
        self.attempt(self.here(self.tables.undo, who))

    @rule()
    def the_last_mover_undoes(self) -> None:
        table = self.run(self.store.live_table(CHANNEL))
        if table is None:
            return
        played = gamelog.effective(self.run(self.store.actions(table.id)))
        last = next((m for m in MEMBERS if played and m.id == played[-1].record.member_id), None)
        if last is not None:
            self.undo(last)

    @rule(who=st.sampled_from(MEMBERS))
    def abandon(self, who: Member) -> None:
        self.attempt(self.here(self.tables.abandon, who))

    @rule()
    def another_table_is_used(self) -> None:
        """A table in another channel is opened or looked at: with a cache of one table,
        this one is evicted, and read again from the store when next used."""
        live = self.run(self.store.live_table(ELSEWHERE))
        if live is None:
            self.run(self.tables.open("pebbles", ELSEWHERE, MEMBERS[2], seat_order="join"))
        else:
            self.run(self.tables.status(live.id))

    @invariant()
    def a_cached_table_is_the_stored_one(self) -> None:
        table = self.run(self.store.latest_table(CHANNEL))
        cached = self.tables.live._cache.get(table.id) if table is not None else None
        if table is None or cached is None:
            return
        assert cached.table.version == table.version, "the cache went back, or fell behind"
        if cached.state is not None:
            assert PEBBLES.dump(cached.state) == table.snapshot

    @invariant()
    def snapshot_is_the_replay_of_the_log(self) -> None:
        table = self.run(self.store.latest_table(CHANNEL))
        if table is None or table.snapshot is None:
            return
        assert table.version >= self.versions.get(table.id, 0)
        self.versions[table.id] = table.version
        seats = self.run(self.store.seats(table.id))
        played = gamelog.effective(self.run(self.store.actions(table.id)))
        state = gamelog.rebuild(PEBBLES, table, len(seats), played)
        assert PEBBLES.dump(state) == table.snapshot
        over = PEBBLES.outcome(state) is not None
        assert (table.status == "over") == over or table.status == "abandoned"

    @invariant()
    def at_most_one_live_table(self) -> None:
        live = self.run(self.store.tables_with_status("lobby", "playing"))
        assert len([t for t in live if t.channel_id == CHANNEL]) <= 1



@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_table_use_cases_keep_their_invariants(
    backend: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Machine(TableMachine):
        pass

    give_stores(Machine, backend, request)
    monkeypatch.setattr(live_module, "CACHED_TABLES", 1)
    monkeypatch.setattr(live_module, "REMEMBERED_VERSIONS", 2)
    run_state_machine_as_test(Machine, settings=settings(
        # The machine's logic does not depend on the store; PostgreSQL's round trips make an
        # example dearer, so it runs half as many to keep the suite's time in budget.
        max_examples=examples(60 if backend == "sqlite" else 30), stateful_step_count=30,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    ))
