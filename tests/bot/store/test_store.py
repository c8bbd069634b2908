"""The store contract: every test taking ``store`` or ``store_target`` runs on SQLite and on
PostgreSQL (see ``tests/conftest.py``). SQLite-only facts (pragmas, a corrupt file) come last."""

from __future__ import annotations

import asyncio
import inspect
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.store import (
    AlreadyExists,
    AlreadySeated,
    ChannelBusy,
    DuplicateKey,
    IntegrityFailure,
    NewAction,
    SqliteStore,
    StaleVersion,
    Step,
    Store,
    is_postgres,
    open_store,
)
from bot.store.postgres.store import PostgresStore
from bot.store.postgres.store import migrations as postgres_migrations
from bot.store.sql.script import Script, count
from bot.store.sqlite.setup import migrations

ROOT = Path(__file__).resolve().parents[3]


async def new_table(store: Store, channel: int = 1, creator: int = 1) -> int:
    table = await store.create_table(
        guild_id=None, channel_id=channel, game_id="pebbles", creator_id=creator,
        creator_name="A", options={}, max_players=None, seat_order="join",
        seed="s", seed_hash="h",
    )
    return table.id


async def started(store: Store, channel: int = 1) -> int:
    table_id = await new_table(store, channel)
    await store.start(table_id, 0, [0], {"n": 0})
    return table_id


# -- opening and migrations -----------------------------------------------------------------


def test_both_stores_implement_exactly_the_store_interface() -> None:
    def methods(cls: type) -> dict[str, list[str]]:
        return {
            name: list(inspect.signature(getattr(cls, name)).parameters)
            for name in dir(cls)
            if not name.startswith("_") and callable(getattr(cls, name)) and name != "open"
        }

    assert methods(SqliteStore) == methods(Store) == methods(PostgresStore)


def test_both_stores_have_the_same_migration_numbers_one_to_n() -> None:
    numbers = [n for n, _ in migrations()]
    # No gap and no number twice: a database at N never skips a later file numbered below N.
    assert numbers == list(range(1, len(numbers) + 1))
    assert numbers == [n for n, _ in postgres_migrations()]


async def test_the_schema_version_is_the_last_migration(store: Store) -> None:
    assert await store.schema_version() == max(n for n, _ in migrations())


async def test_reopening_applies_no_migration_twice(store_target: str) -> None:
    first = await open_store(store_target)
    await new_table(first)
    await first.close()
    second = await open_store(store_target)
    assert await second.live_table(1) is not None
    assert await second.schema_version() == max(n for n, _ in migrations())
    await second.close()


# -- tables, seats, the log -----------------------------------------------------------------


async def test_the_partial_index_allows_one_live_table_per_channel(store: Store) -> None:
    table_id = await new_table(store)
    with pytest.raises(ChannelBusy):
        await new_table(store)
    await store.set_status(table_id, "over", 0)
    second = await new_table(store)  # a finished table does not hold the channel
    latest = await store.latest_table(1)
    assert latest is not None and latest.id == second and latest.status == "lobby"
    assert [t.id for t in await store.tables_with_status("over")] == [table_id]


async def test_a_stale_version_writes_nothing(store: Store) -> None:
    table_id = await started(store)
    assert await store.record(table_id, 1, {"n": 1}, NewAction("act", 0, 1, {"type": "x"})) == 2
    with pytest.raises(StaleVersion):
        await store.record(table_id, 1, {"n": 99}, NewAction("act", 0, 1, {"type": "y"}))
    with pytest.raises(StaleVersion):
        await store.set_status(table_id, "over", 1)
    table = await store.get_table(table_id)
    assert table is not None and table.snapshot == {"n": 1} and table.version == 2
    assert len(await store.actions(table_id)) == 1


async def test_a_repeated_idempotency_key_is_refused_and_writes_nothing(store: Store) -> None:
    table_id = await started(store)
    await store.record(table_id, 1, {"n": 1}, NewAction("act", 0, 1, {"t": 1}, idem_key="i1"))
    with pytest.raises(DuplicateKey):
        await store.record(table_id, 2, {"n": 2}, NewAction("act", 0, 1, {"t": 2}, idem_key="i1"))
    table = await store.get_table(table_id)
    assert table is not None and table.version == 2 and table.snapshot == {"n": 1}
    found = await store.find_action_by_key(table_id, "i1")
    assert found is not None and found.version == 2 and found.action == {"t": 1}
    assert await store.find_action_by_key(table_id, "other") is None


