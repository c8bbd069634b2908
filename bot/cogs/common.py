"""What the commands and buttons share: who is asking, which table, and one error handler."""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.store import TableRecord
from bot.values import Member, TableError
from rules import GAMES
from rules.core import RulesError

if TYPE_CHECKING:
    from bot.app import TabulaBot

log = logging.getLogger("bot.errors")

CONTENT_LIMIT = 2000


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Fit Discord's message limit, cutting at a line where possible."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2].rsplit("\n", 1)[0]
    return cut + "\n…"


def bot_of(interaction: discord.Interaction[Any]) -> TabulaBot:
    from bot.app import TabulaBot

    client = interaction.client
    assert isinstance(client, TabulaBot)
    return client


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
    mine = await tables.tables_of(interaction.user.id)
    playing = [t for t in mine if t.status == "playing"]
    if not playing:
        raise TableError("You have no game in progress. Join one in a server channel.")
    if len(playing) == 1:
        return playing[0]
    waiting = [t for t in playing if await _awaits(interaction, t)]
    if len(waiting) == 1:
        return waiting[0]
    raise TableError(
        "You play at several tables; use this command in the game's channel."
    )


async def _awaits(interaction: discord.Interaction[Any], table: TableRecord) -> bool:
    moves = await bot_of(interaction).tables.legal_moves(table.id, member_of(interaction))
    return bool(moves)


async def reply(
    interaction: discord.Interaction[Any], content: str, *, ephemeral: bool = True, **kwargs: Any
) -> None:
    """Answer whether or not the interaction was already answered or deferred."""
    content = clip(content)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one error handler: a player's mistake gets its message; anything else is logged
    with an incident id and the member sees a short apology quoting it."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, (RulesError, TableError)):
        text = str(error)
    elif isinstance(error, app_commands.CheckFailure):
        text = str(error) or "You cannot use that here."
    elif isinstance(error, app_commands.TransformerError):
        text = f"`{error.value}` is not a valid value here."
    else:
        incident = uuid.uuid4().hex[:8]
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error(
            "incident %s: %s by %s in channel %s", incident, command, interaction.user.id,
            interaction.channel_id, exc_info=error,
        )
        text = f"Sorry, something went wrong on our side (incident `{incident}`)."
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell %s about an error", interaction.user.id)


async def league_names(interaction: discord.Interaction[Any], current: str
                       ) -> list[app_commands.Choice[str]]:
    """Autocomplete: the server's open leagues whose name contains what was typed."""
    if interaction.guild_id is None:
        return []
    leagues = await bot_of(interaction).leagues.all(interaction.guild_id)
    typed = current.lower()
    return [app_commands.Choice(name=f"{lg.name} ({GAMES[lg.game_id].title})", value=lg.name)
            for lg in leagues if not lg.closed and typed in lg.name.lower()][:25]
