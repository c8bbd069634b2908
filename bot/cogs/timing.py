"""``/turns``, ``/settings``, the ``/game pause|resume|substitute|seek`` handlers, the vote and
substitute buttons, and delivery of what the scheduler fires (reminders, moves made for a seat
out of time, votes)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import bot_of, clip, member_of, reply, report_error, table_here
from bot.delivery import DM_CLOSED, Delivery
from bot.pace.member import check_clock_time, check_interval, check_zone, zone_names
from bot.pace.notices import (
    MoveNotice,
    Reminder,
    TableMessage,
    VoteRequest,
    waiting_line,
)
from bot.pace.scheduler import Delivered
from bot.values import Member

if TYPE_CHECKING:
    from bot.app import TabulaBot

log = logging.getLogger(__name__)

VOTE_LABELS = {"remove": "Remove (computer plays)", "wait": "Wait another period",
               "substitute": "Find a substitute"}


async def deliver(bot: TabulaBot, items: Sequence[Delivered]) -> None:
    """Post what the scheduler fired: each item on its own, one failure never stops the rest."""
    delivery = Delivery(bot)
    for item in items:
        try:
            if isinstance(item, MoveNotice):
                await delivery.post_move(item.channel_id, item.notice)
            elif isinstance(item, TableMessage):
                await delivery.channel(item.channel_id).send(
                    clip(item.text), allowed_mentions=_users(item.mentions))
            elif isinstance(item, VoteRequest):
                view = discord.ui.View(timeout=None)
                for choice in VOTE_LABELS:
                    view.add_item(VoteButton(choice, item.turn_id))
                who = " ".join(f"<@{m}>" for m in item.voters)
                await delivery.channel(item.channel_id).send(
                    clip(f"Time ran out for {item.name}. {who}: what should the table do? "
                         "A majority decides."),
                    view=view, allowed_mentions=_users(item.voters))
            else:
                await send_reminder(bot, item)
        except Exception:
            log.exception("could not deliver %s", type(item).__name__)


def _users(ids: Sequence[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(m) for m in ids], everyone=False,
                                   roles=False)


async def send_reminder(bot: TabulaBot, reminder: Reminder) -> None:
    """By DM; when DMs are closed (or the member turned DM notices off), one mention in the
    channel of the table that has waited longest."""
    if reminder.by_dm:
        try:
            channel = await bot.create_dm(discord.Object(reminder.member_id))
            await channel.send(clip(reminder.text))
            return
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
    first = reminder.waiting[0]
    await bot.get_partial_messageable(first.channel_id).send(
        clip(f"<@{reminder.member_id}>: {reminder.text}"),
        allowed_mentions=_users((reminder.member_id,)))


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tabula:vote:(?P<choice>remove|wait|substitute):(?P<turn>[0-9]+)",
):
    def __init__(self, choice: str, turn_id: int) -> None:
        super().__init__(discord.ui.Button(label=VOTE_LABELS[choice],
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tabula:vote:{choice}:{turn_id}"))
        self.choice = choice
        self.turn_id = turn_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> VoteButton:
        return cls(match["choice"], int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            bot = bot_of(interaction)
            decided = await bot.scheduler.vote(self.turn_id, member_of(interaction),
                                               self.choice)
            await reply(interaction, f"Your vote: {VOTE_LABELS[self.choice]}.")
            await deliver(bot, decided)
        except Exception as exc:
            await report_error(interaction, exc)


class SeekButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tabula:seek:(?P<table>[0-9]+):(?P<seat>[0-9]+):(?P<old>[0-9]+):(?P<by>[0-9]+)",
):
    """An open advert for a seat: whoever clicks first takes it, while the seat still belongs
    to the member it was advertised for (the advert carries who posted it)."""

    def __init__(self, table_id: int, seat: int, old: int, by: int) -> None:
        super().__init__(discord.ui.Button(
            label="Join as substitute", style=discord.ButtonStyle.primary,
            custom_id=f"tabula:seek:{table_id}:{seat}:{old}:{by}"))
        self.table_id, self.seat, self.old, self.by = table_id, seat, old, by

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> SeekButton:
        return cls(int(match["table"]), int(match["seat"]), int(match["old"]), int(match["by"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            bot = bot_of(interaction)
            seats = await bot.tables.seats(self.table_id)
            if self.seat >= len(seats) or seats[self.seat].member_id != self.old:
                await reply(interaction, "That seat has been taken already.")
                return
            # The advert's author was checked when it was posted (creator, manager or the
            # seat's own player); the button can only come from that message.
            author = Member(self.by, "advert", is_admin=True)
            await substitute_and_tell(interaction, self.table_id, self.seat,
                                      member_of(interaction), author)
        except Exception as exc:
            await report_error(interaction, exc)


TIMING_ITEMS = (VoteButton, SeekButton)


async def substitute_and_tell(interaction: discord.Interaction[Any], table_id: int, seat: int,
                              newcomer: Member, by: Member) -> None:
    bot = bot_of(interaction)
    notice = await bot.scheduler.substitute(table_id, seat, newcomer, by)
    await reply(interaction, notice.public_text.split("\n")[0], ephemeral=True)
    table = await bot.tables.table_for(table_id)
    await Delivery(bot).post_move(table.channel_id, notice)


# -- /game pause|resume|substitute|seek (registered in the game group) ------------------------

async def pause(interaction: discord.Interaction[Any], reason: str) -> None:
    table = await table_here(interaction)
    text = await bot_of(interaction).scheduler.pause(table.id, member_of(interaction), reason)
    await reply(interaction, text, ephemeral=False)


async def resume(interaction: discord.Interaction[Any]) -> None:
    table = await table_here(interaction)
    text = await bot_of(interaction).scheduler.resume(table.id, member_of(interaction))
    await reply(interaction, text, ephemeral=False)


async def substitute(interaction: discord.Interaction[Any], seat: int,
                     member: discord.Member | discord.User) -> None:
    table = await table_here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await substitute_and_tell(interaction, table.id, seat - 1,
                              Member(member.id, member.display_name), member_of(interaction))


async def seek(interaction: discord.Interaction[Any], seat: int, role: discord.Role | None
               ) -> None:
    bot = bot_of(interaction)
    table = await table_here(interaction)
    asker = member_of(interaction)
    seats = await bot.tables.seats(table.id)
    if not 1 <= seat <= len(seats) or seats[seat - 1].member_id is None:
        await reply(interaction, f"Seats with a player are numbered 1 to {len(seats)}.")
        return
    held = seats[seat - 1]
    if asker.id not in (table.creator_id, held.member_id) and not asker.is_admin:
        await reply(interaction, "Only the table's creator, a server manager or the seat's "
                    "own player can look for a substitute.")
        return
    view = discord.ui.View(timeout=None)
    view.add_item(SeekButton(table.id, seat - 1, held.member_id or 0, asker.id))
    ping = f"{role.mention}: " if role is not None else ""
    await reply(interaction, f"{ping}A substitute is wanted for seat {seat} ({held.name}).",
                ephemeral=False, view=view,
                allowed_mentions=discord.AllowedMentions(roles=[role] if role else False))


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
        lines = [f"{len(waiting)} table(s) wait on you, oldest first:"]
        lines += [waiting_line(w) for w in waiting]
        await reply(interaction, clip("\n".join(lines)))

    @app_commands.command(name="settings", description="Your time zone, quiet hours, "
                          "holiday, reminders, DMs and previews (on every server)")
    @app_commands.describe(
        timezone="Your time zone, e.g. Europe/Paris",
        quiet_start="Quiet hours start (HH:MM, your time); no reminders then",
        quiet_end="Quiet hours end (HH:MM)",
        quiet_off="Turn quiet hours off",
        reminders="Reminder interval at tables without deadlines",
        holiday_days="Take this many days off from now (0 ends a holiday)",
        dm_notices="Reminders and notices by DM (else one mention in the channel)",
        preview="Show a preview before Confirm",
    )
    @app_commands.choices(reminders=[app_commands.Choice(name=n, value=v) for n, v in
                                     (("off", 0), ("every 6 h", 6), ("every 12 h", 12),
                                      ("every 24 h", 24))])
    async def settings(
        self, interaction: discord.Interaction[Any], timezone: str | None = None,
        quiet_start: str | None = None, quiet_end: str | None = None,
        quiet_off: bool = False, reminders: app_commands.Choice[int] | None = None,
        holiday_days: app_commands.Range[int, 0, 30] | None = None,
        dm_notices: bool | None = None, preview: bool | None = None,
    ) -> None:
        scheduler = bot_of(interaction).scheduler
        mine = await scheduler.settings(interaction.user.id)
        if timezone is not None:
            mine = replace(mine, tz=check_zone(timezone))
        if quiet_start is not None:
            mine = replace(mine, quiet_start=check_clock_time(quiet_start))
        if quiet_end is not None:
            mine = replace(mine, quiet_end=check_clock_time(quiet_end))
        if quiet_off:
            mine = replace(mine, quiet_start=None, quiet_end=None)
        if reminders is not None:
            mine = replace(mine, interval_hours=check_interval(reminders.value))
        if holiday_days is not None:
            now = scheduler.clock.now()
            mine = replace(mine, away_from=int(now.timestamp()) if holiday_days else None,
                           away_until=int((now + timedelta(days=holiday_days)).timestamp())
                           if holiday_days else None)
        if dm_notices is not None:
            mine = replace(mine, dm_notices=dm_notices)
        if preview is not None:
            mine = replace(mine, preview=preview)
        await scheduler.save_settings(mine)
        local = datetime.now(UTC).astimezone(mine.zone).strftime("%H:%M")
        await reply(interaction, f"Your settings (your time now {local}):\n{mine.describe()}")

    @settings.autocomplete("timezone")
    async def zone_autocomplete(self, interaction: discord.Interaction[Any], current: str
                                ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_names(current)]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timing(bot))


async def status_lines(bot: TabulaBot, table_id: int) -> str:
    """``/game status``: the pace and policy, and each waiting seat's deadline or bank."""
    scheduler = bot.scheduler
    chosen = await scheduler.timing(table_id)
    lines = [chosen.describe()]
    clock = await scheduler.store.table_clock(table_id)
    if clock is not None and clock.paused_at is not None:
        lines.append(f"Paused since <t:{clock.paused_at}:R>: {clock.pause_reason}")
    seats = await bot.tables.seats(table_id)
    turns = await scheduler.store.open_turns(table_id)
    banks = await scheduler.store.seat_clocks(table_id)
    for seat in seats:
        bits = []
        turn = turns.get(seat.position)
        if turn is not None and turn.due_at is not None:
            bits.append(f"deadline <t:{turn.due_at}:R>")
        if chosen.mode.value == "bank" and seat.position in banks:
            bits.append(f"bank {banks[seat.position].bank // 60} min")
        if seat.position in banks and banks[seat.position].absent:
            bits.append("absent (the computer plays)")
        if bits:
            lines.append(f"{seat.position + 1}. {seat.name}: " + ", ".join(bits))
    return "\n".join(lines)
