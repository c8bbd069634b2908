"""``python -m bot``: run the Discord bot; ``local`` plays at a terminal; ``backup`` copies the DB.

    python -m bot                      the bot (needs DISCORD_TOKEN)
    python -m bot local GAME [--players N] [--seed S] [--auto]
    python -m bot backup PATH          an online, read-only backup of TABULA_DB (a SQLite file)
    python -m bot migrate-db --from tabula.db --to postgresql://...
    python -m bot healthcheck          a container's HEALTHCHECK: with TABULA_WEB, exit 0 when
                                       /healthz answers 200; else 0 while the heartbeat
                                       (TABULA_HEARTBEAT) is recent; otherwise 1
    python -m bot web                  the web pages alone (TABULA_WEB=host:port, TABULA_DB)
    python -m bot web-pages GUILD_ID on|off   a server's web pages on or off
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from pathlib import Path

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
from bot.store.factory import is_postgres


def _backup(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
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
    # Imported here so that `local` never loads the store's drivers.
    from bot.store import open_store, redacted

    async def run() -> None:
        store = await open_store(url)
        try:
            await store.backup(target)
        finally:
            await store.close()

    try:
        asyncio.run(run())
    except (StoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {redacted(url)} to {target}")
    return 0


def _healthcheck() -> int:
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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["local"]:
        # Imported here so each command loads only what it uses (local: no discord.py).
        from bot.local import local_main

        return local_main(args[1:])
    if args[:1] == ["backup"]:
        return _backup(args[1:])
    if args[:1] == ["healthcheck"]:
        return _healthcheck()
    if args[:1] == ["migrate-db"]:
        from bot.migrate_db import main as migrate_main  # needs the postgres extra

        return migrate_main(args[1:])
    if args[:1] == ["web"]:
        from bot.web.server import web_main  # the pages alone: no discord.py

        return web_main(args[1:])
    if args[:1] == ["web-pages"]:
        from bot.web.server import pages_main  # a store write: no discord.py

        return pages_main(args[1:])
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(__doc__)
        print(HELP)
        return 0
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
        # Imported here so that `local` and `backup` never load discord.py.
        from bot.app import run_bot

        return run_bot(settings)
    except KeyboardInterrupt:  # Ctrl-C while starting, before the bot handles signals
        return 130


if __name__ == "__main__":
    sys.exit(main())
