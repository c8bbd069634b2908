"""Fuzzing the table use cases with arbitrary member text: names, league names, typed moves.

Shared by the CI test (small budget) and ``fuzz/fuzz_tables.py`` (large budget). Only
``RulesError`` may come out, a refused call changes nothing in the store, and no text the
bot would send exceeds Discord's 2,000 characters.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bot.store import SqliteStore
from bot.tables import Tables
from bot.values import Member
from rules.core import RulesError
from tests.pebbles import GAME as PEBBLES

CONTENT_LIMIT = 2000
GAMES = [PEBBLES.id, *sorted(g for g in rules.GAMES if g != PEBBLES.id)]

HOSTILE = ["{p0}", "{x.y}", "{p0:>99999999}", "@everyone", "**", "`", "9" * 5000, "\u202e",
           "\u200b" * 40, "{}", "%s%n", "<@123>", "1" * 120, "play 99999999999999999999"]
texts = (st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300)
         | st.sampled_from(HOSTILE))


class Probe:
    """One store and table set reused across examples (a fresh channel each time)."""

    def __init__(self) -> None:
        rules.GAMES[PEBBLES.id] = PEBBLES
        self.loop = asyncio.new_event_loop()
        self.tmp = tempfile.TemporaryDirectory()
        self.store = self.loop.run_until_complete(SqliteStore.open(Path(self.tmp.name) / "f.db"))
        self.tables = Tables(self.store)
        self.channel = 0
        self.game = ""
        self.slowest = 0.0
        self.slowest_call = ""
        self.examples = 0

    def close(self) -> None:
        self.loop.run_until_complete(self.store.close())
        self.loop.close()
        self.tmp.cleanup()

    def run(self, coro: Any) -> Any:
        started = time.perf_counter()
        try:
            return self.loop.run_until_complete(coro)
        finally:
            took = time.perf_counter() - started
            if took > self.slowest:
                self.slowest, self.slowest_call = took, f"{self.game} {coro.__qualname__}"
            self.examples += 1

    def fingerprint(self, table_id: int) -> str:
        async def read() -> str:
            table = await self.store.get_table(table_id)
            log = await self.store.actions(table_id)
            seats = await self.store.seats(table_id)
            assert table is not None
            return json.dumps([table.version, table.status, table.snapshot, len(log),
                               [s.name for s in seats]], sort_keys=True, default=str)

        return str(self.loop.run_until_complete(read()))

    def names_round(self, game: str, first: str, second: str, league: str | None) -> None:
        """Open, join, start and play one move with arbitrary names (and league name)."""
        self.channel += 1
        self.game = game
        a, b = Member(1, first), Member(2, second)
        try:
            opened = self.run(self.tables.open(game, self.channel, a, league=league,
                                               seat_order="join", guild_id=1))
        except RulesError:
            return
        check_text(opened.public_text)
        self.run(self.tables.join(opened.table_id, b))
        if game == "palermo":
            self.run(self.tables.add_computer(opened.table_id, a, "random"))
        notice = self.run(self.tables.start(opened.table_id, a))
        for text in (notice.public_text, *(p.text for p in notice.private)):
            check_text(text)
        for seat in (a, b):
            moves = self.run(self.tables.legal_moves(opened.table_id, seat))
            if moves:
                moved = self.run(self.tables.act(opened.table_id, seat, moves[0]))
                check_text(moved.public_text)
                break

    def typed_move(self, game: str, typed: str) -> None:
        """Arbitrary text as a move: refused with a RulesError, changing nothing."""
        self.channel += 1
        self.game = game
        a, b = Member(1, "Ann"), Member(2, "Bo")
        opened = self.run(self.tables.open(game, self.channel, a, seat_order="join"))
        self.run(self.tables.join(opened.table_id, b))
        if game == "palermo":
            self.run(self.tables.add_computer(opened.table_id, a, "random"))
        self.run(self.tables.start(opened.table_id, a))
        for member in (a, b):
            before = self.fingerprint(opened.table_id)
            for use in (self.tables.act, self.tables.propose):
                try:
                    self.run(use(opened.table_id, member, typed))
                except RulesError as exc:
                    check_text(str(exc))
                    assert len(str(exc)) <= 600, "an error echoes too much of the input"
                    assert self.fingerprint(opened.table_id) == before
                    continue
                return  # the text happened to be a legal move


def check_text(text: str) -> None:
    # Capped names keep every notice near Discord's limit (the front end clips the rest);
    # a name used as a template could make it megabytes.
    assert len(text) <= 2 * CONTENT_LIMIT, f"a notice of {len(text)} characters"


def properties(examples: int, probe: Probe) -> list[Callable[[], None]]:
    """The properties as runnable tests with the given budget per property."""
    common = settings(max_examples=examples, deadline=None, derandomize=True,
                      suppress_health_check=list(HealthCheck), database=None)

    @common
    @given(st.sampled_from(GAMES), texts, texts, st.none() | texts)
    def names(game: str, first: str, second: str, league: str | None) -> None:
        probe.names_round(game, first, second, league)

    @common
    @given(st.sampled_from(GAMES), texts)
    def moves(game: str, typed: str) -> None:
        probe.typed_move(game, typed)

    return [names, moves]
