"""Leagues for everyone: ``/league list|join|leave|standings|me|round|history|results|export``
(the organisers' commands are ``/league-admin``, in ``league_admin``)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.leagues.members import history_text, me_text, member_view
from bot.leagues.progress import progress_text, round_progress
from bot.leagues.report import (
    check_page,
    page_of,
    points_text,
    safe_name,
    standings_png,
    standings_text,
)
from bot.render_pool import Drawn
from bot.ui.cards import Actions, Card, answer_card, with_image
from bot.ui.choices import (
    league_names,
)
from bot.ui.delivery import delivery_of
from bot.ui.respond import bot_of, defer, member_of, reply, roles_of
from bot.values import Member
from rules import GAMES

RESULTS_SHOWN = 15
NONE = discord.AllowedMentions.none()
VIEW_CHOICES = [app_commands.Choice(name="Ratings", value="rating"),
                app_commands.Choice(name="Points and tie-breaks", value="points")]




@app_commands.guild_only()
class League(commands.GroupCog, group_name="league",
             group_description="Leagues: sign up, rounds, seasons and standings"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="list", description="This server's leagues")
    async def list(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        leagues = await bot_of(interaction).leagues.all(interaction.guild_id)
        if not leagues:
            await reply(interaction,
                        "No leagues yet. A server manager can `/league-admin create` one.")
            return
        lines = [f"- **{safe_name(lg.name)}**: {GAMES[lg.game_id].title}"
                 + (" (closed)" if lg.closed else "") for lg in leagues]
        await reply(interaction, "\n".join(lines), allowed_mentions=NONE)

    @app_commands.command(name="join", description="Sign up for a league's rounds")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def join(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        league = await bot_of(interaction).leagues.join(interaction.guild_id,
                                                        member_of(interaction), name)
        await reply(interaction, f"You are signed up for **{safe_name(league.name)}**.",
                    allowed_mentions=NONE)

    @app_commands.command(name="leave", description="Stop playing a league's rounds "
                          "(organisers may remove a member)")
    @app_commands.describe(name="The league", member="Someone to remove (organisers only)")
    @app_commands.autocomplete(name=league_names)
    async def leave(self, interaction: discord.Interaction[Any], name: str,
                    member: discord.Member | None = None) -> None:
        assert interaction.guild_id is not None
        who = Member(member.id, member.display_name) if member else None
        league = await bot_of(interaction).leagues.leave(
            interaction.guild_id, member_of(interaction), name, who, roles_of(interaction))
        whom = "You have" if who is None else f"{safe_name(who.name)} has"
        await reply(interaction, f"{whom} left **{safe_name(league.name)}**; past results stay.",
                    allowed_mentions=NONE)

    @app_commands.command(name="standings", description="A league's standings: ratings (an "
                          "image) or tournament points")
    @app_commands.describe(name="The league",
                           season="A season's number (the running season if not given)",
                           all_time="All games of this game on this server",
                           page="Which page of 20 (ranks 21-40 are page 2)",
                           view="Ratings, or points with Buchholz and Sonneborn-Berger")
    @app_commands.choices(view=VIEW_CHOICES)
    @app_commands.autocomplete(name=league_names)
    async def standings(self, interaction: discord.Interaction[Any], name: str,
                        season: app_commands.Range[int, 1, 10_000] | None = None,
                        all_time: bool = False, page: app_commands.Range[int, 1, 1000] = 1,
                        view: app_commands.Choice[str] | None = None) -> None:
        assert interaction.guild_id is not None
        # A later page is checked before the public placeholder, so a page past the last is
        # refused in private.
        early = page > 1
        if not early:
            await defer(interaction, public=True)
        standings = await bot_of(interaction).leagues.standings(
            interaction.guild_id, name, season, all_time_view=all_time)
        points = view is not None and view.value == "points"
        check_page(standings.points if points else standings.lines, page)
        if early:
            await defer(interaction, public=True)
        if points:
            await reply(interaction, points_text(standings.title, standings.points, page),
                        ephemeral=False, allowed_mentions=NONE)
            return
        png, alt = await asyncio.to_thread(standings_png, standings.title,
                                           page_of(standings.lines, page))
        links = delivery_of(interaction).links
        url = await links.league(standings.league.id, standings.league.guild_id) \
            if links is not None else None
        drawn = Drawn(png, alt)
        # The standings' own first line is the card's title.
        card = with_image(Card("", body=standings_text(standings.title, standings.lines, page),
                               actions=Actions(0, url=url) if url else None),
                          drawn, "standings")
        await answer_card(interaction, card, drawn, ephemeral=False)

    @app_commands.command(name="me", description="Your rank, rating, points, latest results "
                          "and table in a league")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def me(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        caller = member_of(interaction)
        view = await member_view(bot.leagues, interaction.guild_id, name, caller.id,
                                 caller.name)
        await answer_card(interaction, Card("", body=me_text(view, bot.leagues.clock())))

    @app_commands.command(name="round", description="A round's tables: finished or playing, "
                          "whom each waits for, and its deadline")
    @app_commands.describe(name="The league", number="Which round (the latest if not given)")
    @app_commands.autocomplete(name=league_names)
    async def round(self, interaction: discord.Interaction[Any], name: str,
                    number: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        progress = await round_progress(bot.leagues, bot.tables, interaction.guild_id, name,
                                        number)
        await answer_card(interaction, Card(
            f"### {safe_name(progress.league)}: round {progress.round.number}",
            body=progress_text(progress, bot.leagues.clock())))

    @app_commands.command(name="history", description="A member's results in a league")
    @app_commands.describe(name="The league", member="Whose results (yours if not given)")
    @app_commands.autocomplete(name=league_names)
    async def history(self, interaction: discord.Interaction[Any], name: str,
                      member: discord.Member | discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        who = member_of(interaction) if member is None else Member(member.id,
                                                                   member.display_name)
        view = await member_view(bot_of(interaction).leagues, interaction.guild_id, name,
                                 who.id, who.name)
        await answer_card(interaction, Card("", body=history_text(view)))

    @app_commands.command(name="results", description="A league's finished tables, with links")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def results(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        league, results = await bot_of(interaction).leagues.results(interaction.guild_id, name)
        if not results:
            await reply(interaction, f"**{safe_name(league.name)}** has no finished tables yet.",
                        allowed_mentions=NONE)
            return
        lines = [f"**{safe_name(league.name)}**: latest results"]
        for result, channel in results[:RESULTS_SHOWN]:
            order = sorted(result.places, key=lambda p: (p.place, p.seat))
            who = ", ".join(f"{p.place}. {safe_name(p.name, 20)}"
                            + (" (forfeit)" if p.forfeited else "") for p in order)
            link = f"https://discord.com/channels/{interaction.guild_id}/{channel}"
            voided = " (voided)" if result.voided is not None else ""
            lines.append(f"- #{result.id} {result.finished_at[:10]} [table {result.table_id}]"
                         f"(<{link}>){voided}: {who}")
        if len(results) > RESULTS_SHOWN:
            lines.append(f"… and {len(results) - RESULTS_SHOWN} more (`/league export`).")
        await reply(interaction, "\n".join(lines), allowed_mentions=NONE)

    @app_commands.command(name="export", description="Every result of a league as CSV")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def export(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        league, text = await bot_of(interaction).leagues.export(interaction.guild_id, name)
        file = discord.File(io.BytesIO(text.encode()), filename="league-results.csv")
        await reply(interaction, f"Results of **{safe_name(league.name)}**.", file=file,
                    allowed_mentions=NONE)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(League(bot))
