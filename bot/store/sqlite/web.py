"""Web page rows on SQLite: random public ids of tables and leagues, and servers that turned
their pages off. Mixed into ``SqliteStore``."""

from __future__ import annotations

import sqlite3

from bot.store.sqlite.rows import Handoffs
from bot.store.web_ids import check_kind, new_public_id


class WebRows(Handoffs):
    async def public_id(self, kind: str, ref_id: int) -> str:
        """The page id of a table or league, made on first ask and kept for good."""
        check_kind(kind)
        found = await self._fetch(
            "SELECT public_id FROM web_ids WHERE kind = ? AND ref_id = ?", (kind, ref_id))
        if found:
            return str(found[0][0])

        def write(db: sqlite3.Connection) -> str:
            db.execute("INSERT INTO web_ids (public_id, kind, ref_id) VALUES (?, ?, ?)"
                       " ON CONFLICT (kind, ref_id) DO NOTHING", (new_public_id(), kind, ref_id))
            return str(db.execute("SELECT public_id FROM web_ids WHERE kind = ? AND ref_id = ?",
                                  (kind, ref_id)).fetchone()[0])

        return await self._transact(write)

    async def find_public_id(self, public_id: str) -> tuple[str, int] | None:
        """What a page id names: ``(kind, row id)``, or None."""
        found = await self._fetch(
            "SELECT kind, ref_id FROM web_ids WHERE public_id = ?", (public_id,))
        return (str(found[0][0]), int(found[0][1])) if found else None

    async def set_web_pages(self, guild_id: int, on: bool) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO web_guilds (guild_id, pages_off) VALUES (?, ?) ON CONFLICT (guild_id)"
            " DO UPDATE SET pages_off = excluded.pages_off", (guild_id, int(not on))))

    async def web_pages_on(self, guild_id: int | None) -> bool:
        """Pages are on unless the server turned them off (a table in DMs: always on)."""
        if guild_id is None:
            return True
        found = await self._fetch(
            "SELECT pages_off FROM web_guilds WHERE guild_id = ?", (guild_id,))
        return not (found and found[0][0])
