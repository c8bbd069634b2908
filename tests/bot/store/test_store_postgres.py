"""Several processes, one PostgreSQL database: concurrent writers on the same tables lose
nothing and apply nothing twice, a killed writer loses nothing it acknowledged, two processes
starting together migrate once. Plus the schema kept in step with SQLite's."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import IntegrityFailure, SqliteStore, Store, open_store, redacted
from bot.store.postgres.store import PostgresStore, migrations
from bot.store.transfer import check_same_tables, sqlite_layout
from bot.tables import Tables, gamelog
from tests.bot.store.crash_writer import ALICE, BOB, shared_table
from tests.pebbles import GAME as PEBBLES
from tests.pg_server import EmbeddedPostgres

ROOT = Path(__file__).resolve().parents[3]
MOVES = 40
STARTED = 2  # the version of a Pebbles table once opened, joined and started


async def open_pebbles(tables: Tables, channel: int) -> int:
    opened = await tables.open("pebbles", channel, ALICE, seat_order="join",
                               options={"turns": 1_000_000, "first": 0})
    await tables.join(opened.table_id, BOB)
    await tables.start(opened.table_id, ALICE)
    return opened.table_id


async def check_log(store: Store, table_id: int, applied: list[int]) -> None:
    """Each version in the log once, each key once, every acknowledged move there, and the
    snapshot equal to a replay of the log."""
    table = await store.get_table(table_id)
    assert table is not None
    log = await store.actions(table_id)
    assert [a.version for a in log] == list(range(STARTED + 1, table.version + 1))
    # Each move is keyed by the version it started from.
    assert [a.idem_key for a in log] == [f"v{a.version - 1}" for a in log]
    assert sorted(applied) == sorted(set(applied))  # nobody was told twice of one move
    assert set(applied) <= {a.version for a in log}
    seats = await store.seats(table_id)
    state = gamelog.rebuild(PEBBLES, table, len(seats), gamelog.effective(log))
    assert PEBBLES.dump(state) == table.snapshot


async def test_two_processes_on_one_database_apply_each_move_once(
    postgres_url: str, with_pebbles: None
) -> None:
    # Two stores, two pools, two Tables (each with its own locks and caches): two bots.
    first, second = await open_store(postgres_url), await open_store(postgres_url)
    try:
        a, b = Tables(first), Tables(second)
        channels = [7001, 7002, 7003]
        ids = [await open_pebbles(a, c) for c in channels]
        runs = await asyncio.wait_for(asyncio.gather(*(
            shared_table(tables, c, STARTED + MOVES) for c in channels for tables in (a, b)
        )), timeout=120)
        for n, table_id in enumerate(ids):
            applied = runs[2 * n] + runs[2 * n + 1]
            assert len(applied) == MOVES  # every move applied once, by one of the two
            await check_log(first, table_id, applied)
    finally:
        await first.close()
        await second.close()


async def test_a_killed_process_loses_nothing_it_acknowledged(
    postgres_url: str, with_pebbles: None
) -> None:
    store = await open_store(postgres_url)
    tables = Tables(store)
    table_id = await open_pebbles(tables, 7100)
    writer = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.store.crash_writer", postgres_url, "7100",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    acked: list[int] = []
    try:
        survivor = asyncio.create_task(shared_table(tables, 7100, 1_000_000))
        assert writer.stdout is not None
        deadline = time.monotonic() + 60
        while len(acked) < 30 and time.monotonic() < deadline:
            line = await asyncio.wait_for(writer.stdout.readline(), timeout=60)
            if not line:
                break
            acked.append(int(line.split()[1]))
        os.kill(writer.pid, signal.SIGKILL)
        await writer.wait()
        assert len(acked) >= 30, (await writer.stderr.read()).decode() if writer.stderr else ""
        # The survivor plays on past the kill (and past anything the writer left unfinished).
        survivor.cancel()
        target = max(acked) + 20
        mine = await asyncio.wait_for(shared_table(tables, 7100, target), timeout=60)
        assert (await tables.table_for(table_id)).version >= target
        await check_log(store, table_id, acked + mine)
    finally:
        if writer.returncode is None:
            writer.kill()
            await writer.wait()
        await store.close()


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(3)))
    try:
        conn = await asyncpg.connect(postgres_url)
        applied = [r[0] for r in await conn.fetch("SELECT version FROM schema_version")]
        await conn.close()
        assert sorted(applied) == [n for n, _ in migrations()]
    finally:
        for store in stores:
            await store.close()


async def test_a_schema_newer_than_the_program_is_refused(postgres_url: str) -> None:
    await (await PostgresStore.open(postgres_url)).close()
    conn = await asyncpg.connect(postgres_url)
    await conn.execute("INSERT INTO schema_version (version) VALUES (9999)")
    await conn.close()
    with pytest.raises(IntegrityFailure, match="9999"):
        await PostgresStore.open(postgres_url)


async def test_both_schemas_have_the_same_tables_and_columns(
    postgres_url: str, tmp_path: Path
) -> None:
    await (await SqliteStore.open(tmp_path / "t.db")).close()
    await (await PostgresStore.open(postgres_url)).close()
    async with aiosqlite.connect(tmp_path / "t.db") as db:
        layout = await sqlite_layout(db)
    conn = await asyncpg.connect(postgres_url)
    try:
        await check_same_tables(conn, layout)  # raises on any difference
    finally:
        await conn.close()
    names = [name for name, _ in layout]
    assert names.index("leagues") < names.index("game_tables") < names.index("actions")


def test_a_password_never_reaches_a_message() -> None:
    assert redacted("postgresql://bot:s3cret@db.example:5432/tabula") == (
        "postgresql://bot@db.example:5432/tabula")
    assert redacted("postgresql:///tabula?host=/run/pg") == "postgresql:///tabula?host=/run/pg"


def test_the_server_fixture_hands_out_separate_places(postgres_server: EmbeddedPostgres) -> None:
    one, two = postgres_server.new_database(), postgres_server.new_database()
    assert one != two
    postgres_server.drop_database(one)
    postgres_server.drop_database(two)
