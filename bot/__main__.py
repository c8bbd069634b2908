"""``python -m bot`` (or the ``tabula`` script): the bot and its commands, one subcommand each.

    python -m bot [run]                the bot (needs DISCORD_TOKEN)
    python -m bot local GAME [--players N] [--seed S] [--auto]
    python -m bot backup PATH          an online, read-only backup of TABULA_DB
    python -m bot migrate              create TABULA_DB, or bring it to this program's schema
    python -m bot migrate-db --from tabula.db --to postgresql://...
    python -m bot healthcheck          a container's HEALTHCHECK: with TABULA_WEB, exit 0 when
                                       /healthz answers 200; else 0 while the heartbeat
                                       (TABULA_HEARTBEAT) is recent; otherwise 1
    python -m bot web                  the web pages alone (TABULA_WEB=host:port, TABULA_DB)
    python -m bot web-pages GUILD_ID on|off   a server's web pages on or off

Each command parses its own arguments (``local`` in ``bot.local``, ``web`` and ``web-pages`` in
``bot.web.server``) and is imported only when it runs: ``local`` loads no discord.py, nor do
``healthcheck``, ``web`` and the store commands.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sqlite3
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from bot.config import (
    HELP,
    ConfigError,
    Settings,
    check_database_folder,
    database_path,
    heartbeat_path,
)
from bot.heartbeat import check
from bot.store.backup import BackupError, NoDatabase, backup
from bot.store.errors import StoreError
from bot.store.factory import POSTGRES_INSTALL, is_postgres, migrate_schema, redacted

PROG = "python -m bot"
# The name the project is installed under (``tabula`` on the package index is another project).
DISTRIBUTION = "tabula-bot"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def version() -> str:
    """The installed distribution's version, else the checkout's ``pyproject.toml`` one."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    try:
        return str(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, ValueError, KeyError):
        return "unknown"


