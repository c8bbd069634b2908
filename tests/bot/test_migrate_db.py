"""``python -m bot migrate-db``: SQLite to PostgreSQL, play on, back up; refusals write nothing."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main as bot_main
from bot.store import SqliteStore, Store, open_store
from bot.tables import Tables
from tests.conftest import ADMIN, ALICE, BOB, CAROL

ROOT = Path(__file__).resolve().parents[2]
GUILD = 42


async def migrate_db(source: Path, target: str) -> int:
    """``python -m bot migrate-db`` as its own thread runs it (it runs its own event loop)."""
    return await asyncio.to_thread(
        bot_main, ["migrate-db", "--from", str(source), "--to", target]
    )


async def everything(store: Store) -> dict[str, object]:
    """All a store holds, through its interface."""
    tables = await store.tables_with_status("lobby", "playing", "over", "abandoned")
    return {
        "tables": tables,
        "seats": {t.id: await store.seats(t.id) for t in tables},
        "actions": {t.id: await store.actions(t.id) for t in tables},
        "leagues": await store.leagues(GUILD),
    }


async def a_busy_sqlite_file(path: Path) -> tuple[dict[str, object], int]:
    """Tables in every state, a league, an undo, a closed DM and a waiting preview."""
    store = await SqliteStore.open(path)
    tables = Tables(store)
    await store.create_league(GUILD, "Spring", "pebbles", ALICE.id)
    # Over, in the league.
    await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Spring",
                      options={"first": 0, "turns": 1}, seat_order="join")
    await tables.join(1, BOB)
    notice = await tables.start(1, ALICE)
    notice = await tables.act(notice.table_id, ALICE, "hold")
    notice = await tables.act(notice.table_id, BOB, "hold")
    assert notice.over
    # Live, with an undo, a closed DM and a preview waiting for Confirm.
    await tables.open("pebbles", 2, ALICE, options={"first": 0, "turns": 50}, seat_order="join")
    await tables.join(2, BOB)
    await tables.add_computer(2, ALICE)
    live = (await tables.start(2, ALICE)).table_id
    await tables.act(live, ALICE, "hold", idem_key="i-1")
    await tables.act(live, BOB, "hold")
    await tables.act(live, ALICE, "hold")
    await tables.undo(2, ALICE)
    await tables.mark_dm_closed(live, BOB.id)
    await tables.propose(live, ALICE, "hold")
    # A real game with computer seats, a lobby, an abandoned table.
    await tables.open("palatinus", 3, CAROL, seat_order="join")
    await tables.add_computer(3, CAROL)
    await tables.start(3, CAROL)
    await tables.open("pebbles", 4, CAROL)
    await tables.open("pebbles", 5, BOB)
    await tables.abandon(5, ADMIN)
    held = await everything(store)
    await store.close()
    return held, live


async def test_sqlite_to_postgresql_then_play_on_then_back_up(
    tmp_path: Path, postgres_url: str, with_pebbles: None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tabula.db"
    before, live = await a_busy_sqlite_file(source)
    assert await migrate_db(source, postgres_url) == 0
    out = capsys.readouterr().out
    assert "5 game_tables" in out and "2 live tables replay" in out

    store = await open_store(postgres_url)
    try:
        assert await everything(store) == before  # every record, ids and times included
        tables = Tables(store)
        # Play on: the preview still confirms, moves continue the log, new rows get new ids.
        pending = await store.add_pending(live, BOB.id, 0, {"type": "hold"}, "hold")
        assert pending > 1
        await tables.act(live, ALICE, "hold")
        await tables.act(live, BOB, "hold")  # and the computer seat after Bob
        # Keys recorded before the move still count.
        assert (await tables.act(live, ALICE, "hold", idem_key="i-1")).duplicate
        fresh = await tables.open("pebbles", 6, ALICE)
        assert fresh.table_id > max(t.id for t in before["tables"])  # type: ignore[attr-defined]
        after = await everything(store)
        # Back up: the SQLite copy holds exactly what PostgreSQL holds.
        await store.backup(tmp_path / "backup.db")
    finally:
        await store.close()
    copy = await SqliteStore.open(tmp_path / "backup.db")
    try:
        assert await everything(copy) == after
        grown = len(after["actions"][live]) - len(before["actions"][live])  # type: ignore[index]
        assert grown == 3
    finally:
        await copy.close()


async def test_a_non_empty_target_is_refused(
    tmp_path: Path, postgres_url: str, with_pebbles: None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tabula.db"
    await a_busy_sqlite_file(source)
    assert await migrate_db(source, postgres_url) == 0
    capsys.readouterr()
    assert await migrate_db(source, postgres_url) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err and "nothing was written" in err
    conn = await asyncpg.connect(postgres_url)
    assert await conn.fetchval("SELECT count(*) FROM game_tables") == 5
    await conn.close()


async def test_a_log_that_does_not_replay_writes_nothing(
    tmp_path: Path, postgres_url: str, with_pebbles: None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tabula.db"
    _, live = await a_busy_sqlite_file(source)
    conn = sqlite3.connect(source)
    conn.execute("DELETE FROM actions WHERE table_id = ? AND kind = 'undo'", (live,))
    conn.commit()
    conn.close()
    assert await migrate_db(source, postgres_url) == 1
    err = capsys.readouterr().err
    assert f"Table {live} (pebbles): its log does not replay to its snapshot" in err
    pg = await asyncpg.connect(postgres_url)
    assert await pg.fetchval("SELECT count(*) FROM game_tables") == 0
    assert await pg.fetchval("SELECT count(*) FROM actions") == 0
    await pg.close()


def test_bad_arguments_get_one_line_and_a_failing_status(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cases = [
        (["--from", str(tmp_path / "missing.db"), "--to", "postgresql://u@127.0.0.1:1/x"],
         "There is no SQLite file"),
        (["--from", str(tmp_path / "missing.db"), "--to", str(tmp_path / "b.db")],
         "must be a postgresql:// URL"),
    ]
    (tmp_path / "here.db").write_bytes(b"")
    cases.append((["--from", str(tmp_path / "here.db"), "--to", "postgresql://u@127.0.0.1:1/x"],
                  "nothing was written"))
    for argv, words in cases:
        result = subprocess.run(
            [sys.executable, "-m", "bot", "migrate-db", *argv], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=60,
        )
        assert result.returncode == 1, result.stderr
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
