"""``python -m bot``: run the Discord bot; ``local`` plays at a terminal; ``backup`` copies the DB.

    python -m bot                      the bot (needs DISCORD_TOKEN)
    python -m bot local GAME [--players N] [--seed S] [--auto]
    python -m bot backup PATH          an online backup of TABULA_DB (a SQLite file)
    python -m bot migrate-db --from tabula.db --to postgresql://...
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from bot.config import HELP, ConfigError, Settings


def _backup(argv: list[str]) -> int:
    from bot.store import open_store

    if len(argv) != 1:
        print("usage: python -m bot backup PATH", file=sys.stderr)
        return 2

    async def run() -> None:
        store = await open_store(os.environ.get("TABULA_DB") or "./tabula.db")
        try:
            await store.backup(argv[0])
        finally:
            await store.close()

    asyncio.run(run())
    print(f"Backed up to {argv[0]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["local"]:
        from bot.local import local_main

        return local_main(args[1:])
    if args[:1] == ["backup"]:
        return _backup(args[1:])
    if args[:1] == ["migrate-db"]:
        from bot.migrate_db import main as migrate_main  # needs the postgres extra

        return migrate_main(args[1:])
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(__doc__)
        print(HELP)
        return 0
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.app import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
