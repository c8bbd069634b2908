"""League rounds kept on time from the bot's side: rounds past their deadline settled (their
unfinished tables ended by the rule, the next round opened where the organisers asked for it),
and rounds a crash left half open finished or rolled back after a restart."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime

import discord

from bot.leagues.checkin import CheckIns
from bot.leagues.report import safe_name
from bot.leagues.rounds import RoundPlan
from bot.pace.notices import TableMessage
from bot.pace.scheduler import Delivered
from bot.ui.async_play import deliver
from bot.ui.delivery import Delivery
from bot.ui.replies import give_round_owed
from bot.ui.respond import Services
from bot.ui.rounds import ask_check_in, open_round, tell_not_opened
from bot.values import TableError

log = logging.getLogger(__name__)


class RoundKeeper:
    def __init__(self, client: discord.Client, services: Services, delivery: Delivery,
                 owns: Callable[[int | None], bool]) -> None:
        self.client, self.services, self.delivery = client, services, delivery
        self.owns = owns  # the servers this process looks after (its shards')

    def now(self) -> datetime:
        """League time: the scheduler's clock."""
        return self.services.scheduler.clock.now()

    async def told(self, items: Sequence[Delivered]) -> None:
        """A scheduler tick's notices delivered, then the rounds it brought past their
        deadline settled."""
        await deliver(self.services.outbox, self.delivery, items)
        await self.settle()

    def _channel(self, channel_id: int | None) -> object:
        return self.client.get_channel(channel_id or 0)

    async def settle(self) -> None:
        """League rounds near their deadline remind the members their tables wait for (a day
        and an hour before); past it, their unfinished tables end by the rule, and the next
        round opens where the organisers asked for it."""
        try:
            reminders = await self.services.referee.remind_due(self.now())
        except Exception:
            log.exception("could not remind league rounds of their deadline")
            reminders = []
        for reminder in reminders:
            try:  # each on its own: one thread the bot may not post in stops no other
                await self.delivery.remind_round(reminder)
            except Exception:
                log.exception("could not remind channel %s of its round's deadline",
                              reminder.channel_id)
        try:
            settled = await self.services.referee.settle_due(self.now())
        except Exception:
            log.exception("could not settle league rounds past their deadline")
            return
        for notice in settled.notices:
            try:
                await self.services.outbox.publish(notice)
            except Exception:
                log.exception("could not tell table %s of its round's deadline",
                              notice.table_id)
        for league, text in settled.summaries:
            try:  # the league's channel hears who forfeits and who shares which place
                if league.channel_id is not None:
                    await self.delivery.post_text(TableMessage(league.channel_id, text))
            except Exception:
                log.exception("could not tell league %s of its round's deadline", league.id)
        for league, why in settled.refused:
            log.info("no next round of league %s: %s", league.id, why)
            try:
                where = self._channel(league.channel_id)
                if isinstance(where, discord.TextChannel):
                    role = await self.services.leagues.store.league_admin_role(league.guild_id)
                    await tell_not_opened(self.delivery, league, why, where, role)
            except Exception:
                log.exception("could not tell league %s why its round did not open",
                              league.id)
        for plan in settled.plans:
            try:
                parent = self._channel(plan.league.channel_id)
                if not isinstance(parent, discord.TextChannel):
                    log.warning("league %s: its channel is gone; round %s has no threads",
                                plan.league.id, plan.round.number)
                    continue
                text = await open_round(self.services, self.delivery, plan, parent)
                await parent.send(text, allowed_mentions=discord.AllowedMentions.none())
                await ask_check_in(self.delivery, plan, parent, CheckIns(self.services.leagues))
            except Exception:
                log.exception("could not open round %s of league %s", plan.round.number,
                              plan.league.id)

    async def finish_opening(self) -> None:
        """League rounds a crash left half open: the tables not yet made are made, the
        members not yet seated seated, every table started, and the league's channel told;
        a round that cannot finish is rolled back (its tables end, it closes)."""
        for plan in await self.services.rounds.opening():
            if not self.owns(plan.league.guild_id):
                continue
            parent = self._channel(plan.league.channel_id)
            try:
                if not isinstance(parent, discord.TextChannel):
                    raise TableError("the league's channel is gone")
                text = await open_round(self.services, self.delivery, plan, parent)
            except Exception:
                log.exception("could not finish opening round %s of league %s; rolling back",
                              plan.round.number, plan.league.id)
                await self._roll_back(plan, parent)
                continue
            try:  # the round is open now: a failure to tell it is no reason to undo it
                await self._tell(plan, parent, text)
                await ask_check_in(self.delivery, plan, parent, CheckIns(self.services.leagues))
            except Exception:
                log.exception("could not tell of round %s of league %s", plan.round.number,
                              plan.league.id)

    async def _tell(self, plan: RoundPlan, parent: object, text: str) -> None:
        """The organiser's owed answer, or (its token expired) the league's channel."""
        if await give_round_owed(self.client, self.services.tables.store, plan.round.id,
                                 self.services.scheduler.now(), text):
            return
        if isinstance(parent, discord.TextChannel):
            await self.delivery.pacer.wait()
            await parent.send(text, allowed_mentions=discord.AllowedMentions.none())

    async def _roll_back(self, plan: RoundPlan, parent: object) -> None:
        try:
            for notice in await self.services.rounds.roll_back(plan.round):
                await self.services.outbox.publish(notice)
            await self._tell(
                plan, parent,
                f"Round {plan.round.number} of **{safe_name(plan.league.name)}** could not "
                "finish opening after a restart: its tables are closed without a result. "
                "Organisers: start it again with `/league-admin round`.")
        except Exception:
            log.exception("could not roll back round %s of league %s", plan.round.number,
                          plan.league.id)
