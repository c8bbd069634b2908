"""Flows of asynchronous play: delivering what the scheduler fires, pausing and resuming a
table, handing a seat to a substitute (by command or by an advert's button), and the vote on
a seat out of time."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.pace.notices import Dashboard, MoveNotice, TableMessage, VoteEnded, VoteRequest
from bot.pace.scheduler import Delivered
from bot.pace.votes import VoteOver
from bot.tables.outbox import Outbox
from bot.text import clip, escape
from bot.ui.components import VOTE_LABELS, seek_view
from bot.ui.delivery import Delivery, delivery_of
from bot.ui.respond import bot_of, defer, member_of, refuse, reply, roles_of, table_here
from bot.values import Member

log = logging.getLogger(__name__)


async def deliver(outbox: Outbox, delivery: Delivery, items: Sequence[Delivered]) -> None:
    """Post what the scheduler fired: each item on its own, one failure never stops the rest
    (the move is committed, the reminder claimed, whatever the post does)."""
    for item in items:
        try:
            if isinstance(item, MoveNotice):
                await outbox.publish(item.notice)
            elif isinstance(item, TableMessage):
                await delivery.post_text(item)
            elif isinstance(item, VoteRequest):
                await delivery.post_vote(item)
            elif isinstance(item, VoteEnded):
                await delivery.end_vote(item)
            elif isinstance(item, Dashboard):
                await delivery.dashboard(item)
            else:
                await delivery.remind(item)
        except Exception:
            log.exception("could not deliver %s", type(item).__name__)


async def pause(interaction: discord.Interaction[Any], reason: str) -> None:
    table = await table_here(interaction)
    text = await bot_of(interaction).scheduler.pause(table.id, member_of(interaction), reason)
    await reply(interaction, text, ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none())


async def resume(interaction: discord.Interaction[Any]) -> None:
    table = await table_here(interaction)
    text = await bot_of(interaction).scheduler.resume(table.id, member_of(interaction))
    await reply(interaction, text, ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none())


async def back(interaction: discord.Interaction[Any]) -> None:
    """``/game back``: the caller's holiday under way ends and their absent seat here is
    theirs again, said in the channel."""
    table = await table_here(interaction)
    member = member_of(interaction)
    absent, away = await bot_of(interaction).scheduler.come_back(table.id, member.id)
    if not absent and not away:
        await refuse(interaction, "You have no absent seat at this table and no holiday under "
                     "way; nothing to do.")
        return
    said = [f"Welcome back, {escape(member.name)}:"]
    if away:
        said.append("your holiday is over, and your deadlines count again from the time you "
                    "had left." if not absent else "your holiday is over;")
    if absent:
        said.append("your seat is yours again and your turn has its full time from now.")
    await reply(interaction, " ".join(said), ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none())


async def seen(interaction: discord.Interaction[Any], table_id: int) -> None:
    """The member acted at the table (``/hand``, a button, a move): an absence of theirs ends
    at once, told in the channel."""
    member = member_of(interaction)
    if await bot_of(interaction).scheduler.present(table_id, member.id):
        table = await bot_of(interaction).tables.live.record(table_id)
        await delivery_of(interaction).post_text(TableMessage(
            table.channel_id, f"{escape(member.name)} is back: their seat is theirs again."))


async def extend(interaction: discord.Interaction[Any], by: str | None) -> None:
    """``/game extend``: the table's creator, a server manager, or at a league table one of the
    league's organisers (the league-admin role)."""
    bot = bot_of(interaction)
    table = await table_here(interaction)
    member = member_of(interaction)
    if table.league_id is not None and table.guild_id is not None and not member.is_admin:
        user = interaction.user
        roles = [r.id for r in user.roles] if isinstance(user, discord.Member) else []
        if await bot.leagues.may_run(table.guild_id, member, roles):
            member = replace(member, is_admin=True)
    text = await bot.scheduler.extend(table.id, member, by)
    await reply(interaction, text, ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none())


