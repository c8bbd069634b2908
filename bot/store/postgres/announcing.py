"""Announcement claims and pending replies in the PostgreSQL store (``bot.store.announcing``):
the table's row is locked for the compare-and-set, so processes take turns on it."""

from __future__ import annotations

from bot.store.announcing import CLAIM_COLUMNS, Claim, PendingReply, Turn, decide
from bot.store.postgres.tables import PostgresTables


class PostgresAnnouncing(PostgresTables):
    async def claim_announcement(self, table_id: int, since: int, version: int, by: str,
                                 now: int, lease: int) -> Claim:
        """What ``by`` may post next towards versions ``since + 1 .. version`` (a POST claim
        is held until ``now + lease``; ``mark_announced`` ends it)."""
        async with self._pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                f"SELECT {CLAIM_COLUMNS} FROM game_tables WHERE id = $1 FOR UPDATE", table_id)
            if row is None:
                return Claim(Turn.TOLD)
            claim = decide(row["announced"], row["announcing"], row["announce_until"],
                           row["announce_by"], since, version, by, now)
            if claim.turn is Turn.POST:
                await conn.execute(
                    "UPDATE game_tables SET announcing = $2, announce_until = $3,"
                    " announce_by = $4 WHERE id = $1", table_id, claim.upto, now + lease, by)
            return claim

    async def add_reply(self, reply: PendingReply) -> None:
        await self._pool.execute(
            "INSERT INTO pending_replies (interaction_id, table_id, application_id, token,"
            " expires_at, holder) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (interaction_id)"
            " DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at",
            reply.interaction_id, reply.table_id, reply.application_id, reply.token,
            reply.expires_at, reply.holder)

    async def drop_reply(self, interaction_id: str) -> None:
        await self._pool.execute("DELETE FROM pending_replies WHERE interaction_id = $1",
                                 interaction_id)

    async def pending_replies(self, now: int, holder: str) -> list[PendingReply]:
        """Replies ``holder`` still owes whose token is still valid; expired ones are
        dropped."""
        await self._pool.execute("DELETE FROM pending_replies WHERE expires_at <= $1", now)
        found = await self._pool.fetch(
            "SELECT r.*, t.guild_id FROM pending_replies r JOIN game_tables t"
            " ON t.id = r.table_id WHERE r.holder = $1 ORDER BY r.table_id, r.interaction_id",
            holder)
        return [PendingReply(r["interaction_id"], r["table_id"], r["guild_id"],
                             r["application_id"], r["token"], r["expires_at"], r["holder"])
                for r in found]
