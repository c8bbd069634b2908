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
from rules.words import options_changed

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
ends your absence; `/profile` shows how reliably you play. The table's creator or a server
manager can pause, resume or extend a game, change its pace, say what happens when time runs
out, and find a substitute for a seat (`/game pause`, `/game resume`, `/game extend`,
`/game pace`, `/game out-of-time`, `/game substitute`, `/game seek`); `/tables` and
`/server-settings` are for managers.
`/league join` signs you up for a league; its organisers' `/league-admin round` opens your tables in
threads; `/league standings` shows each member's rating (from the results of league games),
`/league results` the finished tables."""


EXPORT_OVER = (
    "This file replays the game: it holds the secret seed (check its SHA-256 against the one "
    "announced at the start) and every move in order, so anyone can deal the same game and "
    "play it through move by move to check the result (Tabula's README, under Fair play, says "
    "how)."
)
EXPORT_LIVE = (
    "The game is still on, so its seed stays secret: this file lists the moves as the channel "
    "saw them. Once the game is over, `/export` gives the file that replays it."
)

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
        note = EXPORT_OVER if data["seed"] else EXPORT_LIVE
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
        changed = options_changed(chosen.options(), chosen.options(options))
        setup = ("Setup: the standard rules." if not changed else
                 "Setup: the standard rules, except\n" + "\n".join(f"- {c}" for c in changed))
        text = (
            f"**{chosen.title}** ({chosen.min_players} to {chosen.max_players} players)\n"
            f"{time}\n\n{chosen.rules_summary()}\n\n{setup}"
        )
        await reply(interaction, clip(text))

    @app_commands.command(name="help", description="How to play with Tabula")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await reply(interaction, HELP_TEXT)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
