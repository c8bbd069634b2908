"""Lobby flows shared by ``/game`` commands and the lobby's buttons."""

from __future__ import annotations

from typing import Any

import discord

from bot.notices import Notice
from bot.store import Status
from bot.text import clip
from bot.ui.components import lobby_view
from bot.ui.flows import tell_channel
from bot.ui.respond import bot_of, defer, member_of, refuse, reply


async def after_lobby_change(
    interaction: discord.Interaction[Any], notice: Notice, *, from_button: bool
) -> None:
    """Refresh the lobby message (the button's own, or a new one for a slash command)."""
    content = clip(notice.public_text)
    view = lobby_view(notice.table_id) if notice.status == Status.LOBBY else None
    none = discord.AllowedMentions.none()
    if from_button:
        await interaction.response.edit_message(content=content, view=view,
                                                allowed_mentions=none)
    elif view is None:
        await reply(interaction, content, ephemeral=False, allowed_mentions=none)
    else:
        await reply(interaction, content, ephemeral=False, view=view, allowed_mentions=none)


async def start(interaction: discord.Interaction[Any], table_id: int, *, from_button: bool
                ) -> None:
    bot = bot_of(interaction)
    await defer(interaction, update=from_button)
    notice = await bot.tables.start(table_id, member_of(interaction), then_computers=False)
    if from_button:
        await interaction.edit_original_response(content="The game has started.", view=None)
    else:
        await reply(interaction, "The game has started; the board is in the channel.")
    await tell_channel(interaction, notice)


async def run_lobby_op(interaction: discord.Interaction[Any], op: str, table_id: int) -> None:
    """A lobby button: join, leave, add a computer or start."""
    bot = bot_of(interaction)
    table = await bot.tables.live.record(table_id)
    if table.status != Status.LOBBY:
        await refuse(interaction, "This lobby is closed; the game has started or ended.")
        return
    member = member_of(interaction)
    if op == "start":
        await start(interaction, table_id, from_button=True)
        return
    if op == "join":
        await bot.scheduler.may_join(table_id, member.id)
        notice = await bot.tables.join(table_id, member)
    elif op == "leave":
        notice = await bot.tables.leave(table_id, member)
    else:
        notice = await bot.tables.add_computer(table_id, member)
    await after_lobby_change(interaction, notice, from_button=True)
