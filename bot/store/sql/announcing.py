"""Announcement claims and pending replies (``bot.store.announcing``): the claim reads the table's
row locked, decides and updates it in one transaction, so processes take turns on it."""

from __future__ import annotations

from functools import partial

from bot.store.announcing import CLAIM_COLUMNS, Claim, PendingReply, Turn, decide
from bot.store.sql.database import Repository, transaction
from bot.store.sql.rows import record
from bot.store.sql.script import Script, count, row, rows


class Announcing(Repository):
    @transaction
    def claim_announcement(self, table_id: int, since: int, version: int, by: str,
                           now: int, lease: int) -> Script[Claim]:
        """What ``by`` may post next towards versions ``since + 1 .. version`` (a POST claim
        is held until ``now + lease``; ``mark_announced`` ends it)."""
        found = yield row(f"SELECT {CLAIM_COLUMNS} FROM game_tables WHERE id = ?"
                          " FOR UPDATE", table_id)
        if found is None:
            return Claim(Turn.TOLD)
        taken = decide(found["announced"], found["announcing"], found["announce_until"],
                       found["announce_by"], since, version, by, now)
        if taken.turn is Turn.POST:
            yield count("UPDATE game_tables SET announcing = ?, announce_until = ?,"
                        " announce_by = ? WHERE id = ?",
                        taken.upto, now + lease, by, table_id)
        return taken

    async def add_reply(self, reply: PendingReply) -> None:
        await self._db.execute(count(
            "INSERT INTO pending_replies (interaction_id, table_id, application_id, token,"
            " expires_at, holder) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (interaction_id)"
            " DO UPDATE SET table_id = excluded.table_id,"
            " application_id = excluded.application_id, token = excluded.token,"
            " expires_at = excluded.expires_at, holder = excluded.holder",
            reply.interaction_id, reply.table_id, reply.application_id, reply.token,
            reply.expires_at, reply.holder))

    async def drop_reply(self, interaction_id: str) -> None:
        await self._db.execute(count(
            "DELETE FROM pending_replies WHERE interaction_id = ?", interaction_id))

    async def pending_replies(self, now: int, holder: str) -> list[PendingReply]:
        """Replies ``holder`` owes whose token is still valid (expired ones are dropped)."""
        await self._db.execute(count("DELETE FROM pending_replies WHERE expires_at <= ?", now))
        return await self._many(partial(record, PendingReply), rows(
            "SELECT r.interaction_id, r.table_id, t.guild_id, r.application_id, r.token,"
            " r.expires_at, r.holder FROM pending_replies r JOIN game_tables t"
            " ON t.id = r.table_id WHERE r.holder = ? ORDER BY r.table_id, r.interaction_id",
            holder))
