"""The command line: every subcommand answers --help, ``--version``, unknown words, ``migrate``
on SQLite and PostgreSQL, one-line refusals without asyncpg, and the ``tabula`` script."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import COMMANDS, DISTRIBUTION, main
from bot.store.migrations import numbered

ROOT = Path(__file__).resolve().parents[2]
NEWEST = numbered("sqlite")[-1][0]
# Run before the code under test: the PostgreSQL driver cannot be imported.
NO_ASYNCPG = "import sys; sys.modules['asyncpg'] = None\n"


def python(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter on this checkout."""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )


def without_asyncpg(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    code = NO_ASYNCPG + f"from bot.__main__ import main\nsys.exit(main({argv!r}))"
    return python(code, cwd, **env)


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_the_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m bot")
    for name, (summary, _) in COMMANDS.items():
        assert name in out
        assert " ".join(summary.split()[:3]) in out
    assert set(COMMANDS) == {"run", "local", "backup", "migrate", "migrate-db", "healthcheck",
                             "web", "web-pages"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_subcommand_answers_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m bot {name} "), out


def test_local_help_is_its_own_parser(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["local", "--help"]) == 0
    assert "--players" in capsys.readouterr().out


def test_run_help_lists_the_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    assert "DISCORD_TOKEN" in out and "TABULA_DB" in out and "TABULA_WEB" in out


def test_version_names_the_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"tabula-bot {metadata.version(DISTRIBUTION)}\n"


def test_version_without_an_installed_distribution_reads_pyproject(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"{project['name']} {project['version']}\n"


def test_an_unknown_word_is_named_not_taken_for_the_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["foo"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'foo'" in err and "DISCORD_TOKEN" not in err
    assert main(["--foo"]) == 2
    assert "unrecognized arguments: --foo" in capsys.readouterr().err
    assert main(["web-pages", "seventy", "on"]) == 2
    assert "GUILD_ID" in capsys.readouterr().err


def test_an_unknown_word_from_the_shell(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "foo"], cwd=tmp_path, capture_output=True, text=True,
        timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2
    assert "invalid choice: 'foo'" in result.stderr and "Traceback" not in result.stderr


def test_migrate_creates_a_sqlite_file_then_has_nothing_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    monkeypatch.setenv("TABULA_DB", str(path))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"Database {path}: schema 0 → {NEWEST}\n"
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == NEWEST
    assert db.execute("SELECT count(*) FROM game_tables").fetchone()[0] == 0
    db.close()
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"Database {path}: already at schema {NEWEST}\n"


def test_migrate_upgrades_an_older_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    number, sql = numbered("sqlite")[0]
    db.executescript(f"{sql}\nPRAGMA user_version = {number};")
    db.close()
    monkeypatch.setenv("TABULA_DB", str(path))
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out == f"Database {path}: schema {number} → {NEWEST}\n"


def test_migrate_refuses_what_it_cannot_migrate_in_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database, not at all" * 100)
    line = one_line_error(subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, capture_output=True, text=True,
        timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT), "TABULA_DB": str(junk)},
    ))
    assert str(junk) in line and "not a database" in line
    assert junk.read_bytes() == b"not a database, not at all" * 100
    for target, words in [
        (str(tmp_path / "no" / "such" / "t.db"), "does not exist"),
        ("postgresql://someone:hidden@127.0.0.1:1/x", "Could not connect"),
        ("postgresql://someone:hidden@127.0.0.1:port/x", "Could not connect"),
    ]:
        result = subprocess.run(
            [sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, capture_output=True,
            text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT), "TABULA_DB": target},
        )
        line = one_line_error(result)
        assert words in line and "hidden" not in line, line
    assert not (tmp_path / "no").exists()


def test_migrate_a_newer_schema_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "newer.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {NEWEST + 1}")
    db.close()
    monkeypatch.setenv("TABULA_DB", str(path))
    assert main(["migrate"]) == 1
    assert f"migration {NEWEST + 1}" in capsys.readouterr().err


def test_migrate_on_postgresql(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    newest = numbered("postgres")[-1][0]
    monkeypatch.setenv("TABULA_DB", postgres_url)
    assert main(["migrate"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(f": schema 0 → {newest}\n"), out
    assert main(["migrate"]) == 0
    assert capsys.readouterr().out.endswith(f": already at schema {newest}\n")

    async def tables() -> int:
        conn = await asyncpg.connect(postgres_url)
        try:
            return int(await conn.fetchval("SELECT count(*) FROM game_tables"))
        finally:
            await conn.close()

    assert asyncio.run(tables()) == 0


def test_without_asyncpg_postgres_commands_say_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "a.db").write_bytes(b"")
    line = one_line_error(without_asyncpg(
        ["migrate-db", "--from", "a.db", "--to", "postgresql://u@127.0.0.1:1/x"], tmp_path))
    assert "asyncpg" in line and "pip install -e '.[postgres]'" in line
    line = one_line_error(without_asyncpg(
        ["migrate"], tmp_path, TABULA_DB="postgresql://u@127.0.0.1:1/x"))
    assert "asyncpg" in line and "pip install -e '.[postgres]'" in line
    helped = without_asyncpg(["migrate-db", "--help"], tmp_path)
    assert helped.returncode == 0 and "--from" in helped.stdout, helped.stderr


def test_commands_load_only_what_they_use(tmp_path: Path) -> None:
    """``local``, ``healthcheck`` and ``migrate`` never load discord.py."""
    for argv in (["local", "--help"], ["healthcheck", "--help"], ["migrate", "--help"]):
        code = ("import sys\nfrom bot.__main__ import main\n"
                f"assert main({argv!r}) == 0\nprint('discord' in sys.modules)")
        found = python(code, tmp_path)
        assert found.stdout.strip().endswith("False"), (argv, found.stdout, found.stderr)


def test_the_tabula_script_runs_the_same_main(tmp_path: Path) -> None:
    scripts = [e for e in metadata.distribution(DISTRIBUTION).entry_points
               if e.group == "console_scripts"]
    assert [(e.name, e.value) for e in scripts] == [("tabula", "bot.__main__:main")]
    assert scripts[0].load() is main
    script = Path(sys.executable).parent / "tabula"
    if not script.exists():
        pytest.skip("the project is not installed in this interpreter's environment")
    result = subprocess.run([str(script), "--version"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("tabula-bot "), result.stderr
    result = subprocess.run([str(script), "foo"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and "invalid choice: 'foo'" in result.stderr
