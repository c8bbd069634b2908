"""A SQLite file the bot did not make is never taken for a new, empty bot: a 0-byte file, a
main file copied without its ``-wal`` while games were played, another program's database and
a schema newer than this program are refused, each in one line, and the file is left as it
was. A clean stop checkpoints the WAL, so the main file alone holds every move; a path with no
file is still created, by the store and by ``python -m bot migrate``."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import IntegrityFailure, SqliteStore, StoreError, open_store
from bot.store.migrations import numbered
from bot.tables import Tables
from tests.conftest import ALICE, BOB

ROOT = Path(__file__).resolve().parents[3]
NEWEST = numbered("sqlite")[-1][0]
RESTORE = "python -m bot backup"


async def playing(path: Path, moves: int) -> tuple[SqliteStore, int]:
    """A store at ``path`` with a Pebbles table ``moves`` moves into its game, left open."""
    store = await SqliteStore.open(path)
    tables = Tables(store)
    opened = await tables.open("pebbles", 7, ALICE, seat_order="join",
                               options={"turns": 1_000, "first": 0})
    await tables.join(opened.table_id, BOB)
    await tables.start(opened.table_id, ALICE)
    for n in range(moves):
        await tables.act(opened.table_id, ALICE if n % 2 == 0 else BOB, "hold")
    return store, opened.table_id


async def tables_moved(store: SqliteStore, table_id: int) -> None:
    """One more move, written while another connection is open on the file."""
    tables = Tables(store)
    await tables.act(table_id, BOB, "hold")


async def schema_of(path: Path) -> int:
    store = await open_store(path)
    try:
        return await store.schema_version()
    finally:
        await store.close()


def refused_in_one_line(path: Path) -> str:
    """``python -m bot migrate`` on ``path``: its one-line refusal."""
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], cwd=path.parent, capture_output=True,
        text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TABULA_DB": str(path)},
    )
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


async def test_a_zero_byte_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tabula.db"
    path.write_bytes(b"")
    with pytest.raises(StoreError) as refused:
        await open_store(path)
    words = str(refused.value)
    assert "\n" not in words and "empty" in words and RESTORE in words, words
    assert path.read_bytes() == b""  # nothing was written to it


async def test_a_main_file_copied_without_its_wal_while_games_are_played_is_refused(
    tmp_path: Path, with_pebbles: None
) -> None:
    live = tmp_path / "live.db"
    store, _ = await playing(live, moves=6)
    try:
        # The moves wait in the WAL (not checkpointed yet): the main file alone is a header.
        assert Path(f"{live}-wal").stat().st_size > live.stat().st_size
        copy = tmp_path / "copy.db"
        shutil.copyfile(live, copy)  # the main file only, as a careless copy does
    finally:
        await store.close()
    before = copy.read_bytes()
    with pytest.raises(StoreError) as refused:
        await open_store(copy)
    words = str(refused.value)
    assert "\n" not in words and "-wal" in words and RESTORE in words, words
    assert copy.read_bytes() == before
    # ``migrate`` refuses it the same way: it is not an empty file it may fill.
    line = refused_in_one_line(copy)
    assert str(copy) in line and "-wal" in line and RESTORE in line, line
    assert copy.read_bytes() == before


async def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    other.commit()
    other.close()
    with pytest.raises(StoreError, match="not a Tabula database"):
        await open_store(path)
    line = refused_in_one_line(path)
    assert "not a Tabula database" in line and "notes" in line, line


async def test_a_newer_schema_is_refused_as_postgresql_refuses_it(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    await (await SqliteStore.open(path)).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {NEWEST + 1}")
    db.close()
    with pytest.raises(IntegrityFailure) as refused:
        await open_store(path)
    assert str(refused.value) == (
        f"The database schema is at migration {NEWEST + 1}; this program knows only {NEWEST}. "
        "Run the newer program, or restore a matching backup.")


async def test_a_clean_close_leaves_the_last_move_in_the_main_file(
    tmp_path: Path, with_pebbles: None
) -> None:
    live = tmp_path / "live.db"
    # Another connection stays open (the web pages, a backup): SQLite then leaves the WAL
    # as it is when the store's own connections close.
    store, table_id = await playing(live, moves=5)
    other = sqlite3.connect(live)
    try:
        assert other.execute("SELECT count(*) FROM game_tables").fetchone() == (1,)
        await tables_moved(store, table_id)
        await store.close()
        copy = tmp_path / "copy.db"
        shutil.copyfile(live, copy)  # the main file only
    finally:
        other.close()
    reopened = await SqliteStore.open(copy)
    try:
        table = await reopened.get_table(table_id)
        assert table is not None and table.version == 2 + 6
    finally:
        await reopened.close()


def test_a_path_with_no_file_is_created_by_the_store_and_by_migrate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert asyncio.run(schema_of(tmp_path / "fresh.db")) == NEWEST
    monkeypatch.setenv("TABULA_DB", str(tmp_path / "made.db"))
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out.endswith(f"schema 0 → {NEWEST}\n")


def test_migrate_fills_a_zero_byte_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Told to create the database, ``migrate`` takes an empty file for a new one: there is
    nothing in it to lose (the bot alone refuses it)."""
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    monkeypatch.setenv("TABULA_DB", str(path))
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out.endswith(f"schema 0 → {NEWEST}\n")
    assert asyncio.run(schema_of(path)) == NEWEST  # and the bot opens it


@pytest.mark.parametrize("kind", ["empty", "newer"])
def test_the_bot_refuses_to_start_on_it_in_one_line(tmp_path: Path, kind: str) -> None:
    """Refused before Discord is contacted (here nothing answers at its address): one line
    in the log, a failing status, no traceback."""
    path = tmp_path / "tabula.db"
    path.write_bytes(b"")
    if kind == "newer":
        path.unlink()
        asyncio.run(schema_of(path))
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version = {NEWEST + 1}")
        db.close()
    before = path.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True, text=True,
        timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                         "TABULA_DB": str(path), "DISCORD_TOKEN": "x.y.z",
                         "DISCORD_API_BASE": "http://127.0.0.1:9"},
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1, result.stderr
    assert f"Could not open the database {path}" in errors[0], errors[0]
    assert ("empty" if kind == "empty" else f"migration {NEWEST + 1}") in errors[0], errors[0]
    assert "Discord" not in result.stderr
    assert path.read_bytes() == before
