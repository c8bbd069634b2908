"""Two bot processes over one database (two ``Tables``, each with its own cache and locks, over
one store), on both stores: a typed move names no board, so when the other process moved the
table first it is judged again against the table as it is now, and played when still legal;
a click on a board whose version really is old is still refused as out of date."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import rules
from bot.store import Store
from bot.tables import Tables, play
from bot.values import OutOfDate, TableError
from tests.conftest import ALICE, BOB
from tests.pebbles import Pebbles

CHANNEL = 4242


class Together(Pebbles):
    """Pebbles where every seat may move at any time: a move by one seat leaves the others'
    moves legal (as in the games where all players choose at once)."""

    id = "together"
    title = "Together"

    def active_seats(self, state: Any) -> frozenset[int]:
        return frozenset() if state["turns_left"] <= 0 else frozenset(range(state["players"]))


@pytest.fixture
def games(with_pebbles: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.GAMES, "together", Together())


class OtherProcessFirst:
    """The second process's view of the store: before its next commit reaches the database,
    ``first`` runs (the first process's commit), as when both commit at nearly one time."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.first: Callable[[], Awaitable[object]] | None = None
        self.every_time = False
        self.ran = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def record_steps_planned(self, *args: Any, **kwargs: Any) -> Any:
        first = self.first
        if first is not None:
            if not self.every_time:
                self.first = None
            self.ran += 1
            await first()
        return await self._store.record_steps_planned(*args, **kwargs)


async def two_processes(store: Store, game: str) -> tuple[Tables, Tables, OtherProcessFirst, int]:
    """Processes A and B over ``store``, a started table of ``game`` that B has cached."""
    a = Tables(store)
    seen_by_b = OtherProcessFirst(store)
    b = Tables(seen_by_b)
    opened = await a.open(game, CHANNEL, ALICE, seat_order="join",
                          options={"turns": 1_000, "first": 0})
    await a.join(opened.table_id, BOB)
    await a.start(opened.table_id, ALICE)
    assert (await b.live.load(opened.table_id)).table.version == 2
    return a, b, seen_by_b, opened.table_id


async def moves_in_log(store: Store, table_id: int) -> list[tuple[int | None, int | None]]:
    return [(r.seat, r.member_id) for r in await store.actions(table_id) if r.kind == "act"]


async def test_a_typed_move_committed_just_after_the_other_process_moved_is_played(
    store: Store, games: None
) -> None:
    a, b, seen_by_b, table_id = await two_processes(store, "together")
    seen_by_b.first = lambda: a.act(table_id, ALICE, "hold")
    notice = await b.act(table_id, BOB, "hold", idem_key="typed-1")
    assert seen_by_b.ran == 1
    assert notice.version == 4
    assert await moves_in_log(store, table_id) == [(0, ALICE.id), (1, BOB.id)]
    # Both processes then see the table as it is.
    assert (await b.live.load(table_id)).table.version == 4
    await a.act(table_id, ALICE, "hold")
    await b.act(table_id, BOB, "hold")
    stored = await store.get_table(table_id)
    assert stored is not None and stored.version == 6


async def test_a_typed_move_on_a_stale_cache_is_played(store: Store, games: None) -> None:
    a, b, _, table_id = await two_processes(store, "together")
    await a.act(table_id, ALICE, "hold")  # B's cache still holds version 2
    notice = await b.act(table_id, BOB, "hold")
    assert notice.version == 4
    assert await moves_in_log(store, table_id) == [(0, ALICE.id), (1, BOB.id)]


async def test_a_typed_move_no_longer_legal_is_refused_by_the_rules(
    store: Store, games: None
) -> None:
    """Judged again on the table as it is now: Alice's second ``hold`` (the other process
    played her first) is not her turn any more, not an out-of-date board."""
    a, b, seen_by_b, table_id = await two_processes(store, "pebbles")
    seen_by_b.first = lambda: a.act(table_id, ALICE, "hold")
    with pytest.raises(TableError, match="not your turn") as refused:
        await b.act(table_id, ALICE, "hold")
    assert not isinstance(refused.value, OutOfDate)
    assert await moves_in_log(store, table_id) == [(0, ALICE.id)]


async def test_a_click_on_a_board_of_an_old_version_is_refused(
    store: Store, games: None
) -> None:
    a, b, seen_by_b, table_id = await two_processes(store, "together")
    # The other process commits between B's check of the board's version and B's commit.
    seen_by_b.first = lambda: a.act(table_id, ALICE, "hold")
    with pytest.raises(OutOfDate, match="out of date"):
        await b.act(table_id, BOB, {"type": "hold"}, expected_version=2)
    # And once B's cache is stale, the click is refused before anything is tried.
    await a.act(table_id, ALICE, "hold")
    with pytest.raises(OutOfDate, match="out of date"):
        await b.act(table_id, BOB, {"type": "hold"}, expected_version=3)
    assert await moves_in_log(store, table_id) == [(0, ALICE.id), (0, ALICE.id)]


async def test_a_typed_move_on_a_table_that_never_stops_moving_gives_up(
    store: Store, games: None
) -> None:
    a, b, seen_by_b, table_id = await two_processes(store, "together")
    seen_by_b.first = lambda: a.act(table_id, ALICE, "hold")
    seen_by_b.every_time = True
    with pytest.raises(OutOfDate):
        await b.act(table_id, BOB, "hold")
    assert seen_by_b.ran == play.TYPED_MOVE_TRIES
    assert await moves_in_log(store, table_id) == [(0, ALICE.id)] * play.TYPED_MOVE_TRIES


async def test_a_confirmed_preview_whose_position_still_holds_is_played(
    store: Store, games: None
) -> None:
    """A preview is judged by the mover's own position (its fingerprint), which the other
    seat's move left as it was."""
    a, b, seen_by_b, table_id = await two_processes(store, "together")
    proposal = await b.propose(table_id, BOB, "hold")
    seen_by_b.first = lambda: a.act(table_id, ALICE, "hold")
    notice = await b.confirm(proposal.pending_id, BOB, idem_key="click-1")
    assert notice.version == 4
    assert await moves_in_log(store, table_id) == [(0, ALICE.id), (1, BOB.id)]
