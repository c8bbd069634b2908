"""Announcement claims and pending replies in the SQLite store (``bot.store.announcing``)."""

from __future__ import annotations

import sqlite3

from bot.store.announcing import CLAIM_COLUMNS, Claim, PendingReply, Turn, decide
from bot.store.sqlite.rows import Handoffs


class AnnouncingRows(Handoffs):
    async def claim_announcement(self, table_id: int, since: int, version: int, by: str,
                                 now: int, lease: int) -> Claim:
        """What ``by`` may post next towards versions ``since + 1 .. version`` (a POST claim
        is held until ``now + lease``; ``mark_announced`` ends it)."""

        def write(db: sqlite3.Connection) -> Claim:
            row = db.execute(f"SELECT {CLAIM_COLUMNS} FROM game_tables WHERE id = ?",
                             (table_id,)).fetchone()
            if row is None:
                return Claim(Turn.TOLD)
            claim = decide(row["announced"], row["announcing"], row["announce_until"],
                           row["announce_by"], since, version, by, now)
            if claim.turn is Turn.POST:
                db.execute("UPDATE game_tables SET announcing = ?, announce_until = ?,"
                           " announce_by = ? WHERE id = ?",
                           (claim.upto, now + lease, by, table_id))
            return claim

        return await self._transact(write)

    async def add_reply(self, reply: PendingReply) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT OR REPLACE INTO pending_replies (interaction_id, table_id, application_id,"
            " token, expires_at, holder) VALUES (?, ?, ?, ?, ?, ?)",
            (reply.interaction_id, reply.table_id, reply.application_id, reply.token,
             reply.expires_at, reply.holder)))

    async def drop_reply(self, interaction_id: str) -> None:
        await self._transact(lambda db: db.execute(
            "DELETE FROM pending_replies WHERE interaction_id = ?", (interaction_id,)))

    async def pending_replies(self, now: int, holder: str) -> list[PendingReply]:
        """Replies ``holder`` still owes whose token is still valid; expired ones are
        dropped."""
        await self._transact(lambda db: db.execute(
            "DELETE FROM pending_replies WHERE expires_at <= ?", (now,)))
        found = await self._fetch(
            "SELECT r.*, t.guild_id FROM pending_replies r JOIN game_tables t"
            " ON t.id = r.table_id WHERE r.holder = ? ORDER BY r.table_id, r.interaction_id",
            (holder,))
        return [PendingReply(r["interaction_id"], int(r["table_id"]), r["guild_id"],
                             r["application_id"], r["token"], int(r["expires_at"]),
                             r["holder"]) for r in found]
