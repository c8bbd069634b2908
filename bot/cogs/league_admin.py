"""The organisers' league commands: ``/league-admin create|close|pace|admin-role|season start|
season end|signups|check-in|round|void|correct``. Discord puts ``default_member_permissions``
on top-level commands only, so they are a group of their own that members without Manage
Server do not see; rights are checked in code too (server managers, or the league-admin role).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.leagues.checkin import CheckIns
from bot.leagues.report import safe_name
from bot.notices import Notice
from bot.pace.model import make_timing, parse_duration
from bot.store import LeagueSettings
from bot.tables.computers import DEFAULT_LEVEL
from bot.ui.choices import (
    GAME_CHOICES,
    LEVEL_CHOICES,
    PACE_CHOICES,
    POLICY_CHOICES,
    league_names,
)
from bot.ui.components import checkin_view
from bot.ui.delivery import delivery_of
from bot.ui.replies import owe_round
from bot.ui.respond import bot_of, defer, member_of, reply, roles_of
from bot.ui.rounds import ask_check_in, open_round
from bot.values import TableError

NONE = discord.AllowedMentions.none()
MAX_DEADLINE = 60 * 86400
# A result's number is its row id; Discord's integer options stop at 2**53 - 1 (a larger
# bound makes Discord refuse the whole command sync).
MAX_RESULT_ID = 2**53 - 1



@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class LeagueAdmin(commands.GroupCog, group_name="league-admin",
                  group_description="Run leagues: create, seasons, rounds (organisers)"):
    """Organisers' commands. Discord shows them to members with Manage Server by default
    (server admins can allow the league-admin role in the server's Integrations settings);
    the rights are checked in code as well."""

    season = app_commands.Group(name="season", description="Start or end a league season")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Rights first, for every subcommand: a member who may not run leagues learns that,
        not whether a league of that name exists nor what was wrong with the options."""
        member = member_of(interaction)
        command = interaction.command
        if command is not None and command.name == "admin-role":
            if not member.is_admin:
                raise app_commands.CheckFailure("Only a server manager can choose the "
                                                "league-admin role.")
            return True
        assert interaction.guild_id is not None  # guild_only
        if not await bot_of(interaction).leagues.may_run(interaction.guild_id, member,
                                                          roles_of(interaction)):
            raise app_commands.CheckFailure("Only a server manager or the server's "
                                            "league-admin role can run leagues.")
        return True

    @app_commands.command(name="create", description="Start a league run from this channel "
                          "(server managers or the league-admin role)")
    @app_commands.describe(
        name="The league's name", game="The game it plays",
        smallest="Fewest seats at a round's table", largest="Most seats at a round's table",
        computers="Fill short tables with computer seats",
        reliability="Reliability (%) a member needs to join",
        carry="Share (%) of a rating carried into a new season",
        points="Tournament points per place, best first, e.g. 3,1,0 (default: 1 to 0 evenly)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def create(self, interaction: discord.Interaction[Any],
                     name: app_commands.Range[str, 1, 40], game: app_commands.Choice[str],
                     smallest: app_commands.Range[int, 1, 6] | None = None,
                     largest: app_commands.Range[int, 2, 6] | None = None,
                     computers: bool = False,
                     reliability: app_commands.Range[int, 0, 100] = 0,
                     carry: app_commands.Range[int, 0, 100] = 0,
                     points: app_commands.Range[str, 1, 40] | None = None) -> None:
        assert interaction.guild_id is not None
        settings = LeagueSettings(interaction.channel_id, smallest, largest, computers,
                                  reliability / 100, carry / 100, points)
        league = await bot_of(interaction).leagues.create(
            interaction.guild_id, member_of(interaction), name, game.value,
            roles=roles_of(interaction), settings=settings)
        await reply(interaction, f"League **{safe_name(league.name)}** ({game.name}) is open. "
                    "Sign up with `/league join`; rounds open their tables in threads here.",
                    ephemeral=False, allowed_mentions=NONE)


    @app_commands.command(name="close", description="Close a league (organisers)")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def close(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        league = await bot_of(interaction).leagues.close(
            interaction.guild_id, member_of(interaction), name, roles_of(interaction))
        await reply(interaction, f"League **{safe_name(league.name)}** is closed; its standings "
                    "stay.", ephemeral=False, allowed_mentions=NONE)


    @app_commands.command(name="pace", description="Impose a pace on a league's tables "
                          "(organisers)")
    @app_commands.describe(
        name="The league", pace="Time per move (none: each table chooses its own)",
        duration="Custom pace: time per move (or initial bank), 1m to 14d, e.g. 90m, 2d",
        bank="Custom pace as a time bank per player", out_of_time="When a seat runs out",
        level="Computer level when it plays for a seat out of time",
    )
    @app_commands.choices(pace=PACE_CHOICES, out_of_time=POLICY_CHOICES, level=LEVEL_CHOICES)
    @app_commands.autocomplete(name=league_names)
    async def pace(self, interaction: discord.Interaction[Any], name: str,
                   pace: app_commands.Choice[str],
                   duration: app_commands.Range[str, 1, 20] | None = None, bank: bool = False,
                   out_of_time: app_commands.Choice[str] | None = None,
                   level: app_commands.Choice[str] | None = None) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        chosen = make_timing(pace.value, duration=duration, bank=bank,
                             policy=out_of_time.value if out_of_time else "autopilot",
                             level=level.value if level else DEFAULT_LEVEL)
        await bot.leagues.require_runner(interaction.guild_id, member_of(interaction),
                                         roles_of(interaction), "set a league's pace")
        league = await bot.leagues.named(interaction.guild_id, name)
        await bot.scheduler.set_league_timing(league.id, chosen if chosen.timed else None)
        said = (chosen.describe() if chosen.timed
                else "Each table chooses its own pace again.")
        await reply(interaction, f"League **{safe_name(league.name)}**: {said} Its tables "
                    "follow it from their next move.", ephemeral=False, allowed_mentions=NONE)

    @app_commands.command(name="admin-role", description="The role that may run leagues "
                          "besides server managers (server managers)")
    @app_commands.describe(role="The role (leave empty for server managers only)")
    async def admin_role(self, interaction: discord.Interaction[Any],
                         role: discord.Role | None = None) -> None:
        assert interaction.guild_id is not None
        await bot_of(interaction).leagues.set_admin_role(
            interaction.guild_id, member_of(interaction), role.id if role else None)
        text = (f"Members with {role.mention} may run leagues." if role
                else "Only server managers may run leagues.")
        await reply(interaction, text, allowed_mentions=NONE)


    @season.command(name="start", description="Start a new season (organisers)")
    @app_commands.describe(name="The league", ends="Planned last day, YYYY-MM-DD",
                           carry="Share (%) of each rating carried over (the league's default "
                           "if not given)")
    @app_commands.autocomplete(name=league_names)
    async def season_start(self, interaction: discord.Interaction[Any], name: str,
                           ends: app_commands.Range[str, 1, 20] | None = None,
                           carry: app_commands.Range[int, 0, 100] | None = None) -> None:
        assert interaction.guild_id is not None
        season = await bot_of(interaction).leagues.start_season(
            interaction.guild_id, member_of(interaction), name, ends_on=ends,
            carry=None if carry is None else carry / 100, roles=roles_of(interaction))
        until = f" until {season.ends_on}" if season.ends_on else ""
        await reply(interaction, f"Season {season.number} of **{safe_name(name)}** has begun"
                    f"{until}; ratings start with {round(season.carry * 100)}% carried over.",
                    ephemeral=False, allowed_mentions=NONE)


    @season.command(name="end", description="End the running season (organisers)")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def season_end(self, interaction: discord.Interaction[Any], name: str) -> None:
        assert interaction.guild_id is not None
        season = await bot_of(interaction).leagues.end_season(
            interaction.guild_id, member_of(interaction), name, roles_of(interaction))
        await reply(interaction, f"Season {season.number} of **{safe_name(name)}** is over. "
                    "`/league standings` shows it by number.", ephemeral=False,
                    allowed_mentions=NONE)


    @app_commands.command(name="signups", description="Open or close sign-ups, cap them, "
                          "ask for check-in before rounds (organisers)")
    @app_commands.describe(name="The league", open="Whether members may sign up",
                           cap="Most members signed up at once (0: no cap)",
                           checkin="Rounds pair only members who checked in for them")
    @app_commands.autocomplete(name=league_names)
    async def signups(self, interaction: discord.Interaction[Any], name: str,
                      open: bool | None = None,
                      cap: app_commands.Range[int, 0, 10_000] | None = None,
                      checkin: bool | None = None) -> None:
        assert interaction.guild_id is not None
        leagues = bot_of(interaction).leagues
        league = await leagues.set_signups(
            interaction.guild_id, member_of(interaction), name, signups_open=open, cap=cap,
            checkin=checkin, roles=roles_of(interaction))
        signed = await leagues.signed_up(league)
        over = (f" {signed} members are signed up already, more than the cap: nobody is "
                "removed, and nobody new signs up until fewer than "
                f"{league.cap} are." if league.cap and signed > league.cap else "")
        await reply(interaction, f"**{safe_name(league.name)}**: sign-ups are "
                    f"{'open' if league.signups_open else 'closed'}"
                    + (f", capped at {league.cap} members" if league.cap else "")
                    + ("; rounds pair only members who check in (`/league-admin check-in` "
                       "posts the button)" if league.checkin else "") + "." + over,
                    ephemeral=False, allowed_mentions=NONE)

    @app_commands.command(name="check-in", description="Post the Check in button for the "
                          "next round; with closes_in, it opens by itself then (organisers)")
    @app_commands.describe(name="The league",
                           closes_in="Close check-in after this long, e.g. 24h: the round then "
                           "opens with those present",
                           deadline="With closes_in: time the round has, e.g. 3d",
                           auto="With closes_in and deadline: each round opens the next at "
                           "its deadline")
    @app_commands.autocomplete(name=league_names)
    async def check_in(self, interaction: discord.Interaction[Any], name: str,
                       closes_in: app_commands.Range[str, 1, 20] | None = None,
                       deadline: app_commands.Range[str, 1, 20] | None = None,
                       auto: bool = False) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        checkins = CheckIns(bot.leagues)
        if closes_in is None:
            if deadline is not None or auto:
                raise TableError("`deadline` and `auto` go with `closes_in` (when check-in "
                                 "closes, the round opens with them).")
            await bot.leagues.require_runner(interaction.guild_id, member_of(interaction),
                                             roles_of(interaction), "ask for check-in")
            league = await bot.leagues.named(interaction.guild_id, name)
            if not league.checkin:
                raise TableError("Turn check-in on first: "
                                 "`/league-admin signups checkin:True`.")
            state = await checkins.state(league.id)
        else:
            state = await checkins.open_window(
                interaction.guild_id, member_of(interaction), name,
                timedelta(seconds=parse_duration(closes_in)), deadline=_round_time(deadline),
                auto_next=auto, roles=roles_of(interaction))
        await reply(interaction, state.text(), ephemeral=False,
                    view=checkin_view(state.league.id), allowed_mentions=NONE)

    @app_commands.command(name="round", description="Form the next round's tables from the "
                          "signed-up members and open them in threads (organisers)")
    @app_commands.describe(name="The league",
                           deadline="Time the round has, e.g. 3d: then unfinished tables end "
                           "(waited-for seats forfeit)",
                           force="Open it although the last round is still open",
                           auto="At the deadline, open the next round by itself (same time)")
    @app_commands.autocomplete(name=league_names)
    async def round(self, interaction: discord.Interaction[Any], name: str,
                    deadline: app_commands.Range[str, 1, 20] | None = None,
                    force: bool = False, auto: bool = False) -> None:
        assert interaction.guild_id is not None
        bot = bot_of(interaction)
        await defer(interaction, public=True)
        limit = _round_time(deadline)
        parent = interaction.client.get_channel(
            (await bot.leagues.named(interaction.guild_id, name)).channel_id
            or interaction.channel_id or 0)
        if not isinstance(parent, discord.TextChannel):
            raise TableError("The league's channel is gone or not a text channel; "
                             "create the league again in a text channel.")
        settled: list[Notice] = []
        if force:
            plan, settled = await bot.referee.force_round(
                interaction.guild_id, member_of(interaction), name, roles_of(interaction),
                deadline=limit, auto_next=auto)
        else:
            plan = await bot.rounds.plan(interaction.guild_id, member_of(interaction), name,
                                         roles_of(interaction), deadline=limit,
                                         auto_next=auto)
        # Owed until the round has opened: a restart that finishes opening it answers.
        await owe_round(interaction, plan.round.id)
        for notice in settled:
            # The closed round's tables end before the new round's open.
            await bot.outbox.publish(notice)
        text = await open_round(bot, delivery_of(interaction), plan, parent)
        await reply(interaction, text, ephemeral=False, allowed_mentions=NONE)
        await bot.tables.store.drop_round_reply(plan.round.id)
        await ask_check_in(delivery_of(interaction), plan, parent, CheckIns(bot.leagues))

    @app_commands.command(name="void", description="Void a league result, with a reason "
                          "(organisers; ratings are recomputed)")
    @app_commands.describe(name="The league", result="The result's number (`/league results`)",
                           reason="Why: kept with the result and shown")
    @app_commands.autocomplete(name=league_names)
    async def void(self, interaction: discord.Interaction[Any], name: str,
                   result: app_commands.Range[int, 1, MAX_RESULT_ID],
                   reason: app_commands.Range[str, 1, 200]) -> None:
        assert interaction.guild_id is not None
        voided = await bot_of(interaction).leagues.void(
            interaction.guild_id, member_of(interaction), name, result, reason,
            roles_of(interaction))
        await reply(interaction, f"Result #{voided.id} (table {voided.table_id}) of "
                    f"**{safe_name(name)}** is void: "
                    f"{safe_name(reason, 200)}. Ratings and points are recomputed without it.",
                    ephemeral=False, allowed_mentions=NONE)


    @app_commands.command(name="correct", description="Correct a placing in a league result, "
                          "with a reason (organisers; ratings are recomputed)")
    @app_commands.describe(name="The league", result="The result's number (`/league results`)",
                           member="Whose place is wrong", place="The place they finished (1 is "
                           "first)", reason="Why: kept with the result")
    @app_commands.autocomplete(name=league_names)
    async def correct(self, interaction: discord.Interaction[Any], name: str,
                      result: app_commands.Range[int, 1, MAX_RESULT_ID],
                      member: discord.Member | discord.User,
                      place: app_commands.Range[int, 1, 6],
                      reason: app_commands.Range[str, 1, 200]) -> None:
        assert interaction.guild_id is not None
        fixed = await bot_of(interaction).leagues.correct(
            interaction.guild_id, member_of(interaction), name, result, member.id, place,
            reason, roles_of(interaction))
        order = ", ".join(f"{p.place}. {safe_name(p.name, 20)}"
                          + (" (forfeit)" if p.forfeited else "")
                          for p in sorted(fixed.places, key=lambda p: (p.place, p.seat)))
        await reply(interaction, f"Result #{fixed.id} of **{safe_name(name)}** corrected "
                    f"({safe_name(reason, 200)}): {order}. Ratings and points are recomputed.",
                    ephemeral=False, allowed_mentions=NONE)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueAdmin(bot))


def _round_time(deadline: str | None) -> timedelta | None:
    """A round's time as typed (``3d``); None for none."""
    if deadline is None:
        return None
    seconds = parse_duration(deadline)
    if not 60 <= seconds <= MAX_DEADLINE:
        raise TableError("A round's deadline is between 1 minute and 60 days.")
    return timedelta(seconds=seconds)
