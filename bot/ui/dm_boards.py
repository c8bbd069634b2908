"""DM boards that offer "My moves": a seat's DM carries the button only while the seat has
something to do, and the board is edited in place (the button taken away) once its member's
part ends, so a DM never offers moves that are not there.

Kept in memory, bounded: after a restart an old board's button still answers what is true
(``bot.ui.items.BoardButton``), it just stays on the message.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import replace

import discord

from bot.notices import Notice
from bot.store import Status
from bot.ui import ids
from bot.ui.cards import Actions, Card, heading_of, layout
from bot.ui.ids import Mark
from bot.ui.rate_limit import Pacer

log = logging.getLogger(__name__)

REMEMBERED_TABLES = 4096
YOUR_PART_DONE = "Your part is done for now; a new message comes when it is your turn again."
GAME_OVER = "The game is over; the channel has the final board."


def dm_actions(notice: Notice, member_id: int, seat: int, mark: Mark,
               parts: tuple[tuple[str, str], ...] = (), url: str | None = None) -> Actions:
    """The buttons of a seat's DM: "My moves" only while the member is on the move, the
    details of the seat's own view, "Text view", and the link to the seat's own web view
    when there is one."""
    ops: tuple[str, ...] = ()
    if notice.status == Status.PLAYING:
        ops = ids.BOARD_OPS if member_id in notice.next_members else ("hand",)
    return Actions(notice.table_id, mark, ops, seat, parts, text_view=True, url=url,
                   url_label="My view on the web")


class DmBoards:
    def __init__(self, client: discord.Client, pacer: Pacer) -> None:
        self.client = client
        self.pacer = pacer  # an edit counts against the bot's 50 requests a second too
        # table -> member -> (the version the board was sent at, the message's channel and
        # id: a whole Message with its attachments is far larger, the card it shows: rebuilt
        # without "My moves" when that is taken away)
        self._boards: OrderedDict[int, dict[int, tuple[int, tuple[int, int], Card]]] = (
            OrderedDict())
        # table -> the newest notice seen: its version and who is on the move (None: over).
        # Notices of one table may be told concurrently; a board is judged by the newest.
        self._latest: OrderedDict[int, tuple[int, frozenset[int] | None]] = OrderedDict()

    def keep(self, notice: Notice, member_id: int, version: int,
             message: discord.Message, card: Card) -> None:
        if member_id not in notice.next_members or notice.status != Status.PLAYING:
            return
        boards = self._boards.setdefault(notice.table_id, {})
        self._boards.move_to_end(notice.table_id)
        boards[member_id] = (version, (message.channel.id, message.id), card)
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
        """Take "My moves" off the boards of members with nothing to do now (every board
        button once the game is over); the card stays as it was, its image kept."""
        cards = {m: card for m, (_, _, card) in self._boards.get(notice.table_id, {}).items()}
        for member, (channel_id, message_id) in self.idle(notice):
            message = self.client.get_partial_messageable(channel_id).get_partial_message(
                message_id)
            over = self._latest[notice.table_id][1] is None
            card = cards[member]
            if card.actions is not None:
                ops = () if over else ("hand",)
                card = replace(card, actions=replace(
                    card.actions, ops=ops, mark=Mark(version=notice.version)))
            # The image stays the moment it was sent: the heading no longer names whose
            # turn it is (that moment's would be wrong now, and now's would not match the
            # image); what the member can do is said as of now.
            card = replace(card, heading=heading_of(card.game_id, card.stage, (), over),
                           hint=GAME_OVER if over else YOUR_PART_DONE)
            view, _ = layout(card)
            try:
                await self.pacer.wait(urgent=False)
                await message.edit(view=view)
            except discord.HTTPException as exc:  # deleted by the member, or DMs closed since
                log.info("could not retire the DM board of %s: %s", member, exc)
