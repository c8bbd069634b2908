"""Every game played to its end with a deadline pace while some seats never move: the
out-of-time policy fires exactly once per expired deadline, and a restart in the middle
neither loses nor repeats a deadline or a reminder."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.pace.clock import epoch
from bot.pace.member import MemberSettings
from bot.pace.model import make_timing
from bot.pace.notices import MoveNotice, Reminder
from rules import GAMES
from rules.random_player import UniformRandomPlayer
from tests.bot.pace.conftest import Stack
from tests.conftest import ALICE, BOB, CAROL

MAX_STEPS = 3_000


async def open_table(stack: Stack, game: str, channel: int, pace: str = "daily",
                     **extra: object) -> int:
    opened = await stack.tables.open(game, channel, ALICE, seat_order="join",
                                     seed=f"seed-{game}")
    # Random moves for the silent seats keep the test quick; levels are the computer
    # players' own tests.
    timing = make_timing(pace, **{"level": "random", **extra})  # type: ignore[arg-type]
    await stack.scheduler.set_timing(opened.table_id, timing, ALICE)
    await stack.tables.join(opened.table_id, BOB)
    await stack.tables.join(opened.table_id, CAROL)
    await stack.tables.start(opened.table_id, ALICE)
    return opened.table_id


async def play_out(stack: Stack, table_id: int, restart_at: int | None = None,
                   when: list[int] | None = None) -> list[object]:
    """Alice plays at once whenever she owes a move; Bob and Carol never move. Time jumps to
    the next deadline whenever only they are awaited. ``when`` gets each delivery's time."""
    delivered: list[object] = []
    alice = UniformRandomPlayer("alice")
    for step in range(MAX_STEPS):
        if step == restart_at:
            await stack.restart()
        loaded = await stack.tables.live.load(table_id)
        if loaded.table.status != "playing":
            return delivered
        assert loaded.state is not None
        if 0 in loaded.game.active_seats(loaded.state):
            action = alice.choose(loaded.game, loaded.state, 0)
            await stack.tables.act(table_id, ALICE, action)
            continue
        due = [t.due_at for t in (await stack.store.open_turns(table_id)).values()
               if t.due_at is not None and t.fired_at is None]
        assert due, "a silent seat owes a move without a deadline"
        due += [int(r) for (r,) in await stack.rows(
            "SELECT r.due_at FROM reminders r JOIN turns t ON t.id = r.turn_id"
            " WHERE r.table_id = ? AND r.fired_at IS NULL AND t.ended_at IS NULL"
            " AND t.fired_at IS NULL",
            table_id)]
        now = epoch(stack.clock)
        if min(due) > now:
            stack.clock.advance(min(due) - now)
        ticked = await stack.scheduler.tick()
        delivered.extend(ticked)
        if when is not None:
            when.extend(epoch(stack.clock) for _ in ticked)
    raise AssertionError("the game did not end")


# Three seats (Alice, Bob, Carol): every game that seats three.
@pytest.mark.parametrize("game", sorted(g for g, game in GAMES.items()
                                        if game.min_players <= 3 <= game.max_players))
async def test_a_game_with_silent_seats_ends_by_its_policy(stack: Stack, game: str) -> None:
    # Bob sleeps in Paris from 22:00 to 07:00: no reminder reaches him then.
    night = MemberSettings(BOB.id, tz="Europe/Paris", quiet_start="22:00", quiet_end="07:00")
    await stack.scheduler.save_settings(night)
    table_id = await open_table(stack, game, 7000)
    when: list[int] = []
    delivered = await play_out(stack, table_id, restart_at=25, when=when)
    assert (await stack.tables.table_for(table_id)).status == "over"
    fired = await stack.rows("SELECT id FROM turns WHERE table_id = ? AND fired_at IS NOT NULL",
                 table_id)
    keys = Counter(k for (k,) in await stack.rows(
        "SELECT idem_key FROM actions WHERE table_id = ? AND idem_key LIKE 'deadline:%'",
        table_id))
    # Exactly one move per expired deadline, and only for the silent seats.
    assert set(keys) == {f"deadline:{t}" for (t,) in fired}
    assert set(keys.values()) == {1}
    silent = await stack.rows("SELECT DISTINCT seat FROM turns WHERE table_id = ?"
                  " AND fired_at IS NOT NULL", table_id)
    assert {s for (s,) in silent} <= {1, 2}
    moves = [d for d in delivered if isinstance(d, MoveNotice)]
    assert len(moves) == len(fired)
    assert all("Time ran out" in m.notice.public_text for m in moves)
    # Every turn is closed once the game is over.
    assert await stack.rows("SELECT COUNT(*) FROM turns WHERE table_id = ? AND ended_at IS NULL",
                table_id) == [(0,)]
    # At most one reminder per deadline.
    per_turn = await stack.rows("SELECT turn_id, COUNT(*) FROM reminders WHERE fired_at IS NOT NULL"
                    " GROUP BY turn_id HAVING COUNT(*) > 1")
    assert per_turn == []
    reminders = [d for d in delivered if isinstance(d, Reminder)]
    assert {r.member_id for r in reminders} == {BOB.id, CAROL.id}
    for at, item in zip(when, delivered, strict=True):
        if isinstance(item, Reminder) and item.member_id == BOB.id:
            assert not night.quiet(at), "a reminder in Bob's quiet hours"
    # Bob and Carol are reminded of their first deadlines only: after three moves in a row by
    # the computer their seats count as absent, and absent seats get no reminders.
    assert 1 <= len(reminders) <= 2 * 3
