"""Past one machine: a store with many finished tables and thousands of live ones with open
deadlines, on SQLite and on PostgreSQL. Prints, for two sizes of the finished part:

- start to ready: what a bot process does before it answers commands (open the store);
- the restart's background work, drained after ready while commands are answered: announce
  moves committed but never told (the catch-up), let due computer seats move, plan tables
  left unplanned (``Scheduler.sync``), finish what a crash cut short after a deadline fired
  (``Scheduler.recover``), each phase timed; ``/turns`` answered meanwhile (p50 / p99);
- resident memory of that process once drained (a child process: the fill is not counted);
- the scheduler's tick with every deadline open and none due (p50 / p99);
- ``/turns`` for a member with 20 tables waiting on them (p50 / p99);
- the query plans of what start, ticks and ``/turns`` ask (an index, never a scan of a table
  that grows with finished games).

The store is filled fast: one table is played through the use cases (a live Palatinus table
with a daily pace, and one played to its end), and its rows are copied in bulk under new ids,
members and channels. Finished tables are copied with their seats but not their move logs or
ended turns (neither is read at start or by a tick).

    python bench/bench_scale.py [--live 10000] [--finished 10000 --finished 90000]
                                [--db sqlite] [--db embedded-postgres] [--catch-up 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pace.clock import FakeClock
from bot.pace.model import make_timing
from bot.pace.scheduler import paced
from bot.store import open_store
from bot.tables import Tables
from bot.tables.outbox import Outbox
from bot.values import Member
from rules.core import Rng
from tests.scale_fill import (
    FINISHED_ROWS,
    LIVE_ROWS,
    renumber,
    sqlite_insert,
    sqlite_rows,
    template_sql,
)

GAME, PLAYERS = "palatinus", 3
T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
BUSY = 424_242  # the member with 20 tables waiting on them
BUSY_TABLES = 20
LIVE_BASE, FINISHED_BASE = 1_000_000, 5_000_000  # table ids of the copies
MEMBER_BASE = 10_000_000
SAMPLES = 200
SERIALS = ("game_tables", "turns", "reminders", "actions")

# What start, a tick and /turns ask of the store (the SQL of bot/store), to explain.
QUERIES = {
    "unannounced (start)": (
        "SELECT * FROM game_tables WHERE {plus}status IN ('playing', 'over')"
        " AND announced < version AND snapshot IS NOT NULL ORDER BY id", ()),
    "unplanned tables (start)": (
        "SELECT * FROM game_tables g WHERE status = 'playing' AND NOT EXISTS (SELECT 1"
        " FROM turns t WHERE t.table_id = g.id AND t.ended_at IS NULL) ORDER BY id", ()),
    "tables with computers (start)": (
        "SELECT * FROM game_tables g WHERE status = 'playing' AND EXISTS (SELECT 1 FROM"
        " seats s WHERE s.table_id = g.id AND (s.is_computer OR s.standing IS NOT NULL))"
        " ORDER BY id", ()),
    "fired deadlines (start)": (
        "SELECT t.*, g.guild_id, g.version FROM turns t JOIN game_tables g ON g.id = t.table_id"
        " WHERE t.fired_at IS NOT NULL AND t.ended_at IS NULL AND g.status = 'playing'"
        " ORDER BY t.due_at, t.id", ()),
    "due deadlines (tick)": (
        "SELECT t.* FROM turns t LEFT JOIN table_timing c ON c.table_id = t.table_id"
        " WHERE t.due_at <= {0} AND t.fired_at IS NULL AND t.ended_at IS NULL"
        " AND c.paused_at IS NULL ORDER BY t.due_at, t.id LIMIT 100", (0,)),
    "due reminders (tick)": (
        "SELECT r.* FROM reminders r JOIN turns t ON t.id = r.turn_id"
        " LEFT JOIN table_timing c ON c.table_id = r.table_id"
        " WHERE r.due_at <= {0} AND r.fired_at IS NULL AND t.ended_at IS NULL"
        " AND t.fired_at IS NULL AND c.paused_at IS NULL ORDER BY r.member_id, r.id LIMIT 200",
        (0,)),
    "/turns": (
        "SELECT t.*, g.guild_id, g.channel_id FROM turns t JOIN game_tables g ON g.id = t.table_id"
        " LEFT JOIN table_timing c ON c.table_id = t.table_id"
        " WHERE t.member_id = {0} AND t.ended_at IS NULL AND g.status = 'playing'"
        " ORDER BY t.started_at, t.id", (BUSY,)),
    "a member's tables (DMs)": (
        "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id"
        " WHERE s.member_id = {0} AND t.status IN ('lobby', 'playing') ORDER BY t.id", (BUSY,)),
}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# -- the templates, played through the use cases -------------------------------------------


async def templates(target: str) -> tuple[int, int]:
    """A live table with a daily pace (its first deadline open) and a finished one."""
    store = await open_store(target)
    tables, scheduler = paced(store, FakeClock(T0))
    members = [Member(n + 1, f"P{n + 1}") for n in range(PLAYERS)]
    ids = []
    for channel in (1, 2):
        opened = await tables.open(GAME, channel, members[0], seat_order="join")
        for member in members[1:]:
            await tables.join(opened.table_id, member)
        await scheduler.set_timing(opened.table_id, make_timing("daily"), members[0])
        await tables.start(opened.table_id, members[0])
        ids.append(opened.table_id)
    rng = Rng("bench-scale")
    finished = ids[1]
    while (await tables.table_for(finished)).status == "playing":
        for member in members:
            moves = await tables.legal_moves(finished, member)
            if moves:
                await tables.act(finished, member, moves[rng.randbelow(len(moves))])
                break
    await store.close()
    return ids[0], ids[1]


def member_map(template_members: list[int], n: int, active: int | None) -> dict[int, int]:
    mapping = {m: MEMBER_BASE + n * PLAYERS + i for i, m in enumerate(template_members)}
    if active is not None and n < BUSY_TABLES:
        mapping[active] = BUSY
    return mapping


# -- SQLite ------------------------------------------------------------------------------


def sqlite_explain(path: str) -> dict[str, list[str]]:
    import sqlite3

    db = sqlite3.connect(path)
    out = {}
    for name, (sql, params) in QUERIES.items():
        plan = db.execute("EXPLAIN QUERY PLAN " + sql.format(*params, plus="+")).fetchall()
        out[name] = [str(step[-1]) for step in plan]
    db.close()
    return out


# -- PostgreSQL --------------------------------------------------------------------------


async def pg_rows(url: str, table: str, column: str, table_id: int) -> list[dict[str, Any]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [dict(r) for r in await conn.fetch(template_sql(table, column, "$1"),
                                                  table_id)]
    finally:
        await conn.close()


async def pg_insert(url: str, table: str, rows: list[dict[str, Any]]) -> None:
    import asyncpg

    if not rows:
        return
    conn = await asyncpg.connect(url)
    try:
        columns = list(rows[0])
        await conn.copy_records_to_table(
            table, records=[tuple(r[c] for c in columns) for r in rows], columns=columns)
        for serial in SERIALS:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{serial}', 'id'),"
                f" (SELECT COALESCE(max(id), 1) FROM {serial}))")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def pg_explain(url: str) -> dict[str, list[str]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    out = {}
    try:
        for name, (sql, params) in QUERIES.items():
            plan = await conn.fetch("EXPLAIN " + sql.format(*params, plus=""))
            out[name] = [r[0].strip() for r in plan]
    finally:
        await conn.close()
    return out


# -- filling -----------------------------------------------------------------------------


class Filler:
    def __init__(self, target: str) -> None:
        self.target = target
        self.postgres = target.startswith("postgresql://")

    async def rows(self, table: str, column: str, table_id: int) -> list[dict[str, Any]]:
        if self.postgres:
            return await pg_rows(self.target, table, column, table_id)
        return await asyncio.to_thread(sqlite_rows, self.target, table, column, table_id)

    async def insert(self, table: str, rows: list[dict[str, Any]]) -> None:
        if self.postgres:
            await pg_insert(self.target, table, rows)
        else:
            await asyncio.to_thread(sqlite_insert, self.target, table, rows)

    async def copies(self, template: int, spec: tuple[tuple[str, str], ...], first: int,
                     count: int, live: bool) -> None:
        seats = await self.rows("seats", "table_id", template)
        members = [s["member_id"] for s in seats]
        turns = await self.rows("turns", "table_id", template) if live else []
        active = next((t["member_id"] for t in turns if t["ended_at"] is None), None)
        for table, column in spec:
            found = await self.rows(table, column, template)
            copied = [renumber(r, table, first + n, member_map(members, n, active),
                               guild_id=1 + n % 500)
                      for n in range(count) for r in found]
            await self.insert(table, copied)

    async def explain(self) -> dict[str, list[str]]:
        if self.postgres:
            return await pg_explain(self.target)
        return await asyncio.to_thread(sqlite_explain, self.target)


# -- the measured process ----------------------------------------------------------------


async def timed(phases: dict[str, float], name: str, work: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    result = await work()
    phases[name] = time.perf_counter() - start
    return result


class Counted:
    """The outbox's poster here: counts what would reach Discord."""

    def __init__(self) -> None:
        self.posts = 0

    async def post_versions(self, notice: Any, versions: Any) -> int | None:
        self.posts += 1
        return None

    async def post_plain(self, notice: Any) -> None:
        self.posts += 1

    async def send_private(self, notice: Any) -> None:
        return None

    async def answer_owed(self, reply: Any, text: str) -> None:
        return None


