"""Web page rows: random public ids of tables and leagues (16 URL-safe characters from 96
random bits: not guessable, not enumerable), and servers that turned their pages off."""

from __future__ import annotations

import secrets

from bot.store.sql.database import Repository
from bot.store.sql.script import Script, count, row, value

KINDS = ("table", "league")
_FIND = "SELECT public_id FROM web_ids WHERE kind = ? AND ref_id = ?"


class WebIds(Repository):
    async def public_id(self, kind: str, ref_id: int) -> str:
        """The page id of a table or league, made on first ask and kept for good."""
        if kind not in KINDS:
            raise ValueError(f"public ids are for {' and '.join(KINDS)}, not {kind!r}")
        found = await self._db.query(value(_FIND, kind, ref_id))
        if found is not None:
            return str(found)

        def make() -> Script[str]:
            # Whoever asks first makes it; a second asker keeps the first one's id.
            yield count("INSERT INTO web_ids (public_id, kind, ref_id) VALUES (?, ?, ?)"
                        " ON CONFLICT (kind, ref_id) DO NOTHING", secrets.token_urlsafe(12),
                        kind, ref_id)
            return str((yield value(_FIND, kind, ref_id)))

        return await self._db.write(make())

    async def find_public_id(self, public_id: str) -> tuple[str, int] | None:
        """What a page id names: ``(kind, row id)``, or None."""
        return await self._one(lambda r: (str(r["kind"]), int(r["ref_id"])), row(
            "SELECT kind, ref_id FROM web_ids WHERE public_id = ?", public_id))

    async def set_web_pages(self, guild_id: int, on: bool) -> None:
        await self._db.execute(count(
            "INSERT INTO web_guilds (guild_id, pages_off) VALUES (?, ?) ON CONFLICT (guild_id)"
            " DO UPDATE SET pages_off = excluded.pages_off", guild_id, not on))

    async def web_pages_on(self, guild_id: int | None) -> bool:
        """Pages are on unless the server turned them off (a table in DMs: always on)."""
        if guild_id is None:
            return True
        return not await self._db.query(value(
            "SELECT pages_off FROM web_guilds WHERE guild_id = ?", guild_id))