async def substitute(interaction: discord.Interaction[Any], table_id: int, seat: int,
                     newcomer: Member, by: Member, *, roles: Sequence[int] = (),
                     anyone: bool = False, no_fault: bool = False) -> None:
    """Hand the seat over (at a league table, as the league's referee allows), then post the
    change in the channel and DM the newcomer their private view at once."""
    await defer(interaction)
    bot = bot_of(interaction)
    league = (await bot.tables.table_for(table_id)).league_id is not None
    notice = await bot.referee.substitute(table_id, seat, newcomer, by,
                                          bot.scheduler.substitute, roles=roles, anyone=anyone,
                                          no_fault=no_fault)
    how = ("; with no fault, the member replaced is not charged" if no_fault and league
           else "; `no_fault` only matters at league tables" if no_fault else "")
    await reply(interaction, f"Seat {seat + 1} now belongs to {escape(newcomer.name[:40])}"
                f"{how}.", allowed_mentions=discord.AllowedMentions.none())
    await bot.outbox.publish(notice)


async def seek(interaction: discord.Interaction[Any], seat: int, role: discord.Role | None
               ) -> None:
    """Post a Join-as-substitute button for a seat (creator, manager or the seat's own)."""
    bot = bot_of(interaction)
    table = await table_here(interaction)
    asker = member_of(interaction)
    seats = await bot.tables.seats(table.id)
    if not 1 <= seat <= len(seats) or seats[seat - 1].member_id is None:
        await refuse(interaction, f"Seats with a player are numbered 1 to {len(seats)}.")
        return
    held = seats[seat - 1]
    if table.league_id is not None:
        assert interaction.guild_id is not None
        if not await bot.leagues.may_run(interaction.guild_id, asker, roles_of(interaction)):
            await refuse(interaction, "At a league table only an organiser looks for a "
                         "substitute (who must be signed up to the league).")
            return
    elif asker.id not in (table.creator_id, held.member_id) and not asker.is_admin:
        await refuse(interaction, "Only the table's creator, a server manager or the seat's "
                     "own player can look for a substitute.")
        return
    # Without a role, the one the server's managers named in /server-settings.
    role_id = role.id if role is not None else (await bot.scheduler.server(
        interaction.guild_id)).substitute_role
    ping = f"<@&{role_id}>: " if role_id is not None else ""
    await reply(interaction,
                f"{ping}A substitute is wanted for seat {seat} ({escape(held.name)}).",
                ephemeral=False, view=seek_view(table.id, seat - 1, held.member_id or 0,
                                                asker.id),
                allowed_mentions=discord.AllowedMentions(
                    roles=[discord.Object(role_id)] if role_id is not None else False,
                    users=False))


async def take_seat(interaction: discord.Interaction[Any], table_id: int, seat: int, old: int,
                    by: int) -> None:
    """The advert's button: whoever clicks first takes the seat, while it still belongs to
    the member it was advertised for. The advert's author was checked when it was posted;
    the button can only come from that message, so it acts with the author's say-so (at a
    league table, the clicker must be signed up to the league)."""
    seats = await bot_of(interaction).tables.seats(table_id)
    if seat >= len(seats) or seats[seat].member_id != old:
        await refuse(interaction, "That seat has been taken already.")
        return
    await substitute(interaction, table_id, seat, member_of(interaction),
                     Member(by, "advert", is_admin=True))


async def vote(interaction: discord.Interaction[Any], turn_id: int, round_: int, choice: str
               ) -> None:
    bot = bot_of(interaction)
    delivery = delivery_of(interaction)
    clicked = interaction.message
    if clicked is not None:
        delivery.vote_posted(turn_id, round_, clicked.id)
    try:
        decided = await bot.scheduler.vote(turn_id, round_, member_of(interaction), choice)
    except VoteOver as over:
        await refuse(interaction, str(over))
        if clicked is not None and clicked.components:
            # A vote decided while this process did not know its message: no buttons now.
            await clicked.edit(content=clip(f"{clicked.content}\nThis vote is over."),
                               view=None, allowed_mentions=discord.AllowedMentions.none())
        return
    await reply(interaction, f"Your vote: {VOTE_LABELS[choice]}.")
    await deliver(bot_of(interaction).outbox, delivery, decided)
