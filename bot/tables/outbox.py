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
from collections.abc import Callable
from typing import Protocol

from bot.notices import Notice
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
            if not owns(table.guild_id):
                continue  # another process's shard announces it
            try:
                notice = await self.tables.catch_up(table.id)
                if notice is not None:
                    await self.poster.post_move(notice)
            except Exception:
                log.exception("could not announce table %s after a restart", table.id)

    async def resume_computers(self, owns: Callable[[int | None], bool]) -> None:
        """After a restart: computer seats that were due move, and are told."""
        for table in await self.tables.store.tables_with_status("playing"):
            if not owns(table.guild_id):
                continue
            try:
                notice = await self.tables.run_computers(table.id)
                if notice is not None:
                    await self.poster.post_move(notice)
            except Exception:
                log.exception("could not resume computer seats of table %s", table.id)
