"""Web page rows on PostgreSQL: random public ids of tables and leagues, and servers that
turned their pages off. Mixed into ``PostgresStore``."""

from __future__ import annotations

from typing import Any

from bot.store.web_ids import check_kind, new_public_id


class PostgresWebRows:
    _pool: Any  # asyncpg.Pool, set by PostgresStore

    async def public_id(self, kind: str, ref_id: int) -> str:
        """The page id of a table or league, made on first ask and kept for good."""
        check_kind(kind)
        found: str | None = await self._pool.fetchval(
            "SELECT public_id FROM web_ids WHERE kind = $1 AND ref_id = $2", kind, ref_id)
        if found is not None:
            return found
        await self._pool.execute(
            "INSERT INTO web_ids (public_id, kind, ref_id) VALUES ($1, $2, $3)"
            " ON CONFLICT (kind, ref_id) DO NOTHING", new_public_id(), kind, ref_id)
        made: str = await self._pool.fetchval(
            "SELECT public_id FROM web_ids WHERE kind = $1 AND ref_id = $2", kind, ref_id)
        return made

    async def find_public_id(self, public_id: str) -> tuple[str, int] | None:
        """What a page id names: ``(kind, row id)``, or None."""
        row = await self._pool.fetchrow(
            "SELECT kind, ref_id FROM web_ids WHERE public_id = $1", public_id)
        return (str(row["kind"]), int(row["ref_id"])) if row else None

    async def set_web_pages(self, guild_id: int, on: bool) -> None:
        await self._pool.execute(
            "INSERT INTO web_guilds (guild_id, pages_off) VALUES ($1, $2) ON CONFLICT (guild_id)"
            " DO UPDATE SET pages_off = excluded.pages_off", guild_id, not on)

    async def web_pages_on(self, guild_id: int | None) -> bool:
        """Pages are on unless the server turned them off (a table in DMs: always on)."""
        if guild_id is None:
            return True
        off: bool | None = await self._pool.fetchval(
            "SELECT pages_off FROM web_guilds WHERE guild_id = $1", guild_id)
        return not off
