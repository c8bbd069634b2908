"""Two ``python -m bot`` processes, one gateway shard each, on one real PostgreSQL server.

Palermo tables in a server of each shard are played from the channel (the server's process),
from the buttons of DMs (shard 0's process, whichever server the table is in) and by deadlines
(either process's scheduler), and the process of shard 1 is killed (kill -9) mid-stream and
started again. Afterwards every committed version was posted exactly once per table, in
version order; every move acknowledged with "Done" is in the log; each deadline fired once.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from bot.store import open_store
from bot.tables import Tables
from bot.tables.narration import text_names
from bot.tables.outbox import LEASE_SECONDS
from bot.text import fill
from bot.values import Member as Player
from rules import GAMES
from rules.core import Rng
from tests.e2e.processes import WAIT, BotProcess, boards
from tests.standin import Channel, Member, Message, StandIn
from tests.standin.model import JSON

pytestmark = [pytest.mark.skipif("palermo" not in GAMES, reason="needs Palermo"),
              pytest.mark.timeout(180)]

ROUNDS = 5  # member moves per table, before and after the kill each
LOBBY = re.compile(r"tabula:lobby:join:(\d+)")


@dataclass
class Played:
    channel: Channel
    alice: Member  # plays in the channel
    other: Member  # Bob plays by DM (shard 1's server), Carol in the channel (shard 0's)
    table_id: int = 0
    acknowledged: list[int] = field(default_factory=list)  # interactions answered "Done"
    deadlines: int = 0
    by_dm: int = 0
    by_board: int = 0  # of those, from the "moves" button of the DM board he held


async def open_table(standin: StandIn, played: Played) -> None:
    """Palermo for two members and a computer, a minute per move, autopilot when it runs
    out."""
    channel, alice, other = played.channel, played.alice, played.other
    r = await standin.slash(alice, channel, "game new", {
        "game": "palermo", "players": 3, "seating": "join", "pace": "custom",
        "duration": "1m", "out_of_time": "autopilot", "level": "random"})
    lobby = (await r.wait_reply(WAIT)).message
    assert lobby is not None
    join = next(c for c in lobby.custom_ids() if LOBBY.match(c))
    played.table_id = int(LOBBY.match(join)[1])  # type: ignore[index]
    await (await standin.click(other, lobby, join)).wait_callback(WAIT)
    r = await standin.slash(alice, channel, "game add-bot", {"level": "random"})
    await r.wait_reply(WAIT)
    start = next(c for c in lobby.custom_ids() if c.startswith("tabula:lobby:start"))
    await (await standin.click(alice, lobby, start)).wait_callback(WAIT)
    await standin.wait_until(lambda: boards(standin, channel), WAIT, "the first board")


def dm_board(standin: StandIn, member: Member, table_id: int) -> tuple[Message, str] | None:
    """The member's latest DM with the table's "moves" button."""
    prefix = f"tabula:board:moves:{table_id}:"
    for message in reversed(standin.dms(member)):
        found = [c for c in message.custom_ids() if c.startswith(prefix)]
        if found:
            return message, found[0]
    return None


def picks(offer: Message | None) -> list[JSON]:
    rows = offer.components if offer is not None else []
    return [c for row in rows for c in row.get("components", []) if c.get("type") == 3]


async def by_dm(standin: StandIn, played: Played, bob: Member, rng: Rng) -> bool:
    """Bob plays from his DMs: the "moves" button of the board he holds, or (when that board
    is refused as out of date) ``/move`` typed in the DM; then a pick in the select."""
    offer = None
    held = dm_board(standin, bob, played.table_id)
    if held is not None:
        offer = (await (await standin.click(bob, held[0], held[1])).wait_reply(WAIT)).message
    from_board = bool(picks(offer))
    if not from_board:
        record = await standin.slash(bob, standin.dm_channel(bob), "move", {})
        offer = (await record.wait_reply(WAIT)).message
    found = picks(offer)
    if offer is None or not found:
        return False
    options = [o["value"] for o in found[0]["options"]]
    record = await standin.select(bob, offer, found[0]["custom_id"],
                                  [options[rng.randbelow(len(options))]])
    answer = await record.wait_reply(WAIT)
    if "Done" in answer.text:
        played.acknowledged.append(record.id)
        played.by_dm += 1
        played.by_board += from_board
        return True
    return False


async def in_channel(standin: StandIn, played: Played, member: Member, move: str) -> None:
    record = await standin.slash(member, played.channel, "move",
                                 {"action": move, "confirm": True})
    if "Done" in (await record.wait_reply(WAIT)).text:
        played.acknowledged.append(record.id)


async def step(standin: StandIn, reader: Tables, played: Played, rng: Rng, *,
               channel_open: bool = True) -> None:
    """Whoever of the two members has a move makes one: Bob by DM, the others in the
    channel."""
    for member in (played.alice, played.other):
        moves = await reader.legal_moves(played.table_id, Player(member.id, member.name))
        reader.live.forget(played.table_id)
        if not moves:
            continue
        if member.name == "bob" and await by_dm(standin, played, member, rng):
            return
        if channel_open:
            await in_channel(standin, played, member, moves[rng.randbelow(len(moves))])
        return


async def settled(reader: Tables, played: Played) -> int:
    """The table's version once everything committed is told (computers' replies too). A
    claim to announce that the killed process held (its scheduler may have fired this table's
    deadline) keeps the other process waiting until its lease ends: wait past that."""
    for _ in range(10 * (LEASE_SECONDS + 15)):
        table = await reader.store.get_table(played.table_id)
        assert table is not None
        if table.announced == table.version:
            return table.version
        await asyncio.sleep(0.1)
    raise AssertionError("the table's moves were not all told")


async def run_out(db: asyncpg.Pool, reader: Tables, played: Played) -> None:
    """The open deadline of the table falls due now; either process's scheduler fires it
    (once) and the computer moves for the seat."""
    before = await settled(reader, played)
    fired = "SELECT count(*) FROM turns WHERE table_id = $1 AND fired_at IS NOT NULL"
    was = await db.fetchval(fired, played.table_id)
    due = await db.execute("UPDATE turns SET due_at = 0 WHERE table_id = $1 AND ended_at IS"
                           " NULL AND fired_at IS NULL AND due_at IS NOT NULL",
                           played.table_id)
    if due.endswith(" 0"):
        return
    played.deadlines += 1
    for _ in range(300):  # the scheduler ticks every few seconds
        moved = ((await reader.store.table_version(played.table_id)) or 0) > before
        if moved and await db.fetchval(fired, played.table_id) > was:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the deadline did not fire")


async def restarted(standin: StandIn, bot: BotProcess) -> None:
    sessions = len(standin.gateway.sessions)
    await bot.start()
    await standin.wait_until(
        lambda: len(standin.gateway.sessions) > sessions
        and list(standin.gateway.sessions.values())[-1].ready, WAIT, "the restarted shard")


def told_lines(standin: StandIn, channel: Channel, known: set[str]) -> list[str]:
    return [line for m in standin.channel_messages(channel) if not m.ephemeral
            for line in m.text.splitlines() if line in known]


def out_of_order(standin: StandIn, channel: Channel) -> int:
    """Boards whose version (in their buttons) is older than a board posted before them."""
    versions = [int(v) for m in boards(standin, channel) for c in m.custom_ids()[:1]
                for v in re.findall(r":v(\d+)$", c)]
    return sum(1 for a, b in itertools.pairwise(versions) if b <= a)


async def test_two_processes_one_database_tell_each_version_once_in_order(
    standin: StandIn, postgres_url: str, tmp_path: Path, new_bot: Callable[..., BotProcess]
) -> None:
    guilds = [standin.add_guild(f"Shard {n}", shard=(n, 2)) for n in range(2)]
    # Alice plays in both servers; Bob, by DM, at the table of shard 1's server only (so a
    # move typed in his DMs has one table to go to), Carol at the other.
    alice = standin.add_member(guilds[0], "alice").user
    tables = [Played(standin.add_channel(g, "games"), standin.add_member(g, alice),
                     standin.add_member(g, name)) for g, name in zip(guilds, ("carol", "bob"),
                                                                      strict=True)]
    bots = [new_bot(standin, postgres_url, tmp_path, shard=(n, 2)) for n in range(2)]
    reader = Tables(await open_store(postgres_url))
    db = await asyncpg.create_pool(postgres_url, min_size=1, max_size=2)
    rng = Rng("two processes")
    try:
        for bot in bots:
            await bot.start()
        await standin.wait_shards(2, WAIT)
        await standin.wait_synced(WAIT, names=("game", "move", "settings"))
        for played in tables:
            await open_table(standin, played)
        # Bob plays from DM buttons: no preview to confirm.
        r = await standin.slash(tables[1].other, tables[1].channel, "settings",
                                {"preview": False})
        await r.wait_reply(WAIT)
        for n in range(ROUNDS):
            for played in tables:
                await step(standin, reader, played, rng)
            if n == 2:
                await asyncio.gather(*(run_out(db, reader, p) for p in tables))
        # Shard 1's process dies right after a move it committed; shard 0's process goes
        # on meanwhile (DMs, its own server), then shard 1's comes back and catches up.
        await step(standin, reader, tables[1], rng)
        await bots[1].kill()
        for played in tables:
            await step(standin, reader, played, rng, channel_open=played is tables[0])
        await restarted(standin, bots[1])
        for n in range(ROUNDS):
            for played in tables:
                await step(standin, reader, played, rng)
            if n == 1:
                await asyncio.gather(*(run_out(db, reader, p) for p in tables))
    finally:
        for bot in bots:
            await bot.stop()  # a clean stop lets the posts under way finish
    try:
        await check(standin, reader, db, tables)
    finally:
        await db.close()
        await reader.store.close()


async def check(standin: StandIn, reader: Tables, db: asyncpg.Pool, tables: list[Played]
                ) -> None:
    duplicates = disordered = lost = 0
    told: list[tuple[list[str], list[str]]] = []
    for played in tables:
        names = text_names(await reader.store.seats(played.table_id))
        log = await reader.store.actions(played.table_id)
        logged = [fill(r.text or "", names) for r in log]
        shown = told_lines(standin, played.channel, set(logged))
        told.append((shown, logged))
        duplicates += sum((Counter(shown) - Counter(logged)).values())
        disordered += out_of_order(standin, played.channel)
        keys = {r.idem_key for r in log}
        lost += sum(1 for i in played.acknowledged if str(i) not in keys)
    print(f"two processes: {duplicates} lines told again, {disordered} boards out of order, "
          f"{lost} acknowledged moves lost; moves acknowledged "
          f"{[len(p.acknowledged) for p in tables]} (by DM {[p.by_dm for p in tables]}, from "
          f"the DM board {[p.by_board for p in tables]}), "
          f"deadlines {[p.deadlines for p in tables]}")
    assert (duplicates, disordered, lost) == (0, 0, 0)
    for played, (shown, logged) in zip(tables, told, strict=True):
        assert shown == logged  # every version once, in order
        table = await reader.store.get_table(played.table_id)
        assert table is not None and table.announced == table.version
        # Each deadline fired once: one computer move (told once) per fired turn.
        fired = await db.fetchval("SELECT count(*) FROM turns WHERE table_id = $1"
                                  " AND fired_at IS NOT NULL", played.table_id)
        ran_out = [line for line in logged if line.startswith("Time ran out")]
        assert fired == len(ran_out) >= played.deadlines > 0
        assert played.acknowledged and (played.by_dm or played.other.name != "bob")
        assert played.by_board or played.other.name != "bob"  # DM board buttons were used
    assert standin.violations == []
