"""``/game new|join|leave|start|status|abandon|add-bot|remove``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.notices import Notice
from bot.pace.status import status_lines
from bot.tables.computers import DEFAULT_LEVEL
from bot.text import clip
from bot.ui import async_play, lobby
from bot.ui.cards import Card, accent_of, answer_card, heading, with_image
from bot.ui.choices import (
    GAME_CHOICES,
    LEVEL_CHOICES,
    PACE_CHOICES,
    POLICY_CHOICES,
    league_names,
)
from bot.ui.components import lobby_view
from bot.ui.delivery import delivery_of
from bot.ui.respond import bot_of, defer, member_of, reply, roles_of, table_here
from bot.values import Member


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
        quiet_hours="Move deadlines out of players' quiet hours (the server's default if not "
                    "given)",
        min_reliability="Players need at least this reliability (percent, see /profile) to "
                        "join",
    )
    @app_commands.choices(
        pace=PACE_CHOICES,
        out_of_time=POLICY_CHOICES,
        level=LEVEL_CHOICES,
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
        league: app_commands.Range[str, 1, 40] | None = None,
        pace: app_commands.Choice[str] | None = None,
        duration: app_commands.Range[str, 1, 20] | None = None,
        bank: bool = False,
        out_of_time: app_commands.Choice[str] | None = None,
        level: app_commands.Choice[str] | None = None,
        quiet_hours: bool | None = None,
        min_reliability: app_commands.Range[int, 0, 100] = 0,
    ) -> None:
        bot = bot_of(interaction)
        channel_id = interaction.channel_id
        assert channel_id is not None
        order = seating.value if seating else "shuffled"
        # Checked before the table exists, so a refused pace opens nothing. What the command
        # does not choose comes from the server's defaults (``/server-settings``).
        server = await bot.scheduler.server(interaction.guild_id)
        chosen = server.new_table(pace.value if pace else None, duration, bank,
                                  out_of_time.value if out_of_time else None,
                                  level.value if level else DEFAULT_LEVEL, quiet_hours,
                                  min_reliability)
        if league is not None:
            # Only organisers open league tables outside rounds: checked before a thread opens.
            assert interaction.guild_id is not None
            await bot.leagues.require_runner(
                interaction.guild_id, member_of(interaction), roles_of(interaction),
                "open a league table outside rounds (league games are played in rounds)")
        if not thread:
            notice = await open_table(interaction, game.value, channel_id, players, order,
                                      league)
            chosen = await bot.scheduler.set_timing(notice.table_id, chosen,
                                                    member_of(interaction))
            await reply(interaction, f"{notice.public_text}\n{chosen.describe()}",
                        ephemeral=False, view=lobby_view(notice.table_id),
                        allowed_mentions=discord.AllowedMentions.none())
            return
        parent = interaction.channel
        if not isinstance(parent, discord.TextChannel):
            await reply(interaction, "Threads can only be opened from a text channel.")
            return
        await defer(interaction)
        made = await parent.create_thread(
            name=f"{game.name} table", type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,
        )
        notice = await open_table(interaction, game.value, made.id, players, order, league)
        chosen = await bot.scheduler.set_timing(notice.table_id, chosen, member_of(interaction))
        told = replace(notice, public_text=f"{notice.public_text}\n{chosen.describe()}")
        await delivery_of(interaction).post_lobby(told)
        await interaction.followup.send(f"Table opened in {made.mention}.", ephemeral=True)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        await bot_of(interaction).scheduler.may_join(table.id, interaction.user.id)
        notice = await bot_of(interaction).tables.join(table.id, member_of(interaction))
        await lobby.after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.leave(table.id, member_of(interaction))
        await lobby.after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="add-bot", description="Fill a seat with a computer player")
    @app_commands.describe(level="How well the computer plays (normal if not given)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_bot(self, interaction: discord.Interaction[Any],
                      level: app_commands.Choice[str] | None = None) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.add_computer(
            table.id, member_of(interaction), level.value if level else DEFAULT_LEVEL
        )
        await lobby.after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="remove", description="Remove a seat from the lobby (creator or "
                          "server manager)")
    @app_commands.describe(seat="The seat number shown in the lobby")
    async def remove(
        self, interaction: discord.Interaction[Any], seat: app_commands.Range[int, 1, 6]
    ) -> None:
        table = await table_here(interaction)
        notice = await bot_of(interaction).tables.remove_seat(
            table.id, member_of(interaction), seat - 1
        )
        await lobby.after_lobby_change(interaction, notice, from_button=False)

    @app_commands.command(name="start", description="Start the game with the seated players")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        await lobby.start(interaction, table.id, from_button=False)

    @app_commands.command(name="status", description="Who sits here and whose turn it is")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        bot = bot_of(interaction)
        notice = await bot.tables.status(table.id)
        if notice.public_view is None:  # a lobby: its words say it all
            await reply(interaction, notice.public_text.strip() or "The table is open.",
                        allowed_mentions=discord.AllowedMentions.none())
            return
        await defer(interaction)
        text = notice.public_text + "\n" + await status_lines(bot.scheduler, table.id)
        drawn = await bot.renderer.card(notice.game_id, notice.public_view)
        card = with_image(Card(heading(notice.game_id, notice.public_view, notice.next_names,
                                       notice.over),
                               body=text.strip(), accent=accent_of(notice.lead_seat)),
                          drawn, "board")
        await answer_card(interaction, card, drawn)

    @app_commands.command(name="pause", description="Stop this game's clock (creator or "
                          "server manager)")
    @app_commands.describe(reason="Why, for the players")
    async def pause(self, interaction: discord.Interaction[Any],
                    reason: app_commands.Range[str, 1, 200]) -> None:
        await async_play.pause(interaction, reason)

    @app_commands.command(name="resume", description="Restart this game's clock")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        await async_play.resume(interaction)

    @app_commands.command(name="back", description="You are back: a holiday under way ends "
                          "and your absent seat here is yours again")
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        await async_play.back(interaction)

    @app_commands.command(name="extend", description="Give the seats waited on here more time "
                          "(creator or server manager)")
    @app_commands.describe(by="How much more, e.g. 12h or 2d (one period if not given)")
    async def extend(self, interaction: discord.Interaction[Any],
                     by: app_commands.Range[str, 1, 20] | None = None) -> None:
        await async_play.extend(interaction, by)

    @app_commands.command(name="pace", description="Change a running game's pace (creator or "
                          "server manager)")
    @app_commands.describe(pace="Time per move from now on",
                           duration="Custom pace: time per move, 1m to 14d, e.g. 90m, 2d")
    @app_commands.choices(pace=PACE_CHOICES)
    async def pace(self, interaction: discord.Interaction[Any], pace: app_commands.Choice[str],
                   duration: app_commands.Range[str, 1, 20] | None = None) -> None:
        table = await table_here(interaction)
        text = await bot_of(interaction).scheduler.change_pace(
            table.id, member_of(interaction), pace.value, duration)
        await reply(interaction, text, ephemeral=False,
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="out-of-time", description="Change what happens when a seat's "
                          "time runs out (creator or server manager)")
    @app_commands.describe(policy="What happens from now on", level="Computer level")
    @app_commands.choices(policy=POLICY_CHOICES, level=LEVEL_CHOICES)
    async def out_of_time(self, interaction: discord.Interaction[Any],
                          policy: app_commands.Choice[str],
                          level: app_commands.Choice[str] | None = None) -> None:
        table = await table_here(interaction)
        text = await bot_of(interaction).scheduler.change_policy(
            table.id, member_of(interaction), policy.value, level.value if level else None)
        await reply(interaction, text, ephemeral=False,
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="substitute", description="Give a seat to another member "
                          "(creator, manager or the seat's own; league: organisers)")
    @app_commands.describe(seat="The seat number", member="Who takes the seat",
                           anyone="League tables: allow someone not signed up to the league",
                           no_fault="League tables: the member replaced is not charged "
                           "(no forfeit; rating and reliability untouched)")
    async def substitute(self, interaction: discord.Interaction[Any],
                         seat: app_commands.Range[int, 1, 6],
                         member: discord.Member | discord.User, anyone: bool = False,
                         no_fault: bool = False) -> None:
        table = await table_here(interaction)
        await async_play.substitute(interaction, table.id, seat - 1,
                                    Member(member.id, member.display_name),
                                    member_of(interaction), roles=roles_of(interaction),
                                    anyone=anyone, no_fault=no_fault)

    @app_commands.command(name="seek", description="Post a Join-as-substitute button for a seat")
    @app_commands.describe(seat="The seat number", role="A role to mention")
    async def seek(self, interaction: discord.Interaction[Any],
                   seat: app_commands.Range[int, 1, 6], role: discord.Role | None = None
                   ) -> None:
        await async_play.seek(interaction, seat, role)

    @app_commands.command(name="abandon", description="End this channel's game now (creator or "
                          "server manager)")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        # At a league table, a player abandoning forfeits (``Rounds.abandon``).
        notice = await bot_of(interaction).rounds.abandon(table.id, member_of(interaction))
        await bot_of(interaction).scheduler.left(table.id, interaction.user.id)
        await reply(interaction, clip(notice.public_text), ephemeral=False,
                    allowed_mentions=discord.AllowedMentions.none())


async def open_table(interaction: discord.Interaction[Any], game_id: str, channel_id: int,
                     players: int | None, order: str, league: str | None) -> Notice:
    """A table, or (``league``) one an organiser opens for the league: its result counts."""
    bot = bot_of(interaction)
    if league is None:
        return await bot.tables.open(game_id, channel_id, member_of(interaction),
                                     guild_id=interaction.guild_id, max_players=players,
                                     seat_order=order)
    assert interaction.guild_id is not None
    return await bot.rounds.open_for_league(
        interaction.guild_id, member_of(interaction), game_id, channel_id, league,
        roles_of(interaction), max_players=players, seat_order=order)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
