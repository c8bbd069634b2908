"""The one place that builds the discord.py client.

``create_bot(settings)`` returns a ``TabulaBot``: no privileged intents, extensions loaded and
commands synced in ``setup_hook`` (to the dev guild when set, else globally), the store opened
and checked, restart-proof buttons registered, and computer seats due after a restart resumed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.leagues import Leagues
from bot.pace.clock import Clock, SystemClock
from bot.pace.scheduler import Delivered, Scheduler
from bot.render_pool import RenderPool
from bot.store import SqliteStore
from bot.tables import Tables
from bot.ui.delivery import Delivery
from bot.ui.items import DYNAMIC_ITEMS
from bot.ui.pace import deliver
from bot.ui.respond import report_error

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.info", "bot.cogs.league",
              "bot.cogs.timing")
TICK_SECONDS = 5.0


class TabulaTree(app_commands.CommandTree["TabulaBot"]):
    """Every slash command's errors go through the one handler."""

    async def on_error(
        self, interaction: discord.Interaction[TabulaBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class TabulaBot(commands.Bot):
    def __init__(
        self, settings: Settings, render_workers: int = 2, guild_ready_timeout: float = 2.0
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; nothing privileged
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            guild_ready_timeout=guild_ready_timeout,
            tree_cls=TabulaTree,
        )
        self.settings = settings
        self.render_workers = render_workers
        self._store: SqliteStore | None = None
        self._tables: Tables | None = None
        self._leagues: Leagues | None = None
        self._scheduler: Scheduler | None = None
        self.clock: Clock = SystemClock()  # tests put a fake clock here before setup_hook
        self._renderer: RenderPool | None = None
        self._thinker: ProcessPoolExecutor | None = None
        self.delivery = Delivery(self, self)
        self.background: set[asyncio.Task[None]] = set()

    @property
    def tables(self) -> Tables:
        assert self._tables is not None, "tables are ready after setup_hook"
        return self._tables

    @property
    def scheduler(self) -> Scheduler:
        assert self._scheduler is not None, "the scheduler is ready after setup_hook"
        return self._scheduler

    @property
    def leagues(self) -> Leagues:
        assert self._leagues is not None, "leagues are ready after setup_hook"
        return self._leagues

    @property
    def renderer(self) -> RenderPool:
        assert self._renderer is not None, "the renderer is ready after setup_hook"
        return self._renderer

    async def setup_hook(self) -> None:
        self._store = await SqliteStore.open(self.settings.db_path)
        if self.render_workers > 0:
            # Computer players that search get a process of their own: a search holds the
            # CPU for up to two seconds, which neither the loop nor the renders should feel.
            self._thinker = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        self._tables = Tables(self._store, thinker=self._thinker)
        self._leagues = Leagues(self._store)
        self._scheduler = Scheduler(self._tables, self.clock)
        self._renderer = RenderPool(self.render_workers, processes=self.render_workers > 0)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.dev_guild:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        self.spawn(self._catch_up_then_schedule())

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine in the background, keeping a reference and logging its failure."""
        task = asyncio.create_task(coro)
        self.background.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def _catch_up_then_schedule(self) -> None:
        await self.wait_until_ready()
        await self._catch_up()
        await self._run_scheduler()

    async def _catch_up(self) -> None:
        """After a restart: announce what was committed but never told (a crash came between
        the commit and the post), then let computer seats that were due move."""
        for table in await self.tables.unannounced():
            try:
                notice = await self.tables.catch_up(table.id)
                if notice is not None:
                    await self.delivery.post_move(notice)
            except Exception:
                log.exception("could not announce table %s after a restart", table.id)
        for table in await self.tables.store.tables_with_status("playing"):
            try:
                notice = await self.tables.run_computers(table.id)
                if notice is not None:
                    await self.delivery.post_move(notice)
            except Exception:
                log.exception("could not resume computer seats of table %s", table.id)

    async def _run_scheduler(self) -> None:
        """Deadlines and reminders, forever: those that fell due while the bot was down
        fire first."""

        async def send(items: Sequence[Delivered]) -> None:
            await deliver(self.delivery, items)

        await self.scheduler.run(send, TICK_SECONDS)

    async def tick(self) -> None:
        """One scheduler tick, delivered (tests call it after moving a fake clock)."""
        await deliver(self.delivery, await self.scheduler.tick())

    async def close(self) -> None:
        for task in list(self.background):
            task.cancel()
        await super().close()
        if self._renderer is not None:
            self._renderer.close()
        if self._thinker is not None:
            self._thinker.shutdown(wait=False, cancel_futures=True)
        if self._store is not None:
            await self._store.close()
            self._store = None


def point_at(settings: Settings) -> None:
    """Use a REST or gateway proxy (or a local test server) instead of Discord's hosts."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def create_bot(
    settings: Settings, render_workers: int = 2, guild_ready_timeout: float = 2.0
) -> TabulaBot:
    """The bot, pointed at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` when they are set.

    ``render_workers=0`` renders in a thread instead of worker processes (tests)."""
    point_at(settings)
    return TabulaBot(settings, render_workers, guild_ready_timeout)


def run_bot(settings: Settings) -> int:
    bot = create_bot(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token; check DISCORD_TOKEN.")
        return 2
    return 0
