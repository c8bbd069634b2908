"""DM boards that offer "My moves": a seat's DM carries the button only while the seat has
something to do, and the board is edited in place (the button taken away) once its member's
part ends, so a DM never offers moves that are not there.

Kept in memory, bounded: after a restart an old board's button still answers what is true
(``bot.ui.items.BoardButton``), it just stays on the message.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

import discord

from bot.notices import Notice
from bot.store import Status
from bot.ui import ids
from bot.ui.components import board_view
from bot.ui.ids import Mark
from bot.ui.rate_limit import Pacer

log = logging.getLogger(__name__)

REMEMBERED_TABLES = 4096


def dm_buttons(notice: Notice, member_id: int, mark: Mark, url: str | None = None
               ) -> discord.ui.View | None:
    """The buttons of a seat's DM: "My moves" only while the member is on the move, and the
    link to the seat's own web view when there is one."""
    if notice.status != Status.PLAYING:
        return None
    ops = ids.BOARD_OPS if member_id in notice.next_members else ("hand",)
    return board_view(notice.table_id, mark, url, "My view on the web", ops=ops)


class DmBoards:
    def __init__(self, client: discord.Client, pacer: Pacer) -> None:
        self.client = client
        self.pacer = pacer  # an edit counts against the bot's 50 requests a second too
        # table -> member -> (the version the board was sent at, the message's channel and
        # id: a whole Message with its attachments is far larger, the link to the seat's web
        # view it carries: kept on it when "My moves" is taken away)
        self._boards: OrderedDict[int, dict[int, tuple[int, tuple[int, int], str | None]]] = (
            OrderedDict())
        # table -> the newest notice seen: its version and who is on the move (None: over).
        # Notices of one table may be told concurrently; a board is judged by the newest.
        self._latest: OrderedDict[int, tuple[int, frozenset[int] | None]] = OrderedDict()

    def keep(self, notice: Notice, member_id: int, version: int,
             message: discord.Message, url: str | None = None) -> None:
        if member_id not in notice.next_members or notice.status != Status.PLAYING:
            return
        boards = self._boards.setdefault(notice.table_id, {})
        self._boards.move_to_end(notice.table_id)
        boards[member_id] = (version, (message.channel.id, message.id), url)
        while len(self._boards) > REMEMBERED_TABLES:
            self._boards.popitem(last=False)

    def idle(self, notice: Notice) -> list[tuple[int, tuple[int, int]]]:
        """The boards (member, message) whose member has nothing to do as of the newest
        notice seen, forgotten here: the caller edits them. A board newer than it stays."""
        table_id = notice.table_id
        waiting = frozenset(notice.next_members) if notice.status == Status.PLAYING else None
        if notice.version >= self._latest.get(table_id, (-1, None))[0]:
            self._latest[table_id] = (notice.version, waiting)
        self._latest.move_to_end(table_id)
        while len(self._latest) > REMEMBERED_TABLES:
            self._latest.popitem(last=False)
        boards = self._boards.get(table_id)
        if not boards:
            return []
        version, waiting = self._latest[table_id]
        done = [(member, message) for member, (sent, message, _) in boards.items()
                if sent < version and (waiting is None or member not in waiting)]
        for member, _ in done:
            del boards[member]
        return done

    async def retire(self, notice: Notice) -> None:
        """Take "My moves" off the boards of members with nothing to do now (every button
        once the game is over)."""
        links = {m: url for m, (_, _, url) in self._boards.get(notice.table_id, {}).items()}
        for member, (channel_id, message_id) in self.idle(notice):
            message = self.client.get_partial_messageable(channel_id).get_partial_message(
                message_id)
            over = self._latest[notice.table_id][1] is None
            url = links.get(member)
            view = None if over else board_view(notice.table_id, Mark(version=notice.version),
                                                url, "My view on the web", ops=("hand",))
            try:
                await self.pacer.wait(urgent=False)
                await message.edit(view=view)
            except discord.HTTPException as exc:  # deleted by the member, or DMs closed since
                log.info("could not retire the DM board of %s: %s", member, exc)