async def measure(target: str) -> dict[str, Any]:
    """Start as a bot process does (in a process of its own): open the store, then answer
    commands while the restart's work runs in the background, as the bot does after ready;
    then time ticks and ``/turns`` with every deadline open."""
    phases: dict[str, float] = {}
    began = time.perf_counter()
    store = await timed(phases, "open the store", lambda: open_store(target))
    clock = FakeClock(T0 + timedelta(minutes=1))
    tables, scheduler = paced(store, clock)
    poster = Counted()
    outbox = Outbox(tables, poster)
    ready = time.perf_counter() - began  # commands are answered from here on

    async def after_restart() -> None:
        # The bot's order (``bot/ui/restart.py``, then ``Firing.run``), each phase timed.
        await timed(phases, "announcement catch-up", lambda: outbox.catch_up(all_servers))
        await timed(phases, "due computer seats",
                    lambda: outbox.resume_computers(all_servers))
        await timed(phases, "plan tables left unplanned (sync)", scheduler.sync)
        await timed(phases, "recover fired deadlines", scheduler.recover)

    background = asyncio.create_task(after_restart())
    answers: list[float] = []
    while not background.done():
        # A member's command meanwhile: ``/turns``, as a DM's table lookup would read.
        start = time.perf_counter()
        await scheduler.waiting(BUSY)
        answers.append(time.perf_counter() - start)
        await asyncio.sleep(0.01)
    await background
    drained = time.perf_counter() - began - ready
    ticks, turns = [], []
    for _ in range(SAMPLES):
        start = time.perf_counter()
        fired = await scheduler.tick()
        ticks.append(time.perf_counter() - start)
        assert fired == [], "nothing falls due a minute after the start"
        start = time.perf_counter()
        waiting = await scheduler.waiting(BUSY)
        turns.append(time.perf_counter() - start)
    assert len(waiting) == BUSY_TABLES, len(waiting)
    open_deadlines = len(await store.due_turns(int((T0 + timedelta(days=30)).timestamp()),
                                               limit=1_000_000))
    await store.close()
    return {"phases": phases, "ready": ready, "drain": drained, "caught": poster.posts,
            "rss_kib": resident_kib(), "during": spread(answers),
            "tick": spread(ticks), "turns": spread(turns), "open_deadlines": open_deadlines}


