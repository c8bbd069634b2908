"""Delivering notices: the channel message after each move, lobby messages, and DMs with an
ephemeral ``/hand`` fallback for members whose DMs are closed.

Moves are announced once and in order: a notice already covered is skipped, and a notice that
comes after a gap (a crash, or a notice that lost a race) first tells what was missed, from the
log. The last announced version is stored, so a restart announces what was committed but never
told. Each seat's DMs go out in version order, and never one older than a view already sent.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from typing import Any

import discord
from discord.utils import MISSING

from bot.locks import KeyedLocks
from bot.notices import Notice, SeatNotice
from bot.pace.notices import Dashboard, Reminder, TableMessage, VoteRequest, deadline_text
from bot.render_pool import Rendered
from bot.store import Status
from bot.text import clip
from bot.ui.components import board_view, lobby_view, vote_view
from bot.ui.ids import Mark
from bot.ui.pacing import Pacer
from bot.ui.respond import Services

log = logging.getLogger(__name__)

DM_CLOSED = 50007
REMEMBERED = 4096  # tables and seats whose last told version is kept in memory


def image_files(rendered: Rendered, stem: str = "board") -> list[discord.File]:
    """Attachments for a view's images: ``board.png`` (the one readable at preview size),
    then ``board-2.png``..."""
    return [
        discord.File(io.BytesIO(png), filename=f"{stem}.png" if n == 0 else f"{stem}-{n + 1}.png",
                     description=alt[:1000])
        for n, (png, alt) in enumerate(rendered)
    ]


class _Bounded(OrderedDict[Any, int]):
    def remember(self, key: Any, value: int) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > REMEMBERED:
            self.popitem(last=False)


class Delivery:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        self._order = KeyedLocks()
        self._told: _Bounded = _Bounded()  # table -> last version told in its channel
        self._dm_sent: _Bounded = _Bounded()  # (table, member) -> last version sent by DM
        # Members whose DMs Discord refused (50007): reminders go by mention until a DM of
        # any kind gets through again.
        self._refused: set[int] = set()
        self.pacer = Pacer()

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def post_lobby(self, notice: Notice) -> discord.Message:
        view = lobby_view(notice.table_id) if notice.status == Status.LOBBY else MISSING
        await self.pacer.wait()
        return await self.channel(notice.channel_id).send(
            clip(notice.public_text), view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def post_move(self, notice: Notice, via: discord.Webhook | None = None) -> None:
        """One channel message: what happened, the board, and one mention of who acts next;
        then a DM to each seat with news of its own. ``via`` is the follow-up webhook of the
        interaction that made the move: a follow-up is not counted against the bot's global
        rate limit, so the mover's board never queues behind other tables' sends."""
        if notice.duplicate:
            return
        if notice.since is None:
            await self._post(notice, notice.public_text, via)
        else:
            async with self._order.hold(notice.table_id):
                told = await self._last_told(notice.table_id)
                if told < notice.version:
                    text = notice.public_text
                    if told < notice.since:
                        missed = await self.services.tables.told_lines(
                            notice.table_id, told, notice.since
                        )
                        text = "\n".join([*missed, text])
                    posted = await self._post(notice, text, via)
                    self._told.remember(notice.table_id, notice.version)
                    await self.services.tables.mark_announced(
                        notice.table_id, notice.version,
                        posted.id if notice.public_view is not None else None)
        await self.send_private(notice)

    async def _last_told(self, table_id: int) -> int:
        if table_id not in self._told:
            table = await self.services.tables.table_for(table_id)
            self._told.remember(table_id, table.announced)
        return self._told[table_id]

    async def _post(self, notice: Notice, text: str, via: discord.Webhook | None = None
                    ) -> discord.Message:
        content = text
        over = notice.status in (Status.OVER, Status.ABANDONED)
        deadlines = notice.data.get("deadlines", {})
        if notice.next_members and not over:
            content += "\nNext: " + ", ".join(
                f"<@{m}>" + (f" (deadline {deadline_text(deadlines[m])})" if m in deadlines
                             else "")
                for m in notice.next_members)
        elif notice.next_names and not over:
            content += "\nNext: " + ", ".join(notice.next_names)
        mentioned = discord.AllowedMentions(
            users=[discord.Object(m) for m in notice.next_members], everyone=False, roles=False
        )
        files: list[discord.File] = []
        if notice.public_view is not None:
            files = image_files(
                await self.services.renderer.render(notice.game_id, notice.public_view)
            )
        playing = notice.status == Status.PLAYING
        view = board_view(notice.table_id, Mark(version=notice.version)) if playing else MISSING
        if via is not None:
            try:
                return await via.send(clip(content), files=files or MISSING, view=view,
                                      allowed_mentions=mentioned, wait=True)
            except discord.HTTPException as exc:  # an expired token: the channel, paced
                log.info("follow-up for table %s refused (%s); posting in the channel",
                         notice.table_id, exc)
                files = image_files(
                    await self.services.renderer.render(notice.game_id, notice.public_view)
                ) if notice.public_view is not None else []
        await self.pacer.wait()
        return await self.channel(notice.channel_id).send(
            clip(content), files=files or MISSING, view=view, allowed_mentions=mentioned
        )

    async def send_private(self, notice: Notice) -> None:
        closed: list[int] = []
        for seat in notice.private:
            if seat.member_id is None or seat.dm_closed:
                continue
            key = (notice.table_id, seat.member_id)
            async with self._order.hold(key):
                if self._dm_sent.get(key, -1) >= seat.version:
                    continue  # a newer view already reached this member
                playing = notice.status == Status.PLAYING
                mark = Mark(fingerprint=seat.fingerprint)
                buttons = board_view(notice.table_id, mark) if playing else None
                if await self.dm(notice.game_id, seat, buttons):
                    self._dm_sent.remember(key, seat.version)
                else:
                    closed.append(seat.member_id)
                    await self.services.tables.mark_dm_closed(notice.table_id, seat.member_id)
        if closed:
            who = ", ".join(f"<@{m}>" for m in closed)
            await self.pacer.wait()
            await self.channel(notice.channel_id).send(
                f"{who}: I cannot send you direct messages, so your private view stays with "
                "me. Use `/hand` here to see it (only you will).",
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(m) for m in closed]
                ),
            )

    async def dm(
        self, game_id: str, seat: SeatNotice, buttons: discord.ui.View | None = None
    ) -> bool:
        """DM one seat its private view, with the board's buttons so the player can act from
        the DM; False when the member's DMs are closed (never retried)."""
        assert seat.member_id is not None
        user = self.client.get_user(seat.member_id) or discord.Object(seat.member_id)
        try:
            channel = await self.client.create_dm(user)
            # Rendered once it may go: DMs waiting their turn must not hold up the boards'
            # renders.
            await self.pacer.wait(urgent=False)
            files = image_files(await self.services.renderer.render(game_id, seat.view), "hand")
            await channel.send(clip(seat.text or "Your view."), files=files or MISSING,
                               view=buttons if buttons is not None else MISSING,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED:
                return False
            log.warning("DM to %s refused: %s", seat.member_id, exc)
            return False
        except discord.HTTPException as exc:
            # The move is committed either way; a failed DM must not look like a failed move.
            log.warning("DM to %s failed: %s", seat.member_id, exc)
            return True
        await self.dms_open(seat.member_id)
        return True

    async def dms_open(self, member_id: int) -> None:
        """A DM got through: a member whose DMs were refused gets reminders by DM again."""
        if member_id in self._refused:
            self._refused.discard(member_id)
            await self.services.scheduler.dms_refused(member_id, False)

    async def private_payload(self, game_id: str, seat: SeatNotice) -> tuple[str, Any]:
        """The ephemeral ``/hand`` answer: the same text and image a DM would carry."""
        files = image_files(await self.services.renderer.render(game_id, seat.view), "hand")
        return clip(seat.text or "Your view."), files or MISSING

    # -- what the scheduler fires ---------------------------------------------------------

    async def post_text(self, message: TableMessage) -> None:
        await self.pacer.wait()
        await self.channel(message.channel_id).send(
            clip(message.text), allowed_mentions=_users(message.mentions))

    async def post_vote(self, request: VoteRequest) -> None:
        who = " ".join(f"<@{m}>" for m in request.voters)
        await self.pacer.wait()
        await self.channel(request.channel_id).send(
            clip(f"Time ran out for {request.name}. {who}: what should the table do? "
                 f"A majority decides; the vote ends {deadline_text(request.ends_at)}, and "
                 "on a tie or without votes the computer plays this move for them."),
            view=vote_view(request.turn_id, request.round),
            allowed_mentions=_users(request.voters))

    async def remind(self, reminder: Reminder) -> None:
        """By DM; when DMs are closed (or the member turned DM notices off), one mention in
        the channel of the table that has waited longest."""
        if reminder.dms_refused:
            self._refused.add(reminder.member_id)
        if reminder.by_dm:
            user = (self.client.get_user(reminder.member_id)
                    or discord.Object(reminder.member_id))
            try:
                channel = await self.client.create_dm(user)
                await channel.send(clip(reminder.text),
                                   allowed_mentions=discord.AllowedMentions.none())
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                self._refused.add(reminder.member_id)
                await self.services.scheduler.dms_refused(reminder.member_id, True)
        await self.channel(reminder.waiting[0].channel_id).send(
            clip(f"<@{reminder.member_id}>: {reminder.text}"),
            allowed_mentions=_users((reminder.member_id,)))


    async def dashboard(self, board: Dashboard) -> None:
        """Edit the member's dashboard DM in place; send it when it has none (or it was
        deleted). With DMs closed it is turned off."""
        quiet = discord.AllowedMentions.none()
        if board.channel_id is not None and board.message_id is not None:
            message = self.channel(board.channel_id).get_partial_message(board.message_id)
            try:
                await message.edit(content=clip(board.text), allowed_mentions=quiet)
                return
            except discord.NotFound:
                pass  # deleted by the member: a new one follows
        user = self.client.get_user(board.member_id) or discord.Object(board.member_id)
        try:
            channel = await self.client.create_dm(user)
            sent = await channel.send(clip(board.text), allowed_mentions=quiet)
        except discord.Forbidden:
            await self.services.scheduler.dashboard_posted(board.member_id, None, None)
            return
        await self.dms_open(board.member_id)
        await self.services.scheduler.dashboard_posted(board.member_id, channel.id, sent.id)


def _users(ids: tuple[int, ...]) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(m) for m in ids], everyone=False,
                                   roles=False)


def delivery_of(interaction: discord.Interaction[Any]) -> Delivery:
    client: Any = interaction.client
    delivery: Delivery = client.delivery
    return delivery
