"""A league round's tables opened in threads of the league's channel, paced so a big round
stays within Discord's rate limit; by an organiser's command or by the league's schedule."""

from __future__ import annotations

import asyncio
from datetime import datetime

import discord

from bot.leagues.checkin import CheckIns
from bot.leagues.report import safe_name
from bot.leagues.rounds import RoundPlan
from bot.store import LeagueRecord
from bot.ui.components import checkin_view
from bot.ui.delivery import Delivery
from bot.ui.respond import Services

# Threads a round opens at once before pacing the rest: each table costs a few requests
# (thread, greeting, board, DMs), and Discord answers a burst past its global limit with 429s.
THREAD_BURST = 4
THREAD_GAP = 1.0  # seconds between further threads


def thread_delay(index: int) -> float:
    """Seconds to wait before opening the thread of table ``index`` (from 0) of a round."""
    return THREAD_GAP if index >= THREAD_BURST else 0.0


async def _thread_of(parent: discord.TextChannel, thread_id: int) -> discord.Thread:
    """The thread a table of the round was given before a restart."""
    found = parent.guild.get_thread(thread_id) or await parent.guild.fetch_channel(thread_id)
    if not isinstance(found, discord.Thread):
        raise TypeError(f"channel {thread_id} of a round's table is not a thread")
    return found


async def open_round(bot: Services, delivery: Delivery, plan: RoundPlan,
                     parent: discord.TextChannel) -> str:
    """Open each table of ``plan`` in a thread of ``parent``; the round's summary. Harmless
    twice: a round a crash left half open is finished by calling it again (a table that has
    its thread or has started keeps them)."""
    links = []
    slots = await bot.rounds.slots(plan)
    for i, members in enumerate(plan.tables):
        had = slots[i].channel_id
        if had is None:
            await asyncio.sleep(thread_delay(i))
            await delivery.pacer.wait()
            thread = await parent.create_thread(
                name=f"{plan.league.name[:60]} round {plan.round.number} table {i + 1}",
                type=discord.ChannelType.public_thread, auto_archive_duration=10080)
        else:
            thread = await _thread_of(parent, had)
        table_id, notice = await bot.rounds.open_slot(plan, i, thread.id, parent.guild.id)
        if notice is None:
            # It started before the crash: only what it never announced is told.
            notice = await bot.tables.catch_up(table_id)
        else:
            who = ", ".join(f"<@{m.id}>" for m in members)
            await delivery.pacer.wait()
            await thread.send(
                f"Round {plan.round.number} table {i + 1}: {who}. Good luck!"
                + _round_ends(plan),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(m.id) for m in members]))
        if notice is not None:
            await bot.outbox.publish(notice)
        links.append(f"- table {i + 1}: {thread.mention}, {len(members)} members"
                     + (f" + {plan.computers[i]} computer" if plan.computers[i] else ""))
    out = "".join(f", {safe_name(m.name)}" for m in plan.sitting_out)
    absent = "".join(f", {safe_name(m.name)}" for m in plan.no_shows)
    until = ""
    if plan.round.deadline:
        when = datetime.fromisoformat(plan.round.deadline)
        until = (f"\nDeadline: <t:{int(when.timestamp())}:f>; then unfinished tables end: the "
                 "seats they wait for forfeit, the others share first place."
                 + (" The next round then opens by itself." if plan.round.auto_next else ""))
    return (f"Round {plan.round.number} of **{safe_name(plan.league.name)}**:\n"
            + "\n".join(links) + (f"\nSitting out this round: {out[2:]}" if out else "")
            + (f"\nDid not check in: {absent[2:]}" if absent else "") + until)


def _round_ends(plan: RoundPlan) -> str:
    """The round's deadline, for each table's greeting."""
    if not plan.round.deadline:
        return ""
    at = int(datetime.fromisoformat(plan.round.deadline).timestamp())
    return (f"\nThe round ends <t:{at}:f> (<t:{at}:R>): a table unfinished then ends, the "
            "seats it waits for forfeit.")


async def ask_check_in(delivery: Delivery, plan: RoundPlan, parent: discord.abc.Messageable,
                       checkins: CheckIns) -> None:
    """A round that opens the next by itself, in a league with check-in: the next round's
    check-in window is posted now; it closes when the next round opens, at this one's
    deadline (only members who check in are paired then)."""
    if not (plan.round.auto_next and plan.league.checkin and plan.round.deadline):
        return
    state = await checkins.state(plan.league.id)
    await delivery.pacer.wait()
    await parent.send(state.text(), view=checkin_view(plan.league.id),
                      allowed_mentions=discord.AllowedMentions.none())


async def tell_not_opened(delivery: Delivery, league: LeagueRecord, why: str,
                          parent: discord.abc.Messageable, role_id: int | None) -> None:
    """The next automatic round could not open: said in the league's channel, to the
    organisers (the league-admin role, when the server has one)."""
    ping = f"<@&{role_id}> " if role_id is not None else ""
    await delivery.pacer.wait()
    await parent.send(
        f"{ping}The next round of **{safe_name(league.name)}** could not open: {why} "
        "Organisers: start it with `/league-admin round` when it can.",
        allowed_mentions=discord.AllowedMentions(
            roles=[discord.Object(role_id)] if role_id is not None else False,
            users=False, everyone=False))