async def test_the_log_keeps_every_entry_in_order(store: Store) -> None:
    table_id = await started(store)
    await store.record(table_id, 1, {"n": 1}, NewAction(
        "act", 0, 7, {"type": "play", "card": 3}, text="played 3", irreversible=True,
        idem_key="a", notation="play 3"))
    first = (await store.actions(table_id))[0]
    await store.record(table_id, 2, {"n": 0}, NewAction("undo", 0, 7, undoes=first.id),
                       status="over")
    log = await store.actions(table_id)
    assert [(e.version, e.kind) for e in log] == [(2, "act"), (3, "undo")]
    assert log[0] == first and first.irreversible and first.notation == "play 3"
    assert first.text == "played 3" and first.seat == 0 and first.member_id == 7
    assert log[1].undoes == first.id and log[1].action is None and not log[1].irreversible
    last = await store.last_action_of(table_id, 7)
    assert last is not None and last.id == first.id  # an undo is not a move
    assert await store.last_action_of(table_id, 8) is None
    table = await store.get_table(table_id)
    assert table is not None and table.status == "over" and not table.live


async def test_seats_are_numbered_without_gaps(store: Store) -> None:
    table_id = await new_table(store, creator=10)
    assert [s.member_id for s in await store.add_seat(table_id, 11, "B", 0)] == [10, 11]
    seats = await store.add_seat(table_id, None, "Computer 1", 1, level="hard")
    assert [(s.member_id, s.is_computer, s.level) for s in seats] == [
        (10, False, None), (11, False, None), (None, True, "hard")]
    with pytest.raises(AlreadySeated):
        await store.add_seat(table_id, 11, "B", 2)
    with pytest.raises(StaleVersion):
        await store.add_seat(table_id, 12, "C", 1)
    assert len(await store.add_seat(table_id, 12, "C", 2)) == 4
    seats = await store.remove_seat(table_id, 1, 3)
    assert seats == await store.seats(table_id)
    assert [(s.position, s.member_id, s.name, s.is_computer) for s in seats] == [
        (0, 10, "A", False), (1, None, "Computer 1", True), (2, 12, "C", False)]
    with pytest.raises(StaleVersion):
        await store.remove_seat(table_id, 0, 3)
    seats = await store.start(table_id, 4, [2, 0, 1], {"dealt": True})
    assert seats == await store.seats(table_id)
    assert [(s.position, s.member_id) for s in seats] == [(0, 12), (1, 10), (2, None)]
    table = await store.get_table(table_id)
    assert table is not None and table.version == 5
    await store.set_dm_closed(table_id, 10, True)
    assert [s.dm_closed for s in await store.seats(table_id)] == [False, True, False]
    table = await store.get_table(table_id)
    assert table is not None and table.status == "playing" and table.snapshot == {"dealt": True}
    assert [t.id for t in await store.tables_of_member(12)] == [table_id]
    assert await store.tables_of_member(11) == []


async def test_a_table_record_round_trips(store: Store) -> None:
    made = await store.create_table(
        guild_id=2**62, channel_id=2**61 + 5, game_id="pebbles", creator_id=2**60,
        creator_name="Ünïcode ✓", options={"turns": 3, "names": ["é", "\u00e9"]},
        max_players=3, seat_order="shuffled", seed="seed", seed_hash="hash",
    )
    table_id = made.id
    table = await store.live_table(2**61 + 5)
    assert table == made and table.status == "lobby" and table.announced == 0
    assert (table.guild_id, table.creator_id, table.max_players) == (2**62, 2**60, 3)
    assert table.options == {"turns": 3, "names": ["é", "é"]}
    assert (table.seat_order, table.seed, table.seed_hash) == ("shuffled", "seed", "hash")
    assert table.snapshot is None and table.version == 0 and table.message_id is None
    assert table.created_at.endswith("+00:00") and table.created_at == table.updated_at
    assert (await store.seats(table_id))[0].name == "Ünïcode ✓"


async def test_a_preview_is_taken_at_most_once_by_its_own_member(store: Store) -> None:
    table_id = await started(store)
    first = await store.add_pending(table_id, 5, 1, {"type": "hold"}, "hold")
    second = await store.add_pending(table_id, 5, 1, {"type": "pass"}, "pass", fingerprint="f")
    assert second != first  # a superseded preview's id is never handed out again
    assert await store.take_pending(first, 5) is None  # superseded by the newer preview
    with pytest.raises(PermissionError):
        await store.take_pending(second, 6)  # another member's: refused and left in place
    taken = await store.take_pending(second, 5)
    assert taken is not None and (taken.table_id, taken.member_id, taken.version) == (
        table_id, 5, 1)
    assert taken.action == {"type": "pass"} and taken.text == "pass"
    assert taken.fingerprint == "f"
    assert await store.take_pending(second, 5) is None
    third = await store.add_pending(table_id, 5, 1, {"type": "hold"}, "hold")
    assert third > second


