"""``python -m bot.leagues rebuild``: recompute every league rating from the stored results.

Uses ``TABULA_DB`` (default ``./tabula.db``). Safe while the bot runs: the results are read and
the ratings replaced in one transaction, which a result recorded meanwhile waits for (or comes
before), and the rebuild equals what the results recorded one by one produced.
"""

from __future__ import annotations

import asyncio
import os
import sys

from bot.leagues import Leagues
from bot.store import open_store


async def _rebuild(path: str) -> int:
    store = await open_store(path)
    try:
        return await Leagues(store).recorder.rebuild()
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["rebuild"]:
        print("usage: python -m bot.leagues rebuild", file=sys.stderr)
        return 2
    count = asyncio.run(_rebuild(os.environ.get("TABULA_DB") or "./tabula.db"))
    print(f"Rebuilt league ratings from {count} results.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
