"""``python -m bot backup PATH``: refuses a missing source or target folder with one line, and
reads the source without writing to it (no migrations, no changed bytes)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import SqliteStore
from bot.store.sqlite.setup import migrations

ROOT = Path(__file__).resolve().parents[3]


def run_backup(cwd: Path, target: str, db: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TABULA_DB"}
    env["PYTHONPATH"] = str(ROOT)
    if db is not None:
        env["TABULA_DB"] = db
    return subprocess.run([sys.executable, "-m", "bot", "backup", target], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_no_tabula_db_and_no_default_file_is_refused(tmp_path: Path) -> None:
    result = run_backup(tmp_path, str(tmp_path / "copy.db"), None)
    line = one_line_error(result)
    assert "tabula.db" in line and "TABULA_DB" in line
    assert not (tmp_path / "tabula.db").exists()
    assert not (tmp_path / "copy.db").exists()


def test_a_tabula_db_naming_a_missing_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    result = run_backup(tmp_path, str(tmp_path / "copy.db"), str(missing))
    assert str(missing) in one_line_error(result)
    assert not missing.exists()
    assert not (tmp_path / "copy.db").exists()


def test_a_target_in_a_missing_folder_gets_one_line(tmp_path: Path) -> None:
    source = tmp_path / "live.db"
    sqlite3.connect(source).close()
    target = tmp_path / "no" / "such" / "copy.db"
    line = one_line_error(run_backup(tmp_path, str(target), str(source)))
    assert str(target.parent) in line


def older_schema(path: Path) -> None:
    """A database as an older release left it: only the first migration applied."""
    number, sql = migrations()[0]
    conn = sqlite3.connect(path)
    conn.executescript(f"{sql}\nPRAGMA user_version = {number};")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def fingerprint(path: Path) -> tuple[bytes, int, int]:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    return path.read_bytes(), path.stat().st_mtime_ns, version


def test_an_older_schema_is_copied_as_it_is_not_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "old.db"
    older_schema(source)
    before = fingerprint(source)
    monkeypatch.setenv("TABULA_DB", str(source))
    assert main(["backup", str(tmp_path / "copy.db")]) == 0
    assert str(tmp_path / "copy.db") in capsys.readouterr().out
    assert fingerprint(source) == before
    assert before[2] == migrations()[0][0] < migrations()[-1][0]
    copy = sqlite3.connect(tmp_path / "copy.db")
    assert copy.execute("PRAGMA user_version").fetchone()[0] == before[2]
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    copy.close()


async def test_a_live_database_is_read_and_left_as_it_was(tmp_path: Path) -> None:
    source = tmp_path / "live.db"
    live = await SqliteStore.open(source)
    try:
        table_id = (await live.create_table(
            guild_id=None, channel_id=7, game_id="pebbles", creator_id=1, creator_name="A",
            options={}, max_players=None, seat_order="join", seed="s", seed_hash="h",
        )).id
        before = fingerprint(source)
        result = run_backup(tmp_path, str(tmp_path / "copy.db"), str(source))
        assert result.returncode == 0, result.stderr
        assert fingerprint(source) == before
    finally:
        await live.close()
    copy = sqlite3.connect(tmp_path / "copy.db")
    # The committed row still in the live database's WAL is in the copy.
    assert copy.execute("SELECT id FROM game_tables").fetchall() == [(table_id,)]
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    copy.close()


def test_a_file_that_is_not_a_database_gets_one_line(tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("not a database\n" * 100)
    line = one_line_error(run_backup(tmp_path, str(tmp_path / "copy.db"), str(source)))
    assert str(source) in line
    assert source.read_text() == "not a database\n" * 100
