"""``/game new|join|leave|start|status|abandon|add-bot|remove`` and the lobby buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import timing
from bot.cogs.common import (
    bot_of,
    clip,
    league_names,
    member_of,
    reply,
    table_here,
)
from bot.delivery import Delivery
from bot.notices import Notice
from bot.pace.model import LEVELS, make_timing
from bot.views.buttons import lobby_view
from rules import GAMES

GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.id) for g in GAMES.values()]


async def _after_lobby_change(
    interaction: discord.Interaction[Any], notice: Notice, *, from_button: bool
) -> None:
    """Refresh the lobby message (the button's own, or a new one for a slash command)."""
    if notice.status != "lobby":
        content = clip(notice.public_text)
        if from_button:
            await interaction.response.edit_message(content=content, view=None)
        else:
            await reply(interaction, content, ephemeral=False)
        return
    if from_button:
        await interaction.response.edit_message(
            content=clip(notice.public_text), view=lobby_view(notice.table_id)
        )
    else:
        await reply(interaction, notice.public_text, ephemeral=False,
                    view=lobby_view(notice.table_id))


async def _start(interaction: discord.Interaction[Any], *, from_button: bool) -> None:
    bot = bot_of(interaction)
    table = await table_here(interaction)
    if from_button:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True)
    notice = await bot.tables.start(table.channel_id, member_of(interaction))
    if from_button:
        await interaction.edit_original_response(content="The game has started.", view=None)
    else:
        await interaction.followup.send("The game has started.")
    await Delivery(bot).post_move(table.channel_id, notice)


async def run_lobby_op(interaction: discord.Interaction[Any], op: str, table_id: int) -> None:
    """A lobby button: join, leave, add a computer or start (errors reach the one handler
    through the button)."""
    bot = bot_of(interaction)
    table = await bot.tables.table_for(table_id)
    if table.status != "lobby":
        await reply(interaction, "This lobby is closed; the game has started or ended.")
        return
    member = member_of(interaction)
    channel = table.channel_id
    if op == "start":
        await _start(interaction, from_button=True)
        return
    if op == "join":
        notice = await bot.tables.join(channel, member)
    elif op == "leave":
        notice = await bot.tables.leave(channel, member)
    else:
        notice = await bot.tables.add_computer(channel, member)
    await _after_lobby_change(interaction, notice, from_button=True)


