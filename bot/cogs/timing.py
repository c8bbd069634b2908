"""``/turns`` (every table that waits on the caller, on every server) and ``/settings`` (a
member's own time zone, quiet hours, holiday, reminders, DMs and previews)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.pace.member import (
    MAX_HOLIDAY_DAYS,
    check_clock_time,
    check_interval,
    check_quiet,
    check_zone,
    plan_holiday,
    zone_hint,
    zone_names,
)
from bot.pace.model import Timing as TableTiming
from bot.pace.notices import waiting_line
from bot.pace.overview import server_tables
from bot.text import clean_name, escape
from bot.ui.cards import Card, answer_card
from bot.ui.choices import PACE_CHOICES, POLICY_CHOICES
from bot.ui.respond import bot_of, defer, member_of, refuse, reply
from rules.words import counted

REMINDER_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                    (("off", 0), ("every 6 h", 6), ("every 12 h", 12), ("every 24 h", 24))]


class Timing(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="turns", description="Every table, on every server, that "
                          "waits on you")
    async def turns(self, interaction: discord.Interaction[Any]) -> None:
        waiting = await bot_of(interaction).scheduler.waiting(interaction.user.id)
        if not waiting:
            await reply(interaction, "No table waits on you.")
            return
        verb = "waits" if len(waiting) == 1 else "wait"
        await answer_card(interaction, Card(
            f"### {counted(len(waiting), 'table')} {verb} on you",
            body="Oldest first:\n" + "\n".join(waiting_line(w) for w in waiting)))

    @app_commands.command(name="tables", description="Server managers: every game in progress "
                          "here, what it waits for, oldest first")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def tables(self, interaction: discord.Interaction[Any]) -> None:
        if not member_of(interaction).is_admin:
            await refuse(interaction, "Only server managers see every table of the server.")
            return
        await defer(interaction)
        assert interaction.guild_id is not None
        found = await server_tables(bot_of(interaction).scheduler, interaction.guild_id)
        if not found:
            await reply(interaction, "No game is in progress on this server.")
            return
        stalled = sum(1 for f in found if f.stalled)
        await answer_card(interaction, Card(
            f"### {counted(len(found), 'game')} in progress, {stalled} stalled",
            body="Longest waiting first:\n" + "\n".join(f.text for f in found)))

    @app_commands.command(name="server-settings", description="Server managers: defaults for "
                          "new tables and the substitute role")
    @app_commands.describe(
        pace="Pace of new tables that do not choose one",
        duration="With pace custom: time per move, 1m to 14d",
        out_of_time="Out-of-time rule of new tables that do not choose one",
        quiet_hours="Whether players' quiet hours move deadlines at new tables",
        substitute_role="The role /game seek mentions when it names none",
        no_substitute_role="Mention no role by default",
        web_pages="Whether this server's tables and leagues have web pages and links",
    )
    @app_commands.choices(pace=PACE_CHOICES, out_of_time=POLICY_CHOICES)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def server_settings(
        self, interaction: discord.Interaction[Any],
        pace: app_commands.Choice[str] | None = None,
        duration: app_commands.Range[str, 1, 20] | None = None,
        out_of_time: app_commands.Choice[str] | None = None,
        quiet_hours: bool | None = None, substitute_role: discord.Role | None = None,
        no_substitute_role: bool = False, web_pages: bool | None = None,
    ) -> None:
        if not member_of(interaction).is_admin:
            await refuse(interaction, "Only server managers change the server's defaults.")
            return
        scheduler = bot_of(interaction).scheduler
        server = await scheduler.server(interaction.guild_id)
        if pace is not None:
            server = replace(server, pace=pace.value, duration=duration)
        elif duration is not None:
            server = replace(server, pace="custom", duration=duration)
        if out_of_time is not None:
            server = replace(server, policy=out_of_time.value)
        if quiet_hours is not None:
            server = replace(server, quiet_hours=quiet_hours)
        if substitute_role is not None or no_substitute_role:
            chosen = substitute_role.id if substitute_role is not None else None
            server = replace(server, substitute_role=None if no_substitute_role else chosen)
        await scheduler.save_server(server)
        store = bot_of(interaction).tables.store
        assert interaction.guild_id is not None  # guild_only
        if web_pages is not None:
            await store.set_web_pages(interaction.guild_id, web_pages)
        pages = "on" if await store.web_pages_on(interaction.guild_id) else "off"
        await reply(interaction, f"This server's defaults:\n{server.describe()}\n"
                                 f"Web pages and links: {pages}.",
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="profile", description="A member's reliability: games "
                          "finished, abandoned, deadlines missed")
    @app_commands.describe(member="Whose (yours if not given)")
    async def profile(self, interaction: discord.Interaction[Any],
                      member: discord.Member | discord.User | None = None) -> None:
        who = member or interaction.user
        found = await bot_of(interaction).scheduler.record(who.id)
        name = escape(clean_name(who.display_name))
        await answer_card(interaction, Card(f"### {name}'s record",
                                            body=found.describe(name)))

    @app_commands.command(name="settings", description="Your time zone, quiet hours, "
                          "holiday, reminders, DMs and previews (on every server)")
    @app_commands.describe(
        timezone="Your time zone, e.g. Europe/Paris",
        quiet_start="Quiet hours start (HH:MM, your time); no reminders then",
        quiet_end="Quiet hours end (HH:MM)",
        quiet_off="Turn quiet hours off",
        reminders="Reminder interval at tables without deadlines",
        holiday_days="Take this many days off (0 ends or cancels a holiday)",
        holiday_from="The holiday starts on this day (YYYY-MM-DD, your time); today if not "
                     "given",
        dm_notices="Reminders and notices by DM (else one mention in the channel)",
        preview="Show a preview before Confirm when you play with /move",
        dashboard="One DM listing the tables waiting on you, kept up to date",
    )
    @app_commands.choices(reminders=REMINDER_CHOICES)
    async def settings(
        self, interaction: discord.Interaction[Any],
        timezone: app_commands.Range[str, 1, 64] | None = None,
        quiet_start: app_commands.Range[str, 1, 5] | None = None,
        quiet_end: app_commands.Range[str, 1, 5] | None = None,
        quiet_off: bool = False, reminders: app_commands.Choice[int] | None = None,
        holiday_days: app_commands.Range[int, 0, MAX_HOLIDAY_DAYS] | None = None,
        holiday_from: app_commands.Range[str, 10, 10] | None = None,
        dm_notices: bool | None = None, preview: bool | None = None,
        dashboard: bool | None = None,
    ) -> None:
        scheduler = bot_of(interaction).scheduler
        mine = await scheduler.settings(interaction.user.id)
        hint = None
        if timezone is not None:
            mine = replace(mine, tz=check_zone(timezone))
            hint = zone_hint(timezone)
        if quiet_start is not None:
            mine = replace(mine, quiet_start=check_clock_time(quiet_start))
        if quiet_end is not None:
            mine = replace(mine, quiet_end=check_clock_time(quiet_end))
        if quiet_off:
            mine = replace(mine, quiet_start=None, quiet_end=None)
        if reminders is not None:
            mine = replace(mine, interval_hours=check_interval(reminders.value))
        if holiday_days is not None or holiday_from is not None:
            mine = plan_holiday(mine, scheduler.clock.now(), holiday_days, holiday_from)
        mine = check_quiet(mine)
        if dm_notices is not None:
            # Turning DM notices on again is the member's word that their DMs are open.
            mine = replace(mine, dm_notices=dm_notices,
                           dms_refused=mine.dms_refused and not dm_notices)
        if preview is not None:
            mine = replace(mine, preview=preview)
        if dashboard is not None:
            mine = replace(mine, dashboard=dashboard)
        await scheduler.save_settings(mine)
        local = scheduler.clock.now().astimezone(mine.zone).strftime("%H:%M")
        text = f"Your settings (your time now {local}):\n{mine.describe(scheduler.now())}"
        if mine.away_until is not None and mine.away_until > scheduler.now():
            text += (f"\nEach table covers up to {TableTiming().holiday_days} days of holiday "
                     "while it waits on you (its `/game status` says so); past that its "
                     "out-of-time rule applies.")
        if hint is not None:
            text += f"\n{hint}"
        await reply(interaction, text)

    @settings.autocomplete("timezone")
    async def zone_autocomplete(self, interaction: discord.Interaction[Any], current: str
                                ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_names(current)]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timing(bot))
