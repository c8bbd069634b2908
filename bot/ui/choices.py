"""Option choices shared by several commands: the games, computer levels, paces and
out-of-time policies, and a server's open leagues."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.pace.model import PRESETS, Policy
from bot.tables.computers import LEVELS
from bot.ui.respond import bot_of
from rules import GAMES

GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.id) for g in GAMES.values()]
LEVEL_CHOICES = [app_commands.Choice(name=f"{k} ({v})", value=k) for k, v in LEVELS.items()]
PACE_CHOICES = [app_commands.Choice(name=n, value=n) for n in ("none", *PRESETS, "custom")]
POLICY_CHOICES = [app_commands.Choice(name=p.value, value=p.value) for p in Policy]


async def league_names(interaction: discord.Interaction[Any], current: str
                       ) -> list[app_commands.Choice[str]]:
    """Autocomplete: the server's open leagues whose name contains what was typed."""
    if interaction.guild_id is None:
        return []
    leagues = await bot_of(interaction).leagues.all(interaction.guild_id)
    typed = current.lower()
    return [app_commands.Choice(name=f"{lg.name} ({GAMES[lg.game_id].title})"[:100],
                                value=lg.name[:100])
            for lg in leagues if not lg.closed and typed in lg.name.lower()][:25]
