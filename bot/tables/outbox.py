"""One path from a commit to the players, below any front end.

A committed change (a member's move by command or button, a deadline's or a vote's move for
a seat, a round ended by its deadline, what a crash left untold) reaches a ``Poster``
(Discord's delivery, the terminal table, a test's recorder) through the ``Outbox``, which runs
what follows a commit: the computer seats due next answer before the post, so one message
tells of the member's move and the replies; the right to post versions is claimed in the
database (``bot.store.announcing``), so each is told once and in version order whichever
process committed it; a member's answer is owed from before the commit until given, and a
restart gives what the last run owed. The poster only shows what it is handed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.locks import KeyedLocks
from bot.notices import Notice
from bot.store import TableRecord
from bot.store.announcing import PendingReply, Turn
from bot.tables import Tables

log = logging.getLogger(__name__)

LEASE_SECONDS = 60  # a claim to announce not ended by then was left by a crash: taken over
BUSY_PAUSE = 0.05  # seconds between asking again while another process tells a table
DONE = "Done. The board is in the game's channel."
LOST = ("I restarted before your move counted, so nothing was played. "
        "Look at the board (`/board`) and make it again.")


@dataclass(frozen=True)
class Versions:
    """Versions ``after + 1 .. upto`` of a table, claimed for its channel."""

    after: int
    upto: int
    text: str  # what they say: the notice's own text, or the log's lines
    board: bool  # the notice's board shows ``upto``: it goes with the post
    retold: bool  # a crashed holder claimed them first: they may be in the channel already


class Poster(Protocol):
    """What shows a committed change: Discord, the terminal table and tests implement it."""

    async def post_versions(self, notice: Notice, versions: Versions) -> int | None:
        """Post claimed versions in the table's channel; the id of the message that now
        tells them (None: none to point at, e.g. the post was refused)."""

    async def post_plain(self, notice: Notice) -> None:
        """Post a notice that tells of no committed move (no version to claim)."""

    async def send_private(self, notice: Notice) -> None:
        """Each seat's private news, to its own member only."""

    async def answer_owed(self, reply: PendingReply, text: str) -> None:
        """The answer a mover was owed when the bot stopped (a failure to give it is the
        poster's to log: the token may have expired)."""


class Outbox:
    def __init__(self, tables: Tables, poster: Poster, holder: str = "all",
                 now: Callable[[], int] | None = None) -> None:
        self.tables, self.poster = tables, poster
        self.holder = holder  # names this process in the claims to announce and owed answers
        # Epoch seconds, for the claims' leases (the bot passes its scheduler's clock).
        self.now = now or (lambda: int(time.time()))
        self._order = KeyedLocks()

    # -- after a commit ---------------------------------------------------------------------

    async def committed(self, notice: Notice) -> None:
        """A member's move: the computer seats due next answer first; one post tells of
        both unless something came in between (then each is told on its own)."""
        if notice.computers_due:
            later = await self.tables.run_computers(notice.table_id, notice)
            if later is None or later.since != notice.since:
                # Told on its own after all: with the board and news it left for the replies.
                notice = await self.tables.complete(notice)
            if later is not None and later.since != notice.since:
                await self.publish(notice)
            notice = later or notice
        await self.publish(notice)

    async def publish(self, notice: Notice) -> None:
        """The channel's post of a committed change, once and in version order; then each
        seat's own news. A change whose computer replies were played already (a deadline,
        a vote, a round's end) comes here directly."""
        if notice.duplicate:
            return
        if notice.since is None:
            await self.poster.post_plain(notice)
        else:
            async with self._order.hold(notice.table_id):
                await self._announce(notice, notice.since)
        await self.poster.send_private(notice)

    async def _announce(self, notice: Notice, since: int) -> None:
        """Claim versions and post them until the notice's are told: its own range as it
        is; versions nobody told (a crash, a notice that lost a race) first, one post each
        from the log; a range a crashed holder claimed again whole (the poster looks for it
        in the channel first)."""
        while True:
            claim = await self.tables.claim_announcement(
                notice.table_id, since, notice.version, self.holder, self.now(), LEASE_SECONDS)
            if claim.turn is Turn.TOLD:
                return
            if claim.turn is Turn.BUSY:  # another process tells earlier versions
                await asyncio.sleep(BUSY_PAUSE)
                continue
            own = not claim.retold and (claim.after, claim.upto) == (since, notice.version)
            text = notice.public_text if own else "\n".join(
                await self.tables.told_lines(notice.table_id, claim.after, claim.upto))
            board = claim.upto == notice.version  # the notice's board shows this version
            message_id = await self.poster.post_versions(
                notice, Versions(claim.after, claim.upto, text, board, claim.retold))
            await self.tables.mark_announced(
                notice.table_id, claim.upto,
                message_id if board and notice.public_view is not None else None)

    # -- answers owed to movers -------------------------------------------------------------

    async def owe(self, interaction_id: str, table_id: int, application_id: str, token: str,
                  expires_at: int) -> None:
        """A move's answer is owed from before its commit until ``given``: a restart gives
        it should the bot die in between."""
        await self.tables.store.add_reply(PendingReply(
            interaction_id, table_id, None, application_id, token, expires_at, self.holder))

    async def given(self, interaction_id: str) -> None:
        await self.tables.store.drop_reply(interaction_id)

    async def owed(self) -> list[PendingReply]:
        """What this process's last run left owed (read before any interaction of this
        run, so none of this run's moves is among them)."""
        return await self.tables.store.pending_replies(self.now(), self.holder)

    async def answer_owed(self, owed: Sequence[PendingReply]) -> None:
        """After a restart: each owed answer, while its token holds; whether the move
        counted is in the log, under the interaction's id."""
        store = self.tables.store
        for reply in owed:
            made = await store.find_action_by_key(reply.table_id, reply.interaction_id)
            await self.poster.answer_owed(reply, DONE if made else LOST)
            await store.drop_reply(reply.interaction_id)

    # -- after a restart --------------------------------------------------------------------

    async def catch_up(self, owns: Callable[[int | None], bool]) -> None:
        """What was committed but never told, on the tables of the servers this process
        looks after."""
        for table in await self.tables.unannounced():
            await self._told(table, owns, self.tables.catch_up, "announce")

    async def resume_computers(self, owns: Callable[[int | None], bool]) -> None:
        """Computer seats that were due move, and are told (only tables with a computer seat
        or a standing answer can have one due)."""
        for table in await self.tables.store.with_computers():
            await self._told(table, owns, self.tables.run_computers, "resume computer seats of")

    async def _told(self, table: TableRecord, owns: Callable[[int | None], bool],
                    notice_of: Callable[[int], Awaitable[Notice | None]], what: str) -> None:
        """``notice_of`` the table, published; a table of another process's shard is left
        to it, and one that fails is logged, never stopping the others."""
        if not owns(table.guild_id):
            return
        try:
            notice = await notice_of(table.id)
            if notice is not None:
                await self.publish(notice)
        except Exception:
            log.exception("could not %s table %s after a restart", what, table.id)
