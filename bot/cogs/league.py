"""``/league create|list|standings|close``: a server's leagues and their Elo standings."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.choices import GAME_CHOICES, league_names
from bot.ui.respond import bot_of, member_of, reply
from rules import GAMES

SHOWN = 20


@app_commands.guild_only()
class League(commands.GroupCog, group_name="league",
             group_description="Leagues with ratings, run by server managers"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="create", description="Start a league (server managers)")
    @app_commands.describe(name="The league's name", game="The game it plays")
    @app_commands.choices(game=GAME_CHOICES)
    async def create(self, interaction: discord.Interaction[Any],
                     name: app_commands.Range[str, 1, 40], game: app_commands.Choice[str]) -> None:
        assert interaction.guild_id is not None
        league = await bot_of(interaction).leagues.create(
            interaction.guild_id, member_of(interaction), name, game.value
        )
        await reply(interaction, f"League **{league.name}** ({game.name}) is open. Open its "
                    f"games with `/game new game:{game.name} league:{league.name}`.",
                    ephemeral=False)

    @app_commands.command(name="list", description="This server's leagues")
    async def list(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        leagues = await bot_of(interaction).leagues.all(interaction.guild_id)
        if not leagues:
            await reply(interaction, "No leagues yet. A server manager can `/league create` one.")
            return
        lines = [f"- **{lg.name}**: {GAMES[lg.game_id].title}" + (" (closed)" if lg.closed
                                                                    else "")
                 for lg in leagues]
        await reply(interaction, "\n".join(lines))

    @app_commands.command(name="standings", description="A league's ratings")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def standings(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        league, lines = await bot_of(interaction).leagues.standings(interaction.guild_id, name)
        if not lines:
            await reply(interaction, f"**{league.name}** has no finished games yet.",
                        ephemeral=False)
            return
        rows = [f"{i}. **{line.name}**: {line.rating} ({line.games} game"
                f"{'' if line.games == 1 else 's'}, {line.wins} won)"
                for i, line in enumerate(lines[:SHOWN], start=1)]
        more = f"\n… and {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""
        await reply(interaction, f"**{league.name}** standings (Elo, start 1500)\n"
                    + "\n".join(rows) + more, ephemeral=False,
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="close", description="Close a league to new games (server "
                          "managers)")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def close(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        league = await bot_of(interaction).leagues.close(interaction.guild_id,
                                                          member_of(interaction), name)
        await reply(interaction, f"League **{league.name}** is closed; its standings stay.",
                    ephemeral=False)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(League(bot))