class ShowVersion(argparse.Action):
    """``--version``, looked up only when asked for (the metadata search reads sys.path)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help="print the distribution's name and version, then exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"{DISTRIBUTION} {version()}")
        parser.exit()


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


# -- the commands: each takes the words after its name and returns the exit status ----------


def run(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog=f"{PROG} run",
        description="Run the Discord bot until SIGTERM or SIGINT (also what runs with no "
                    "command). Its settings are environment variables.",
        epilog=HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    ).parse_args(argv)
    try:
        settings = Settings.from_env()
        if not is_postgres(settings.db_path):
            check_database_folder(settings.db_path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        # Imported here so that no other command loads discord.py.
        from bot.app import run_bot

        return run_bot(settings)
    except KeyboardInterrupt:  # Ctrl-C while starting, before the bot handles signals
        return 130


def local(argv: list[str]) -> int:
    from bot.local import local_main  # its own parser, and no discord.py

    return local_main(argv)


def backup_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} backup",
        description="Copy the database named by TABULA_DB (read-only; the bot may be running).",
    )
    parser.add_argument("path", type=Path, help="the file to write the copy to")
    args = parser.parse_args(argv)
    source = database_path()
    if is_postgres(source):
        return _backup_postgres(source, args.path)
    try:
        version = backup(Path(source), args.path)
    except NoDatabase as exc:
        unset = "" if os.environ.get("TABULA_DB", "").strip() else " (it is not set)"
        print(f"error: {exc} Set TABULA_DB{unset} to the bot's database file.", file=sys.stderr)
        return 1
    except BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {source} (schema version {version}) to {args.path}")
    return 0


def _backup_postgres(url: str, target: Path) -> int:
    """A PostgreSQL database written as a SQLite file (one consistent snapshot)."""
    from bot.store import open_store  # the store's drivers load only for the commands using them

    async def copy() -> None:
        store = await open_store(url)
        try:
            await store.backup(target)
        finally:
            await store.close()

    try:
        asyncio.run(copy())
    except (StoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {redacted(url)} to {target}")
    return 0


def migrate(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog=f"{PROG} migrate",
        description="Apply this program's schema (every pending migration) to the database "
                    "TABULA_DB names, a SQLite file or a postgresql:// URL, without starting "
                    "the bot. A SQLite file that does not exist yet is created.",
    ).parse_args(argv)
    target = database_path()
    shown = redacted(target)
    try:
        if not is_postgres(target):
            check_database_folder(target)
        before, after = asyncio.run(migrate_schema(target))
    except (ConfigError, StoreError) as exc:  # their messages name the database already
        print(f"error: {one_line(exc)}", file=sys.stderr)
        return 1
    except (OSError, sqlite3.Error) as exc:
        print(f"error: {shown}: {one_line(exc)}", file=sys.stderr)
        return 1
    if before == after:
        print(f"Database {shown}: already at schema {after}")
    else:
        print(f"Database {shown}: schema {before} → {after}")
    return 0


def migrate_db(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} migrate-db",
        description="Copy a SQLite database into an empty PostgreSQL database (stop the bot "
                    "first). Needs the PostgreSQL driver, asyncpg.",
    )
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file")
    parser.add_argument("--to", dest="target", required=True, help="a postgresql:// URL")
    args = parser.parse_args(argv)
    try:
        from bot.migrate_db import run as copy_into_postgres  # needs asyncpg, an extra
    except ImportError as exc:
        if exc.name is None or exc.name.partition(".")[0] != "asyncpg":
            raise
        print(f"error: migrate-db needs asyncpg, which is not installed: {POSTGRES_INSTALL}",
              file=sys.stderr)
        return 1
    return copy_into_postgres(args.source, args.target)


def healthcheck(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog=f"{PROG} healthcheck",
        description="A container's health check. With TABULA_WEB set: exit 0 when the web "
                    "pages' /healthz answers 200. Otherwise: exit 0 while the bot's heartbeat "
                    "file (TABULA_HEARTBEAT) is recent. Else 1.",
    ).parse_args(argv)
    if os.environ.get("TABULA_WEB", "").strip():
        # The pages' /healthz says more than the heartbeat: the store answers too.
        from bot.web.server import healthz_main  # the health check loads no discord.py

        return healthz_main([])
    path = heartbeat_path()
    if path is None:
        print("error: TABULA_HEARTBEAT is not set: the bot writes no heartbeat to check.",
              file=sys.stderr)
        return 2
    healthy, why = check(path, time.time())
    print(why, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


def web(argv: list[str]) -> int:
    from bot.web.server import web_main  # the pages alone: no discord.py

    return web_main(argv)


def web_pages(argv: list[str]) -> int:
    from bot.web.server import pages_main  # a store write: no discord.py

    return pages_main(argv)


# Name, one line for the top-level --help, and what runs it.
COMMANDS: dict[str, tuple[str, Callable[[list[str]], int]]] = {
    "run": ("run the Discord bot (the default; needs DISCORD_TOKEN)", run),
    "local": ("play a game at a terminal table, without Discord", local),
    "backup": ("copy the database (TABULA_DB) to a SQLite file, read-only", backup_command),
    "migrate": ("create the database (TABULA_DB) or upgrade its schema", migrate),
    "migrate-db": ("copy a SQLite database into an empty PostgreSQL one", migrate_db),
    "healthcheck": ("a container's health check: exit 0 while the bot is healthy", healthcheck),
    "web": ("serve the web pages alone (TABULA_WEB, TABULA_DB)", web),
    "web-pages": ("turn a server's web pages on or off", web_pages),
}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog=PROG,
        usage=f"{PROG} [-h] [--version] [COMMAND] [ARGUMENTS ...]",
        description="Tabula: board games played in Discord. With no command, runs the bot.",
        epilog=f"Each command answers --help; `{PROG} run --help` lists the bot's settings.",
    )
    top.add_argument("--version", action=ShowVersion)
    commands = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (summary, _) in COMMANDS.items():
        # No options of its own here: the command's words go to its own parser (its --help).
        commands.add_parser(name, help=summary, add_help=False)
    return top


def dispatch(argv: list[str]) -> int:
    top = parser()
    known, rest = top.parse_known_args(argv)
    if known.command is None:
        if rest:
            top.error(f"unrecognized arguments: {' '.join(rest)}")
        return run([])
    return COMMANDS[known.command][1](rest)


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status (the ``tabula`` script exits with it)."""
    try:
        return dispatch(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse's --help, --version and usage errors
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
