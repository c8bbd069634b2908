"""``/history``, ``/export``, ``/rules`` and ``/help``."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.text import clip
from bot.ui.choices import GAME_CHOICES
from bot.ui.respond import bot_of, reply
from rules import GAMES

HELP_TEXT = """\
**Tabula**: board games played at your own pace, right here.
`/game new` opens a table in this channel (or a thread); others `/game join` or press **Join**;
`/game add-bot` fills a seat with a computer player; `/game start` deals.
`/move` plays: start typing and pick from your legal moves; you see a preview with
**Confirm** / **Cancel** first (`confirm:true` skips it). The **My moves** button lists them too.
`/hand` shows what only you may see (it also comes by DM); `/board` shows the board.
`/undo` takes back your last move while nobody has acted since and nothing hidden was revealed.
`/history` lists the moves; `/export` gives a replay file; `/rules` summarises a game.
`/game status`, `/game leave`, `/game abandon` (creator or server manager).
Time: `/game new ... pace:` sets deadlines; `/turns` lists every table waiting on you;
`/settings` sets your time zone, quiet hours, holidays, reminders and previews; `/game back`
ends your absence; `/profile` shows reliability; `/game pause|resume|extend|pace|out-of-time|
substitute|seek` (creator or server manager); `/tables` and `/server-settings` for managers.
`/league join` signs you up for a league; its organisers' `/league-admin round` opens your tables in
threads; `/league standings` shows ratings (OpenSkill), `/league results` the finished tables."""


TIME_CHOICES = ("Time: each table picks its pace at `/game new` (`none`, `fast`, `daily`, "
                "`relaxed` or `custom`), what happens when a seat runs out of time "
                "(`autopilot`, `skip`, `vote` or `wait`) and the computer's level.")


class Info(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description="The moves of this channel's game")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        lines = await bot_of(interaction).tables.history(interaction.channel_id)
        if not lines:
            await reply(interaction, "No moves yet.")
            return
        text = "\n".join(lines)
        if len(text) <= 1900:
            await reply(interaction, text)
            return
        recent = "\n".join(lines[-15:])
        await reply(
            interaction, clip(f"Last 15 of {len(lines)} moves (all in the file):\n{recent}"),
            file=discord.File(io.BytesIO(text.encode()), filename="history.txt"),
        )

    @app_commands.command(name="export", description="This channel's game as a replay file")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        data = await bot_of(interaction).tables.export(interaction.channel_id)
        note = (
            "Replay with `python -m rules replay FILE`."
            if data["seed"] else
            "The seed stays secret until the game ends, so this file lists the moves only."
        )
        body = json.dumps(data, indent=1).encode()
        await reply(interaction, note, ephemeral=False,
                    file=discord.File(io.BytesIO(body), filename=f"{data['game']}-replay.json"))

    @app_commands.command(name="rules", description="How a game is played here")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        bot = bot_of(interaction)
        chosen = GAMES[game.value]
        options: dict[str, Any] = {}
        # Time comes first: a long summary may be cut at Discord's limit, the pace must not.
        time = TIME_CHOICES
        if interaction.channel_id is not None:
            table = await bot.tables.store.live_table(interaction.channel_id)
            if table is not None and table.game_id == chosen.id:
                options = table.options
                time = "This table: " + (await bot.scheduler.timing(table.id)).describe()
        in_force = chosen.options(options)
        shown = "\n".join(f"- `{k}`: {json.dumps(v)}" for k, v in sorted(in_force.items()))
        text = (
            f"**{chosen.title}** ({chosen.min_players}-{chosen.max_players} players)\n"
            f"{time}\n\n{chosen.rules_summary()}\n\nSetup options in force:\n{shown}"
        )
        await reply(interaction, clip(text))

    @app_commands.command(name="help", description="How to play with Tabula")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await reply(interaction, HELP_TEXT)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