def step(n: int, key: str | None = None) -> Step:
    return Step({"n": n}, NewAction("act", 0, 1, action={"type": "x"}, idem_key=key))


async def test_steps_are_written_all_or_nothing(store: Store) -> None:
    table_id = await started(store)
    steps = [step(1, "a"), step(2, "b"), step(3)]
    over = Step({"n": 4}, NewAction("act", 0, None, action={"type": "y"}), "over")
    assert await store.record_steps(table_id, 1, [*steps, over]) == 5
    table = await store.get_table(table_id)
    assert table is not None and table.snapshot == {"n": 4} and table.status == "over"
    assert [(a.version, a.idem_key) for a in await store.actions(table_id)] == [
        (2, "a"), (3, "b"), (4, None), (5, None)]
    assert [a.version for a in await store.actions(table_id, after_version=3)] == [4, 5]
    other = await started(store, channel=2)
    await store.record(other, 1, {"n": 1}, NewAction("act", 0, 1, idem_key="k"))
    # A repeated key in the middle of a chain refuses the whole chain.
    with pytest.raises(DuplicateKey):
        await store.record_steps(other, 2, [step(2), step(3, "k"), step(4)])
    with pytest.raises(StaleVersion):
        await store.record_steps(other, 1, [step(2), step(3)])
    table = await store.get_table(other)
    assert table is not None and table.version == 2 and table.snapshot == {"n": 1}
    assert [a.version for a in await store.actions(other)] == [2]


async def test_only_the_last_step_of_a_chain_needs_a_snapshot(store: Store) -> None:
    """The table keeps the last snapshot only, so earlier steps may leave theirs out (nobody
    encodes states that are never read); a chain whose last step has none is refused."""
    table_id = await started(store)
    bare = Step(None, NewAction("act", 0, 1, action={"type": "x"}))
    assert await store.record_steps(table_id, 1, [bare, bare, step(4)]) == 4
    table = await store.get_table(table_id)
    assert table is not None and table.snapshot == {"n": 4}
    assert [a.version for a in await store.actions(table_id)] == [2, 3, 4]
    with pytest.raises(ValueError):
        await store.record_steps(table_id, 4, [step(5), bare])
    table = await store.get_table(table_id)
    assert table is not None and table.version == 4 and table.snapshot == {"n": 4}


async def test_concurrent_moves_of_several_tables_are_each_durable(store: Store) -> None:
    """Moves of several tables at once (SQLite writes them in one transaction); of two moves made
    from the same version one is refused, alone, and the others are written."""
    ids = [await new_table(store, channel=100 + n) for n in range(4)]
    commits_before = store.commits
    results = await asyncio.gather(
        *(store.record_steps(table_id, 0, [step(n, f"k{n}")])
          for n, table_id in enumerate(ids)),
        store.record_steps(ids[0], 0, [step(9)]),  # stale: table 0 moves on first
        return_exceptions=True,
    )
    assert results[1:4] == [1, 1, 1]
    if isinstance(store, SqliteStore):
        # One writer thread takes them in the order asked.
        assert results[0] == 1 and isinstance(results[4], StaleVersion)
        assert store.commits - commits_before <= 2  # one transaction for the waiting group
    else:
        # Each move has its own connection, so either move of table 0 may win: exactly one does.
        first, second = results[0], results[4]
        assert sorted([first == 1, second == 1]) == [False, True]
        assert isinstance(second if first == 1 else first, StaleVersion)
        assert store.commits - commits_before == 4  # one each; the server shares the flushes
    for table_id in ids:
        assert [a.version for a in await store.actions(table_id)] == [1]


async def test_a_committed_version_stays_unannounced_until_marked(store: Store) -> None:
    lobby = await new_table(store, channel=1)
    table_id = await started(store, channel=2)
    assert [t.id for t in await store.unannounced()] == [table_id]
    await store.mark_announced(table_id, 1)
    assert await store.unannounced() == []
    await store.record(table_id, 1, {"n": 1}, NewAction("act", 0, 1))
    assert [(t.id, t.announced) for t in await store.unannounced()] == [(table_id, 1)]
    await store.mark_announced(table_id, 2)
    await store.mark_announced(table_id, 1)  # a late, older mark never goes back
    table = await store.get_table(table_id)
    assert table is not None and table.announced == 2 and await store.unannounced() == []
    assert lobby not in [t.id for t in await store.unannounced()]


