"""Delivering notices: the channel message after each move, lobby messages, and DMs with an
ephemeral ``/hand`` fallback for members whose DMs are closed."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.utils import MISSING

from bot.cogs.common import clip
from bot.notices import Notice, SeatNotice
from bot.pace.notices import deadline_text
from bot.views.buttons import board_view, lobby_view

if TYPE_CHECKING:
    from bot.app import TabulaBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def image_file(png: bytes, alt: str, name: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(png), filename=name, description=alt[:1000])


class Delivery:
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def post_lobby(self, channel_id: int, notice: Notice) -> discord.Message:
        view = lobby_view(notice.table_id) if notice.status == "lobby" else MISSING
        return await self.channel(channel_id).send(clip(notice.public_text), view=view)

    async def post_move(self, channel_id: int, notice: Notice) -> discord.Message:
        """One channel message: what happened, the board, and one mention of who acts next;
        then a DM to each seat whose private view changed."""
        content = notice.public_text
        deadlines = notice.data.get("deadlines", {})
        mentions = [f"<@{m}>" + (f" (deadline {deadline_text(deadlines[m])})"
                                 if m in deadlines else "")
                    for m in notice.next_members]
        if mentions and not notice.over:
            content += "\nNext: " + ", ".join(mentions)
        elif notice.next_names and not notice.over:
            content += "\nNext: " + ", ".join(notice.next_names)
        mentioned = discord.AllowedMentions(
            users=[discord.Object(m) for m in notice.next_members], everyone=False, roles=False
        )
        file = MISSING
        if notice.public_view is not None:
            rendered = await self.bot.renderer.render(notice.game_id, notice.public_view)
            if rendered is not None:
                file = image_file(*rendered)
        playing = notice.status == "playing"
        view = board_view(notice.table_id, notice.version) if playing else MISSING
        message = await self.channel(channel_id).send(
            clip(content), file=file, view=view, allowed_mentions=mentioned
        )
        await self.send_private(channel_id, notice)
        return message

    async def send_private(self, channel_id: int, notice: Notice) -> None:
        closed: list[int] = []
        playing = notice.status == "playing"
        for seat in notice.private:
            if seat.member_id is None or seat.dm_closed:
                continue
            buttons = board_view(notice.table_id, notice.version) if playing else None
            if not await self.dm(notice.game_id, seat, buttons):
                closed.append(seat.member_id)
                await self.bot.tables.mark_dm_closed(notice.table_id, seat.member_id)
        if closed:
            who = ", ".join(f"<@{m}>" for m in closed)
            await self.channel(channel_id).send(
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
        user = self.bot.get_user(seat.member_id) or discord.Object(seat.member_id)
        try:
            channel = await self.bot.create_dm(user)
            rendered = await self.bot.renderer.render(game_id, seat.view)
            file = image_file(*rendered, name="hand.png") if rendered is not None else MISSING
            await channel.send(clip(seat.text or "Your view."), file=file,
                               view=buttons if buttons is not None else MISSING)
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED:
                return False
            log.warning("DM to %s refused: %s", seat.member_id, exc)
            return False
        except discord.HTTPException as exc:
            # The move is committed either way; a failed DM must not look like a failed move.
            log.warning("DM to %s failed: %s", seat.member_id, exc)
        return True

    async def private_payload(self, game_id: str, seat: SeatNotice) -> tuple[str, Any]:
        """The ephemeral ``/hand`` answer: the same text and image a DM would carry."""
        rendered = await self.bot.renderer.render(game_id, seat.view)
        file = image_file(*rendered, name="hand.png") if rendered is not None else MISSING
        return clip(seat.text or "Your view."), file