class Lobby(commands.GroupCog, group_name="game", group_description="Open and run game tables"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(
        game="Which game to play",
        players="Most seats to offer (the game's maximum if not given)",
        thread="Open the table in a new thread of this channel",
        seating="Seat order when the game starts",
        league="The server league this game counts for",
        pace="Time per move: none, fast (1 h), daily, relaxed (72 h) or custom",
        duration="Custom pace: time per move (or initial bank), 1m to 14d, e.g. 90m, 2d",
        bank="Custom pace as a time bank per player instead of a deadline per move",
        out_of_time="What happens when a seat's time runs out",
        level="Computer level when it plays for a seat out of time",
    )
    @app_commands.choices(
        pace=[app_commands.Choice(name=n, value=n)
              for n in ("none", "fast", "daily", "relaxed", "custom")],
        out_of_time=[app_commands.Choice(name=n, value=n)
                     for n in ("autopilot", "skip", "vote", "wait")],
        level=[app_commands.Choice(name=n, value=n) for n in LEVELS],
        game=GAME_CHOICES,
        seating=[app_commands.Choice(name="Shuffled", value="shuffled"),
                 app_commands.Choice(name="Join order", value="join")],
    )
    @app_commands.guild_only()
    @app_commands.autocomplete(league=league_names)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        players: app_commands.Range[int, 1, 6] | None = None,
        thread: bool = False,
        seating: app_commands.Choice[str] | None = None,
        league: str | None = None,
        pace: app_commands.Choice[str] | None = None,
        duration: app_commands.Range[str, 1, 20] | None = None,
        bank: bool = False,
        out_of_time: app_commands.Choice[str] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        bot = bot_of(interaction)
        channel_id = interaction.channel_id
        assert channel_id is not None
        order = seating.value if seating else "shuffled"
        chosen = make_timing(pace.value if pace else "none", duration=duration, bank=bank,
                             policy=out_of_time.value if out_of_time else "autopilot",
                             level=level.value if level else "random")
        if thread:
            parent = interaction.channel
            if not isinstance(parent, discord.TextChannel):
                await reply(interaction, "Threads can only be opened from a text channel.")
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            made = await parent.create_thread(
                name=f"{game.name} table", type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            notice = await bot.tables.open(
                game.value, made.id, member_of(interaction), guild_id=interaction.guild_id,
                max_players=players, seat_order=order, league=league,
            )
            await bot.scheduler.set_timing(notice.table_id, chosen, member_of(interaction))
            await Delivery(bot).post_lobby(made.id, notice)
            await interaction.followup.send(f"Table opened in {made.mention}.", ephemeral=True)
            return
        notice = await bot.tables.open(
            game.value, channel_id, member_of(interaction), guild_id=interaction.guild_id,
            max_players=players, seat_order=order, league=league,
        )
        await bot.scheduler.set_timing(notice.table_id, chosen, member_of(interaction))
        await reply(interaction, f"{notice.public_text}\n{chosen.describe()}", ephemeral=False,
                    view=lobby_view(notice.table_id))

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.join(table.channel_id, member_of(interaction))
        await _after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.leave(table.channel_id, member_of(interaction))
        await _after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="add-bot", description="Fill a seat with a computer player")
    async def add_bot(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.add_computer(
            table.channel_id, member_of(interaction)
        )
        await _after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="remove", description="Remove a seat from the lobby (creator or "
                          "server manager)")
    @app_commands.describe(seat="The seat number shown in the lobby")
    async def remove(
        self, interaction: discord.Interaction[Any], seat: app_commands.Range[int, 1, 6]
    ) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.remove_seat(
            table.channel_id, member_of(interaction), seat - 1
        )
        await _after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="start", description="Start the game with the seated players")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await _start(interaction, from_button=False)

    @app_commands.command(name="status", description="Who sits here and whose turn it is")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        bot = bot_of(interaction)
        notice = await bot.tables.status(table.channel_id)
        text = notice.public_text
        if notice.next_names:
            text += "\nWaiting for: " + ", ".join(notice.next_names)
        text += "\n" + await timing.status_lines(bot, table.id)
        await reply(interaction, text.strip() or "The game is on.")

    @app_commands.command(name="pause", description="Stop this game's clock (creator or "
                          "server manager)")
    @app_commands.describe(reason="Why, for the players")
    async def pause(self, interaction: discord.Interaction[Any],
                    reason: app_commands.Range[str, 1, 200]) -> None:
        await timing.pause(interaction, reason)

    @app_commands.command(name="resume", description="Restart this game's clock")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        await timing.resume(interaction)

    @app_commands.command(name="substitute", description="Give a seat to another member "
                          "(creator, server manager, or the seat's own player)")
    @app_commands.describe(seat="The seat number", member="Who takes the seat")
    async def substitute(self, interaction: discord.Interaction[Any],
                         seat: app_commands.Range[int, 1, 6],
                         member: discord.Member | discord.User) -> None:
        await timing.substitute(interaction, seat, member)

    @app_commands.command(name="seek", description="Post a Join-as-substitute button for a seat")
    @app_commands.describe(seat="The seat number", role="A role to mention")
    async def seek(self, interaction: discord.Interaction[Any],
                   seat: app_commands.Range[int, 1, 6], role: discord.Role | None = None
                   ) -> None:
        await timing.seek(interaction, seat, role)

    @app_commands.command(name="abandon", description="End this channel's game now (creator or "
                          "server manager)")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.abandon(table.channel_id,
                                                          member_of(interaction))
        await reply(interaction, notice.public_text, ephemeral=False)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