def all_servers(guild_id: int | None) -> bool:
    return True  # one process looks after every table


def spread(values: Sequence[float]) -> list[float]:
    """p50 and p99 (0 when nothing was measured)."""
    if not values:
        return [0.0, 0.0]
    return [statistics.median(values), percentile(values, 99)]


def resident_kib() -> int:
    status = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def measure_in_child(target: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--measure", target], check=True,
                         capture_output=True, text=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


async def unannounce(target: str, count: int) -> None:
    """``count`` live tables get a move committed and never told (as after a crash)."""
    store = await open_store(target)
    tables = Tables(store)
    for n in range(count):
        table_id = LIVE_BASE + BUSY_TABLES + n
        loaded = await tables.live.load(table_id)
        assert loaded.state is not None
        seat = sorted(loaded.game.active_seats(loaded.state))[0]
        member = loaded.seats[seat].member_id
        assert member is not None
        moves = await tables.legal_moves(table_id, Member(member, "x"))
        await tables.act(table_id, Member(member, "x"), moves[0])
    await store.close()


# -- the run -----------------------------------------------------------------------------


def report(label: str, finished: int, live: int, result: dict[str, Any]) -> None:
    phases = ", ".join(f"{name} {ms(s)}" for name, s in result["phases"].items())
    print(f"  {finished:,} finished + {live:,} live tables "
          f"({result['open_deadlines']:,} open deadlines):")
    during = result["during"]
    print(f"    start to ready {result['ready']:.2f} s; the restart's background work drained "
          f"{result['drain']:.2f} s later ({phases}); {result['caught']} tables caught up; "
          f"/turns meanwhile p50 {ms(during[0])} p99 {ms(during[1])}")
    print(f"    resident once drained {result['rss_kib'] / 1024:.0f} MiB; "
          f"tick p50 {ms(result['tick'][0])} p99 {ms(result['tick'][1])}; "
          f"/turns (20 tables) p50 {ms(result['turns'][0])} p99 {ms(result['turns'][1])}")


async def run(target: str, label: str, args: argparse.Namespace) -> None:
    print(f"{label}:")
    live_template, finished_template = await templates(target)
    filler = Filler(target)
    start = time.perf_counter()
    await filler.copies(live_template, LIVE_ROWS, LIVE_BASE, args.live, live=True)
    await unannounce(target, args.catch_up)
    done = 0
    for size in sorted(args.finished):
        await filler.copies(finished_template, FINISHED_ROWS, FINISHED_BASE + done,
                            size - done, live=False)
        done = size
        print(f"  (filled in {time.perf_counter() - start:.0f} s so far)")
        report(label, size, args.live, await asyncio.to_thread(measure_in_child, target))
    for name, plan in (await filler.explain()).items():
        print(f"  plan of {name}: " + " | ".join(plan))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--live", type=int, default=10_000)
    parser.add_argument("--finished", type=int, action="append",
                        help="finished tables (several: measured at each size)")
    parser.add_argument("--catch-up", type=int, default=50,
                        help="live tables with a move committed but not announced")
    parser.add_argument("--db", action="append", help="sqlite (default) or embedded-postgres")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(await measure(args.measure)))
        return
    args.finished = args.finished or [10_000, 90_000]
    for db in args.db or ["sqlite"]:
        if db == "sqlite":
            with tempfile.TemporaryDirectory(prefix="tabula-scale-") as tmp:
                await run(str(Path(tmp) / "scale.db"), "SQLite file", args)
            continue
        from tests.pg_server import EmbeddedPostgres  # only when asked: starts a server

        with tempfile.TemporaryDirectory(prefix="tabula-scale-pg-") as tmp:
            server = await asyncio.to_thread(EmbeddedPostgres.start, Path(tmp))
            try:
                await run(server.new_database(), "PostgreSQL (embedded-postgres)", args)
            finally:
                server.stop()


if __name__ == "__main__":
    asyncio.run(main())
