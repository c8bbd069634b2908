"""The SQLite store: pragmas, migrations, the partial unique index, crash safety, backup."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import (
    ChannelBusy,
    IntegrityFailure,
    NewAction,
    SqliteStore,
    StaleVersion,
    Step,
)
from bot.store.sqlite import migrations

ROOT = Path(__file__).resolve().parents[2]


async def new_table(store: SqliteStore, channel: int = 1) -> int:
    table = await store.create_table(
        guild_id=None, channel_id=channel, game_id="pebbles", creator_id=1,
        creator_name="A", options={}, max_players=None, seat_order="join",
        seed="s", seed_hash="h",
    )
    return table.id


async def test_pragmas_and_schema_version(store: SqliteStore, tmp_path: Path) -> None:
    assert await store.schema_version() == max(n for n, _ in migrations())
    conn = sqlite3.connect(tmp_path / "tabula.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_reopening_applies_no_migration_twice(tmp_path: Path) -> None:
    path = tmp_path / "again.db"
    first = await SqliteStore.open(path)
    await new_table(first)
    await first.close()
    second = await SqliteStore.open(path)
    assert await second.live_table(1) is not None
    await second.close()


async def test_the_partial_index_allows_one_live_table_per_channel(store: SqliteStore) -> None:
    table_id = await new_table(store)
    with pytest.raises(ChannelBusy):
        await new_table(store)
    await store.set_status(table_id, "over", 0)
    await new_table(store)  # a finished table does not hold the channel


async def test_a_stale_version_writes_nothing(store: SqliteStore) -> None:
    table_id = await new_table(store)
    await store.start(table_id, 0, [0], {"n": 0})
    await store.record(table_id, 1, {"n": 1}, NewAction("act", 0, 1, {"type": "x"}))
    with pytest.raises(StaleVersion):
        await store.record(table_id, 1, {"n": 99}, NewAction("act", 0, 1, {"type": "y"}))
    table = await store.get_table(table_id)
    assert table is not None and table.snapshot == {"n": 1} and table.version == 2
    assert len(await store.actions(table_id)) == 1


async def test_online_backup_is_a_consistent_copy(store: SqliteStore, tmp_path: Path) -> None:
    table_id = await new_table(store)
    target = tmp_path / "backup.db"
    await store.backup(target)
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT id FROM game_tables").fetchall() == [(table_id,)]
    copy.close()


def test_kill_9_mid_stream_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.crash_writer", str(db)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    acked = 0
    deadline = time.monotonic() + 60
    try:
        assert proc.stdout is not None
        while acked < 150 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            acked = int(line.split()[1])
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert acked >= 150, proc.stderr.read() if proc.stderr else ""
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    version = conn.execute("SELECT version FROM game_tables").fetchone()[0]
    logged = {v for (v,) in conn.execute("SELECT version FROM actions")}
    conn.close()
    # Every acknowledged version is on disk (more may be: committed, not yet printed).
    assert version >= acked
    assert set(range(min(logged), acked + 1)) <= logged


async def test_the_backup_command_copies_a_live_database(tmp_path: Path) -> None:
    live = await SqliteStore.open(tmp_path / "live.db")
    table_id = await new_table(live)
    target = tmp_path / "copy.db"
    env = {**os.environ, "TABULA_DB": str(tmp_path / "live.db"), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(target)], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60,
    )
    await live.close()
    assert result.returncode == 0, result.stderr
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT id FROM game_tables").fetchall() == [(table_id,)]
    copy.close()


async def test_a_corrupt_database_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises((IntegrityFailure, sqlite3.DatabaseError)):
        await SqliteStore.open(path)


async def test_group_commit_keeps_a_refused_move_from_undoing_the_others(
    store: SqliteStore,
) -> None:
    """Moves of several tables that wait together are written in one transaction; a stale one
    is refused alone and the others are durable."""
    ids = [await new_table(store, channel=100 + n) for n in range(4)]

    def step(n: int) -> list[Step]:
        return [Step({"n": n}, NewAction("act", 0, 1, action={"type": "x"}, idem_key=f"k{n}"))]

    commits_before = store.commits
    results = await asyncio.gather(
        *(store.record_steps(table_id, 0, step(n)) for n, table_id in enumerate(ids)),
        store.record_steps(ids[0], 0, step(9)),  # stale: table 0 moves on first
        return_exceptions=True,
    )
    assert results[:4] == [1, 1, 1, 1]
    assert isinstance(results[4], StaleVersion)
    assert store.commits - commits_before <= 2  # one transaction for the waiting group
    for table_id in ids:
        assert [a.version for a in await store.actions(table_id)] == [1]
