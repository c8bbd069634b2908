"""The mover's answer, owed until given: a move deferred with "thinking…" keeps its
interaction token (valid 15 minutes) in the store until the answer went out, so a bot that
died between the commit and the answer still gives it after a restart."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.store import Store
from bot.ui.respond import bot_of

log = logging.getLogger(__name__)

TOKEN_SECONDS = 15 * 60  # how long Discord accepts an interaction's token
MARGIN_SECONDS = 60  # a token this close to its end is not worth a try
ORIGINAL: Any = "@original"  # the deferred answer, where a message id would go


async def owe(interaction: discord.Interaction[Any], table_id: int) -> None:
    bot = bot_of(interaction)
    await bot.outbox.owe(str(interaction.id), table_id, str(interaction.application_id),
                         interaction.token, bot.scheduler.now() + TOKEN_SECONDS - MARGIN_SECONDS)


async def given(interaction: discord.Interaction[Any]) -> None:
    await bot_of(interaction).outbox.given(str(interaction.id))


async def owe_round(interaction: discord.Interaction[Any], round_id: int) -> None:
    """An organiser's ``/league-admin round``: its answer is owed until the round has opened,
    so a restart that finishes opening it answers in place of "thinking…"."""
    bot = bot_of(interaction)
    await bot.tables.store.owe_round_reply(
        round_id, str(interaction.application_id), interaction.token,
        bot.scheduler.now() + TOKEN_SECONDS - MARGIN_SECONDS)


async def give_round_owed(client: discord.Client, store: Store, round_id: int, now: int,
                          text: str) -> bool:
    """After a restart: the answer owed for the round, if its token still holds; whether it
    went out (if not, the league's channel is told instead)."""
    owed = await store.round_reply(round_id, now)
    told = False
    if owed is not None:
        webhook = discord.Webhook.partial(int(owed[0]), owed[1], client=client)
        try:
            await webhook.edit_message(ORIGINAL, content=text,
                                       allowed_mentions=discord.AllowedMentions.none())
            told = True
        except discord.HTTPException as exc:
            log.info("could not finish the answer for round %s: %s", round_id, exc)
    await store.drop_round_reply(round_id)
    return told