async def test_league_names_are_unique_per_server_whatever_their_case(store: Store) -> None:
    spring = await store.create_league(1, "Spring", "pebbles", 9)
    with pytest.raises(AlreadyExists):
        await store.create_league(1, "SPRING", "pebbles", 9)
    await store.create_league(2, "Spring", "pebbles", 9)  # another server
    await store.create_league(1, "autumn", "pebbles", 9)
    await store.create_league(1, "Winter", "pebbles", 9)
    found = await store.league_named(1, "spring")
    assert found is not None and found.id == spring and found.name == "Spring"
    await store.close_league(spring)
    # Closed ones last; names by code point (upper case before lower case).
    assert [(x.name, x.closed) for x in await store.leagues(1)] == [
        ("Winter", False), ("autumn", False), ("Spring", True)]
    table_id = (await store.create_table(
        guild_id=1, channel_id=3, game_id="pebbles", creator_id=1, creator_name="A",
        options={}, max_players=None, seat_order="join", seed="s", seed_hash="h",
        league_id=spring,
    )).id
    assert await store.league_tables(spring) == []
    await store.set_status(table_id, "over", 0)
    assert [t.id for t in await store.league_tables(spring)] == [table_id]


# -- durability and backups -----------------------------------------------------------------


async def test_online_backup_is_a_consistent_copy(store: Store, tmp_path: Path) -> None:
    table_id = await started(store)
    await store.record(table_id, 1, {"n": 1}, NewAction("act", 0, 1, {"t": 1}, idem_key="k"))
    target = tmp_path / "backup.db"
    await store.backup(target)
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT id FROM game_tables").fetchall() == [(table_id,)]
    copy.close()
    # The copy is a store of its own: the bot can run on it.
    reopened = await SqliteStore.open(target)
    table = await reopened.get_table(table_id)
    assert table is not None and table.snapshot == {"n": 1} and table.version == 2
    assert [a.idem_key for a in await reopened.actions(table_id)] == ["k"]
    await reopened.close()


async def read_back(target: str) -> tuple[int, set[int]]:
    """The table's version and the versions in its log, through a store opened afresh."""
    store = await open_store(target)  # checks integrity on the way
    try:
        (table,) = await store.tables_with_status("lobby", "playing", "over")
        return table.version, {a.version for a in await store.actions(table.id)}
    finally:
        await store.close()


