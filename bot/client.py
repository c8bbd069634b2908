"""The discord.py client: no privileged intents; ``setup_hook`` builds the services
(``bot.services``), the web pages when asked, the extensions and the commands, then starts the
catch-up after a restart (``bot.ui.restart``) and the scheduler's ticks. ``bot.app`` makes it
and runs it as a process; ``bot.sharding`` is the same bot on several shards."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import discord
from discord.ext import commands

from bot import gc_tuning
from bot.config import Settings, Sharding
from bot.heartbeat import Heartbeat
from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.rounds import Rounds
from bot.pace.clock import Clock, SystemClock
from bot.pace.scheduler import Scheduler
from bot.render_pool import RenderPool
from bot.services import Served, Services, build
from bot.shutdown import close_after, finish_in_flight
from bot.store.announcing import PendingReply
from bot.tables import Tables
from bot.tables.outbox import Outbox
from bot.ui.delivery import Delivery
from bot.ui.items import DYNAMIC_ITEMS
from bot.ui.respond import CommandTree
from bot.ui.restart import catch_up, catch_up_results
from bot.ui.round_deadlines import RoundKeeper
from bot.web.context import Site
from bot.web.links import Links
from bot.web.renders import web_pool, worker_count
from bot.web.server import WebServer, signer_for, start_web

log = logging.getLogger(__name__)

GRACE_SECONDS = 5.0  # how long in-flight work may run on after a stop signal
EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.info", "bot.cogs.league",
              "bot.cogs.league_admin", "bot.cogs.timing")
TICK_SECONDS = 5.0


class TabulaBot(commands.Bot):
    def __init__(self, settings: Settings, render_workers: int = 2,
                 guild_ready_timeout: float = 2.0, grace: float = GRACE_SECONDS) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; nothing privileged
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            guild_ready_timeout=guild_ready_timeout, tree_cls=CommandTree,
            **self.shard_options(settings.sharding),
        )
        self.settings, self.render_workers, self.grace = settings, render_workers, grace
        self.clock: Clock = SystemClock()  # tests put a fake clock here before setup_hook
        self.services: Services | None = None  # built in setup_hook
        self.delivery = Delivery(self, self)
        self.rounds_kept = RoundKeeper(self, self, self.delivery, settings.sharding.owns)
        self.background: set[asyncio.Task[None]] = set()
        self.draining = False
        self._closing: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()  # the scheduler's loop ends when it is set
        self.heartbeat: Heartbeat | None = None
        self.web: WebServer | None = None  # the web pages, with TABULA_WEB
        self._web_pool: ProcessPoolExecutor | None = None  # their replays and images

    @staticmethod
    def shard_options(sharding: Sharding) -> dict[str, Any]:
        return {}  # one plain gateway connection

    # Built in setup_hook; read through the bot by the cogs and the Discord layer.
    tables = Served[Tables]()
    scheduler = Served[Scheduler]()
    leagues = Served[Leagues]()
    rounds = Served[Rounds]()
    referee = Served[Referee]()
    renderer = Served[RenderPool]()
    outbox = Served[Outbox]()

    async def setup_hook(self) -> None:
        self.services = services = await build(self.settings, self.clock, self.render_workers,
                                               self.delivery)
        # Answers a previous run of this process owed, read before any interaction of this run.
        owed = await services.outbox.owed()
        self.delivery.links = Links(services.store, self.settings.web, self.clock)
        if self.settings.web.listen is not None:
            # A long game's replay is seconds of CPU: never on the loop's own process.
            workers = worker_count(beside_bot=True)
            self._web_pool = web_pool(workers) if self.render_workers > 0 else None
            self.web = await start_web(
                Site(services.store, signer_for(self.settings.web), clock=self.clock,
                     gateway_down=self.gateway_problem, gateway_latency=lambda: self.latency,
                     executor=self._web_pool, workers=workers), self.settings.web.listen)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for name in EXTENSIONS:
            await self.load_extension(name)
        guild = discord.Object(id=self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        log.info("synced %d commands", len(await self.tree.sync(guild=guild)))
        self._resuming = self.spawn(self._catch_up_then_schedule(owed))
        self.spawn(catch_up_results(self, self.settings.sharding.owns))
        if self.settings.heartbeat is not None:
            self.heartbeat = Heartbeat(self.settings.heartbeat, self.clock)
            self.spawn(self.heartbeat.run(self.gateway_connected, self._stopping))

    def gateway_connected(self) -> bool:
        """Ready, and the gateway's connection open (the heartbeat beats only then)."""
        return self.is_ready() and self.ws is not None and self.ws.open

    async def on_ready(self) -> None:
        await self._beat()

    on_resumed = on_ready

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Any command or button: a member whose DMs Discord refused may try DMs again."""
        try:
            await self.delivery.acted(interaction.user.id)
        except Exception:
            log.exception("could not clear a refused DM flag")

    async def _beat(self) -> None:
        """A beat as soon as the gateway is (back) up, not only at the next period."""
        if self.heartbeat is not None and self.gateway_connected():
            await asyncio.to_thread(self.heartbeat.beat)

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a coroutine in the background, keeping a reference and logging its failure;
        closing the bot lets it finish (within the grace period)."""
        task = asyncio.create_task(coro)
        self.background.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def _catch_up_then_schedule(self, owed: list[PendingReply]) -> None:
        await self.wait_until_ready()
        gc_tuning.settle()
        await catch_up(self, self, self.rounds_kept, owed, self.settings.sharding.owns)

        # Deadlines that fell due while the bot was down fire first; a tick under way
        # finishes on a stop.
        await self.scheduler.run(self.rounds_kept.told, TICK_SECONDS, self._stopping)

    def stop_scheduling(self) -> None:
        """End the deadline loop after its tick under way (shutdown does this first)."""
        self._stopping.set()

    async def tick(self) -> None:
        """One scheduler tick, delivered (tests call it after moving a fake clock)."""
        await self.rounds_kept.told(await self.scheduler.tick())

    def gateway_problem(self) -> str | None:
        """Why the gateway cannot take interactions now (``/healthz``), or None."""
        if self.draining or self.is_closed():
            return "shutting down"
        if not self.is_ready():
            return "not ready yet"
        if self.ws is None or not self.ws.open:
            return "disconnected, reconnecting"
        return None

    def is_closed(self) -> bool:
        # While draining, discord.py's connect loop must not reconnect the closed gateway.
        return self.draining or super().is_closed()

    async def close(self) -> None:
        """Stop taking interactions, let in-flight work finish (at most ``grace`` seconds,
        then it is cancelled), close the connection, the pools and the store."""
        if self._closing is None:
            self._closing = asyncio.create_task(self._shut_down())
        await asyncio.shield(self._closing)

    async def close_gateway(self) -> None:
        if self.ws is not None and self.ws.open:
            await self.ws.close(code=1000)

    async def _shut_down(self) -> None:
        self.draining = True
        self.stop_scheduling()
        if self.heartbeat is not None:
            self.heartbeat.stop()
        # No gateway, no new interactions; REST stays open for the replies under way.
        await self.close_gateway()
        if self._resuming is not None and not self.is_ready():
            self._resuming.cancel()  # still waiting for a ready that will not come
        await finish_in_flight(self, self.grace)
        await super().close()
        services, self.services = self.services, None
        await close_after(self.web, self._web_pool, services)
