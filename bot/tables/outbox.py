"""One path from a commit to the players, below any front end.

A committed change (a member's move by command or button, a deadline's or a vote's move for
a seat, a round ended by its deadline, what a crash left untold) reaches a ``Poster``
(Discord's delivery, the terminal table, a test's recorder) through the ``Outbox``, which runs
what follows a commit first: the computer seats due next answer before the post, so one
message tells of the member's move and the replies; after a restart, versions committed but
never told are told, then computer seats that were due move. The poster tells a notice once
and in version order (its announcement claim), whatever process committed it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.notices import Notice
from bot.store import TableRecord
from bot.tables import Tables

log = logging.getLogger(__name__)


class Poster(Protocol):
    async def post_move(self, notice: Notice) -> None:
        """Tell the table's channel (and each seat, privately) of a committed change."""


class Outbox:
    def __init__(self, tables: Tables, poster: Poster) -> None:
        self.tables, self.poster = tables, poster

    async def committed(self, notice: Notice) -> None:
        """A member's move: the computer seats due next answer first; one post tells of
        both unless something came in between (then each is told on its own)."""
        if notice.computers_due:
            later = await self.tables.run_computers(notice.table_id, notice)
            if later is None or later.since != notice.since:
                # Told on its own after all: with the board and news it left for the replies.
                notice = await self.tables.complete(notice)
            if later is not None and later.since != notice.since:
                await self.poster.post_move(notice)
            notice = later or notice
        await self.poster.post_move(notice)

    async def publish(self, notice: Notice) -> None:
        """A change whose computer replies were played already (a deadline, a vote, a
        round's end)."""
        await self.poster.post_move(notice)

    async def catch_up(self, owns: Callable[[int | None], bool]) -> None:
        """After a restart: what was committed but never told, on the tables of the servers
        this process looks after."""
        for table in await self.tables.unannounced():
            await self._told(table, owns, self.tables.catch_up, "announce")

    async def resume_computers(self, owns: Callable[[int | None], bool]) -> None:
        """After a restart: computer seats that were due move, and are told."""
        for table in await self.tables.store.tables_with_status("playing"):
            await self._told(table, owns, self.tables.run_computers, "resume computer seats of")

    async def _told(self, table: TableRecord, owns: Callable[[int | None], bool],
                    notice_of: Callable[[int], Awaitable[Notice | None]], what: str) -> None:
        """``notice_of`` the table, posted; a table of another process's shard is left to it,
        and one that fails is logged, never stopping the others."""
        if not owns(table.guild_id):
            return
        try:
            notice = await notice_of(table.id)
            if notice is not None:
                await self.poster.post_move(notice)
        except Exception:
            log.exception("could not %s table %s after a restart", what, table.id)
