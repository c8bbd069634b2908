"""After a restart: what was committed but never told reaches its channel, answers the last
run owed are given, rounds a crash left half open are finished, computer seats that were due
move, and league results a crash kept from being stored are stored. Each table is taken up by
one process (``owns``: the servers of its shards)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.store.announcing import PendingReply
from bot.ui.respond import Services
from bot.ui.round_deadlines import RoundKeeper

log = logging.getLogger(__name__)


async def catch_up(client: discord.Client, services: Services, rounds: RoundKeeper,
                   owed: list[PendingReply], owns: Callable[[int | None], bool]) -> None:
    if owed:
        log.info("answering %d moves left thinking before the restart", len(owed))
        await services.outbox.answer_owed(owed)
    await services.outbox.catch_up(owns)
    await rounds.finish_opening()
    await services.outbox.resume_computers(owns)


async def catch_up_results(services: Services, owns: Callable[[int | None], bool]) -> None:
    """League games that ended without their result stored (a crash in between)."""
    count = await services.leagues.recorder.catch_up(owns)
    if count:
        log.info("stored %d league results missed before the restart", count)