def test_kill_9_mid_stream_loses_no_acknowledged_move(store_target: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.store.crash_writer", store_target],
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
    version, logged = asyncio.run(read_back(store_target))
    # Every acknowledged version is stored (more may be: committed, not yet printed).
    assert version >= acked
    assert set(range(min(logged), acked + 1)) <= logged


async def test_the_backup_command_copies_a_live_database(store: Store, store_target: str,
                                                         tmp_path: Path) -> None:
    table_id = await new_table(store)
    target = tmp_path / "copy.db"
    env = {**os.environ, "TABULA_DB": store_target, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(target)], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT id FROM game_tables").fetchall() == [(table_id,)]
    copy.close()


# -- SQLite only ----------------------------------------------------------------------------


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "tabula.db")
    await store.close()
    conn = sqlite3.connect(tmp_path / "tabula.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_a_corrupt_database_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises((IntegrityFailure, sqlite3.DatabaseError)):
        await SqliteStore.open(path)


async def test_a_write_that_fails_inside_a_group_commit_fails_alone(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "tabula.db")
    try:
        tables = [await started(store, channel=10 + n) for n in range(3)]

        def failing() -> Script[None]:
            yield count("UPDATE game_tables SET status = 'over' WHERE id = ?", tables[0])
            raise ChannelBusy("refused")

        results = await asyncio.gather(
            store.record_steps(tables[1], 1, [step(1)]),
            store._db.write(failing()),
            store.record_steps(tables[2], 1, [step(2)]),
            return_exceptions=True,
        )
        assert results[0] == 2 and results[2] == 2 and isinstance(results[1], ChannelBusy)
        first = await store.get_table(tables[0])
        assert first is not None and first.status == "playing"  # its own writes undone
    finally:
        await store.close()


async def test_other_uses_of_the_connection_take_turns_with_group_commits(
    tmp_path: Path,
) -> None:
    """Backups and checks run on the writing connection between two group commits, however
    busy the moves keep it; everything finishes and every move is stored."""
    store = await SqliteStore.open(tmp_path / "tabula.db")
    try:
        tables = [await started(store, channel=10 + n) for n in range(10)]

        async def play(table_id: int) -> None:
            for version in range(1, 21):
                await store.record_steps(table_id, version, [step(version)])

        async def maintain() -> None:
            for n in range(5):
                await store.backup(tmp_path / f"copy{n}.db")
                await store.check_integrity()

        await asyncio.wait_for(asyncio.gather(*(play(t) for t in tables), maintain()), 60)
        for table_id in tables:
            table = await store.get_table(table_id)
            assert table is not None and table.version == 21
        copy = sqlite3.connect(tmp_path / "copy4.db")
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        copy.close()
    finally:
        await store.close()


async def test_sqlite_statements_run_on_aiosqlite_threads_never_on_the_loop(
    tmp_path: Path,
) -> None:
    """Every statement of a group commit, a read, a check and a backup runs on an aiosqlite
    connection's thread: the writes on the writer's one, the reads on the reader's."""
    store = await SqliteStore.open(tmp_path / "tabula.db")
    seen: list[tuple[str, int, str]] = []
    try:
        for name, conn in (("writer", store._connections._writer),
                           ("reader", store._connections._reader)):
            assert conn is not None
            await conn.set_trace_callback(
                lambda sql, name=name: seen.append((name, threading.get_ident(), sql)))
        tables = [await started(store, channel=10 + n) for n in range(3)]
        await asyncio.gather(*(store.record_steps(t, 1, [step(1), step(2)]) for t in tables))
        assert [a.version for a in await store.actions(tables[0])] == [2, 3]
        assert (await store.seat_changes(tables[0])) == []  # a read of its own function
        await store.check_integrity()
        await store.backup(tmp_path / "copy.db")
    finally:
        await store.close()
    loop_thread = threading.get_ident()
    assert seen and all(thread != loop_thread for _, thread, _ in seen)
    threads = {name: {thread for n, thread, _ in seen if n == name} for name in ("writer",
                                                                                 "reader")}
    assert len(threads["writer"]) == len(threads["reader"]) == 1
    assert threads["writer"] != threads["reader"]
    written = [sql for name, _, sql in seen if sql.startswith(("INSERT", "UPDATE", "COMMIT"))]
    assert written and all(name == "writer" for name, _, sql in seen if sql in written)
    assert any(sql.startswith("SELECT") for name, _, sql in seen if name == "reader")


async def test_a_write_after_close_is_refused_not_left_waiting(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "tabula.db")
    table_id = await started(store)
    await store.close()
    with pytest.raises(ValueError, match="closed"):
        await asyncio.wait_for(store.record_steps(table_id, 1, [step(1)]), 10)


def test_a_store_left_open_does_not_keep_the_process_from_exiting(tmp_path: Path) -> None:
    """aiosqlite's threads are not daemons; the store stops those still open at exit."""
    script = (
        "import asyncio, sys\n"
        "from bot.store import SqliteStore\n"
        "async def main():\n"
        "    global store\n"
        "    store = await SqliteStore.open(sys.argv[1])\n"
        "    await store.mark_announced(0, 1)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "open.db")], cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_a_url_names_postgresql_and_anything_else_a_file() -> None:
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://h/db")
    assert not is_postgres("./tabula.db") and not is_postgres(Path("postgresql:"))


async def test_sqlite_migration_7_keeps_existing_previews(tmp_path: Path) -> None:
    """A database made before preview ids were AUTOINCREMENT keeps its previews, and a newer
    preview never takes the id of one deleted before."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for number, sql in migrations():
        if number < 7:
            conn.executescript(sql)
    conn.execute("PRAGMA user_version = 6")
    conn.execute("INSERT INTO game_tables (id, channel_id, game_id, status, creator_id, seed,"
                 " seed_hash, created_at, updated_at) VALUES (1, 1, 'pebbles', 'playing', 1,"
                 " 's', 'h', 'x', 'x')")
    for pending in (1, 2):
        conn.execute("INSERT INTO pending_moves (id, table_id, member_id, version, action, text,"
                     " created_at, fingerprint) VALUES (?, 1, ?, 0, '{}', 't', 'x', 'f')",
                     (pending, pending))
    conn.commit()
    conn.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == max(n for n, _ in migrations())
        kept = await store.take_pending(1, 1)
        assert kept is not None and kept.fingerprint == "f"
        assert await store.take_pending(2, 2) is not None
        assert await store.add_pending(1, 3, 0, {}, "t") == 3
    finally:
        await store.close()
