"""``python -m bot`` with 2,000 live tables, killed (kill -9) while it fires the deadlines that
fell due while it was down, then started again: it answers a member within 10 s of each start,
and every due deadline fires once, in deadline order (the computer's move for the seat out of
time, its board posted once in the table's channel); no deadline not yet due fires."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.pace.clock import FakeClock
from bot.pace.model import DAY, make_timing
from bot.pace.scheduler import paced
from bot.store import open_store
from bot.values import Member
from rules import GAMES
from tests.e2e.processes import BotProcess, boards
from tests.scale_fill import Row, copy_sqlite, renumber
from tests.standin import Channel, StandIn

pytestmark = [pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus"),
              pytest.mark.timeout(600)]

GUILDS, PER_GUILD = 5, 400  # 2,000 tables (Discord allows 500 channels a server)
DUE = 60  # tables whose deadline fell due while the bot was down
FIRST_ID = 1_000
ANSWER_WITHIN = 10.0  # seconds from the process's start to a member's answer


async def template(path: Path, channel: Channel, members: tuple[int, int]) -> int:
    """A two-player Palatinus table with a daily deadline (autopilot at the easy level),
    started: its first turn open."""
    store = await open_store(path)
    try:
        tables, scheduler = paced(store, FakeClock())
        alice, bob = Member(members[0], "alice"), Member(members[1], "bob")
        opened = await tables.open("palatinus", channel.id, alice, seat_order="join")
        await tables.join(opened.table_id, bob)
        await scheduler.set_timing(opened.table_id, make_timing("daily", level="easy"), alice)
        await tables.start(opened.table_id, alice)
        return opened.table_id
    finally:
        await store.close()


def fill(path: Path, template_id: int, channels: list[Channel], now: int) -> list[int]:
    """A copy of the template per channel; the first ``DUE`` fell due one after another
    while the bot was down, the others fall due tomorrow. The due tables' ids, due first."""
    ids = [FIRST_ID + n for n in range(len(channels))]

    def change(table: str, row: Row, n: int) -> Row:
        out = renumber(row, table, ids[n], {}, channels[n].id, channels[n].guild.id)
        if table == "turns" and out["ended_at"] is None:
            # Due in the reverse order of the ids: the order fired is the deadlines', not
            # the tables'.
            out["due_at"] = now - 600 + (DUE - n) * 5 if n < DUE else now + DAY
        return out

    copy_sqlite(str(path), template_id, ids, change)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM reminders")  # none falls due here: only deadlines
        # The template plays on as one more live table, due tomorrow.
        db.execute("UPDATE turns SET due_at = ? WHERE table_id = ?", (now + DAY, template_id))
    return sorted(ids[:DUE], key=lambda t: -t)


def fired(path: Path) -> list[int]:
    """The table of each computer move made for a seat out of time, in commit order."""
    with closing(sqlite3.connect(path)) as db:
        return [int(t) for (t,) in db.execute(
            "SELECT table_id FROM actions WHERE idem_key LIKE 'deadline:%' ORDER BY id")]


async def answered_within(standin: StandIn, bot: BotProcess, member: object,
                          channel: Channel) -> float:
    """Seconds from the bot's start until ``/turns`` was answered."""
    started = time.monotonic()
    await bot.start()
    await standin.wait_ready(ANSWER_WITHIN)
    await standin.wait_synced(ANSWER_WITHIN, names=("turns",))
    record = await standin.slash(member, channel, "turns")  # type: ignore[arg-type]
    left = max(0.1, ANSWER_WITHIN - (time.monotonic() - started))
    reply = await record.wait_reply(left)
    assert "wait" in reply.text, reply.text
    return time.monotonic() - started


async def test_2000_live_tables_restart_in_seconds_and_fire_each_due_deadline_once_in_order(
    standin: StandIn, tmp_path: Path, new_bot: Callable[..., BotProcess]
) -> None:
    guilds = [standin.add_guild(f"Games {g}") for g in range(GUILDS)]
    alice = standin.add_member(guilds[0], "alice")
    bob = standin.add_member(guilds[0], "bob")
    for guild in guilds[1:]:
        standin.add_member(guild, alice.user)
        standin.add_member(guild, bob.user)
    channels = [standin.add_channel(g, f"table-{n}") for g in guilds for n in range(PER_GUILD)]
    db = tmp_path / "tabula.db"
    template_id = await template(db, standin.add_channel(guilds[0], "template"),
                                 (alice.id, bob.id))
    due = fill(db, template_id, channels, int(time.time()))
    due_channels = {FIRST_ID + n: channels[n] for n in range(DUE)}

    bot = new_bot(standin, str(db), tmp_path)
    first = await answered_within(standin, bot, alice, channels[-1])
    # Killed with about half the due deadlines fired and told.
    await standin.wait_until(
        lambda: sum(bool(boards(standin, c)) for c in due_channels.values()) >= DUE // 2,
        120, "half the due deadlines told")
    await bot.kill()
    second = await answered_within(standin, bot, alice, channels[-1])
    await standin.wait_until(
        lambda: all(boards(standin, c) for c in due_channels.values()), 180,
        "every due deadline told")
    await asyncio.sleep(1)  # a second firing, were there one, would be told by now
    await bot.stop()

    moves = fired(db)
    assert sorted(moves) == sorted(due), "each due deadline fires once"
    assert moves == due, "in deadline order"
    for table_id, channel in due_channels.items():
        assert len(boards(standin, channel)) == 1, (table_id, "told once")
    assert not any(boards(standin, c) for c in channels[DUE:]), "nothing not due fires"
    assert standin.violations == []
    print(f"answered {first:.1f} s and {second:.1f} s after each start")
