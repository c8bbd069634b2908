"""Answering an interaction: who is asking, which table, replies, and the one error handler.

Every refusal is ephemeral: a player's mistake is told to that player only, even when the
interaction was first deferred in public (the public "thinking…" message is removed).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Coroutine
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.rounds import Rounds
from bot.pace.scheduler import Scheduler
from bot.render_pool import RenderPool
from bot.store import Status, TableRecord
from bot.tables import Tables
from bot.tables.outbox import Outbox
from bot.text import clip, echo
from bot.values import Member, TableError
from rules.core import RulesError

log = logging.getLogger("bot.errors")

PUBLIC_DEFER = "tabula_public_defer"


class Services(Protocol):
    """What the front end needs of the running bot (``TabulaBot`` provides it)."""

    @property
    def tables(self) -> Tables: ...

    @property
    def leagues(self) -> Leagues: ...

    @property
    def rounds(self) -> Rounds: ...

    @property
    def referee(self) -> Referee: ...

    @property
    def renderer(self) -> RenderPool: ...

    @property
    def scheduler(self) -> Scheduler: ...

    @property
    def outbox(self) -> Outbox: ...

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]: ...


def bot_of(interaction: discord.Interaction[Any]) -> Services:
    return cast(Services, interaction.client)


def member_of(interaction: discord.Interaction[Any]) -> Member:
    user = interaction.user
    perms = interaction.permissions
    is_admin = bool(interaction.guild_id) and (perms.manage_guild or perms.administrator)
    return Member(user.id, user.display_name, is_admin=is_admin)


async def table_here(interaction: discord.Interaction[Any]) -> TableRecord:
    """The live table of this channel; in DMs, the caller's table (the one awaiting them
    first when they sit at several)."""
    tables = bot_of(interaction).tables
    if interaction.guild_id is not None and interaction.channel_id is not None:
        return await tables.table_in(interaction.channel_id)
    member = member_of(interaction)
    playing = [t for t in await tables.tables_of(member.id) if t.status == Status.PLAYING]
    if not playing:
        raise TableError("You have no game in progress. Join one in a server channel.")
    if len(playing) == 1:
        return playing[0]
    waiting = [t for t in playing if await tables.legal_moves(t.id, member)]
    if len(waiting) == 1:
        return waiting[0]
    raise TableError("You play at several tables; use this command in the game's channel.")


async def defer(interaction: discord.Interaction[Any], *, public: bool = False,
                update: bool = False) -> None:
    """The first answer, within Discord's 3 s, before slow work (a commit, a render)."""
    if interaction.response.is_done():
        return
    if update:
        await interaction.response.defer()
    elif public:
        interaction.extras[PUBLIC_DEFER] = True
        await interaction.response.defer(thinking=True)
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply(
    interaction: discord.Interaction[Any], content: str, *, ephemeral: bool = True, **kwargs: Any
) -> None:
    """Answer whether or not the interaction was already answered or deferred."""
    content = clip(content)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def refuse(interaction: discord.Interaction[Any], text: str) -> None:
    """Tell only the member; a public "thinking…" placeholder goes away first."""
    if interaction.extras.pop(PUBLIC_DEFER, False):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.info("could not remove the placeholder of %s", interaction.id)
    await reply(interaction, text, ephemeral=True)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one error handler: a player's mistake gets its message; anything else is logged
    with an incident id and the member sees a short apology quoting it."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, RulesError):
        text = str(error)
    elif isinstance(error, app_commands.CheckFailure):
        text = str(error) or "You cannot use that here."
    elif isinstance(error, app_commands.TransformerError):
        text = f"{echo(str(error.value))} is not a valid value here."
    else:
        incident = uuid.uuid4().hex[:8]
        command = interaction.command.qualified_name if interaction.command else "component"
        data = cast(dict[str, Any], interaction.data or {})
        log.error(
            "incident %s: %s (%s) by %s in channel %s", incident, command,
            str(data.get("custom_id", ""))[:100], interaction.user.id, interaction.channel_id,
            exc_info=error,
        )
        text = f"Sorry, something went wrong on our side (incident `{incident}`)."
    try:
        await refuse(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell %s about an error", interaction.user.id)


def roles_of(interaction: discord.Interaction[Any]) -> list[int]:
    """The caller's role ids in the server (none in a DM)."""
    user = interaction.user
    return [r.id for r in user.roles] if isinstance(user, discord.Member) else []


class CommandTree(app_commands.CommandTree[Any]):
    """Every slash command's errors go through the one handler."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
