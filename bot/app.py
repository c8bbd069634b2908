"""The one place that builds the discord.py client.

``create_bot(settings)`` returns a ``TabulaBot``: no privileged intents, extensions loaded and
commands synced in ``setup_hook`` (to the dev guild when set, else globally), the store opened
and checked, restart-proof buttons registered, and computer seats due after a restart resumed.
``run_bot(settings)`` runs it until SIGTERM or SIGINT and then closes it cleanly.

With ``TABULA_SHARD_COUNT`` the bot is discord.py's ``AutoShardedBot`` (all shards, or the
``TABULA_SHARD_IDS`` of this process); several such processes share one PostgreSQL database.
The work done once at start (announcements missed in a crash, computer seats due, league
results not stored) is limited to the servers of this process's shards, so two processes never
both take it up; DMs arrive on shard 0 and their tables are served from the database wherever
they arrive.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import sqlite3
import sys
from collections.abc import Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import gc_tuning
from bot.config import Settings, Sharding
from bot.heartbeat import Heartbeat
from bot.leagues import Leagues
from bot.leagues.referee import Referee
from bot.leagues.report import safe_name
from bot.leagues.rounds import RoundPlan, Rounds
from bot.pace.clock import Clock, SystemClock, epoch
from bot.pace.scheduler import Delivered, Scheduler
from bot.render_pool import RenderPool
from bot.store import Store, StoreError, open_store, redacted
from bot.store.announcing import PendingReply
from bot.store.factory import check_database
from bot.tables import Tables
from bot.ui.delivery import Delivery
from bot.ui.items import DYNAMIC_ITEMS
from bot.ui.pace import deliver
from bot.ui.replies import give_owed, give_round_owed
from bot.ui.respond import report_error
from bot.ui.rounds import ask_check_in, open_round, tell_not_opened
from bot.values import TableError
from bot.web.context import Site
from bot.web.links import Links
from bot.web.server import WebServer, signer_for

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL before the loop gets a turn
GRACE_SECONDS = 5.0  # how long in-flight work may run on after a stop signal
EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.info", "bot.cogs.league",
              "bot.cogs.league_admin", "bot.cogs.timing")
TICK_SECONDS = 5.0


class TabulaTree(app_commands.CommandTree["TabulaBot"]):
    """Every slash command's errors go through the one handler."""

    async def on_error(
        self, interaction: discord.Interaction[TabulaBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class TabulaBot(commands.Bot):
    def __init__(
        self, settings: Settings, render_workers: int = 2, guild_ready_timeout: float = 2.0,
        grace: float = GRACE_SECONDS,
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
            **self.shard_options(settings.sharding),
        )
        self.settings = settings
        self.render_workers = render_workers
        self._store: Store | None = None
        self._tables: Tables | None = None
        self._leagues: Leagues | None = None
        self._rounds: Rounds | None = None
        self._referee: Referee | None = None
        self._scheduler: Scheduler | None = None
        self.clock: Clock = SystemClock()  # tests put a fake clock here before setup_hook
        self._renderer: RenderPool | None = None
        self._thinker: ProcessPoolExecutor | None = None
        self.delivery = Delivery(self, self, settings.sharding.name, lambda: epoch(self.clock))
        self.background: set[asyncio.Task[None]] = set()
        self.grace = grace
        self.draining = False
        self._closing: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None
        self._owed: list[PendingReply] = []
        self._stopping = asyncio.Event()  # the scheduler's loop ends when it is set
        self.heartbeat: Heartbeat | None = None
        self.web: WebServer | None = None  # the web pages, with TABULA_WEB
        self._web_pool: ProcessPoolExecutor | None = None  # their replays and images

    @staticmethod
    def shard_options(sharding: Sharding) -> dict[str, Any]:
        return {}  # one plain gateway connection

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
    def rounds(self) -> Rounds:
        assert self._rounds is not None, "rounds are ready after setup_hook"
        return self._rounds

    @property
    def referee(self) -> Referee:
        assert self._referee is not None, "the referee is ready after setup_hook"
        return self._referee

    @property
    def renderer(self) -> RenderPool:
        assert self._renderer is not None, "the renderer is ready after setup_hook"
        return self._renderer

    async def setup_hook(self) -> None:
        self._store = await open_store(self.settings.db_path)
        if self.render_workers > 0:
            # Computer players that search get a process of their own: a search holds the
            # CPU for up to two seconds, which neither the loop nor the renders should feel.
            self._thinker = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        self._tables = Tables(self._store, thinker=self._thinker)
        # Answers a previous run of this process owed, read before any interaction of this run.
        self._owed = await self._store.pending_replies(epoch(self.clock), self.delivery.holder)
        self._leagues = Leagues(self._store, clock=self._league_now)
        # A league game's ranking is stored as its last move commits (idempotent; a restart's
        # ``_catch_up_results`` covers a crash in between).
        self._tables.live.on_over = self._leagues.recorder.record
        self._rounds = Rounds(self._leagues, self._tables)
        self._referee = Referee(self._rounds)
        self._scheduler = Scheduler(self._tables, self.clock)
        self._scheduler.owns = self.settings.sharding.owns
        self._scheduler.on_absent = self._absent_for_time
        self._renderer = RenderPool(self.render_workers, processes=self.render_workers > 0)
        self.delivery.links = Links(self._store, self.settings.web, self.clock)
        if self.settings.web.listen is not None:
            if self.render_workers > 0:
                # A long game's replay is seconds of CPU: never on the loop's own process.
                self._web_pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            self.web = WebServer(
                Site(self._store, signer_for(self.settings.web), clock=self.clock,
                     gateway_down=self.gateway_problem, gateway_latency=lambda: self.latency,
                     executor=self._web_pool),
                *self.settings.web.listen)
            await self.web.start()
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
        self._resuming = self.spawn(self._catch_up_then_schedule())
        self.spawn(self._catch_up_results())
        if self.settings.heartbeat is not None:
            self.heartbeat = Heartbeat(self.settings.heartbeat, self.clock)
            self.spawn(self.heartbeat.run(self.gateway_connected, self._stopping))

    def gateway_connected(self) -> bool:
        """Ready, and the gateway's connection open (the heartbeat beats only then)."""
        return self.is_ready() and self.ws is not None and self.ws.open

    async def on_ready(self) -> None:
        await self._beat()

    async def on_resumed(self) -> None:
        await self._beat()

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

    async def _catch_up_then_schedule(self) -> None:
        await self._catch_up()
        await self._run_scheduler()

    async def _catch_up(self) -> None:
        """After a restart: announce what was committed but never told (a crash came between
        the commit and the post), then let computer seats that were due move."""
        await self.wait_until_ready()
        gc_tuning.settle()
        if self._owed:
            log.info("answering %d moves left thinking before the restart", len(self._owed))
            await give_owed(self, self.tables.store, self._owed)
        owns = self.settings.sharding.owns
        for table in await self.tables.unannounced():
            if not owns(table.guild_id):
                continue  # another process's shard announces it
            try:
                notice = await self.tables.catch_up(table.id)
                if notice is not None:
                    await self.delivery.post_move(notice)
            except Exception:
                log.exception("could not announce table %s after a restart", table.id)
        await self._finish_opening_rounds()
        for table in await self.tables.store.tables_with_status("playing"):
            if not owns(table.guild_id):
                continue
            try:
                notice = await self.tables.run_computers(table.id)
                if notice is not None:
                    await self.delivery.post_move(notice)
            except Exception:
                log.exception("could not resume computer seats of table %s", table.id)

    async def _run_scheduler(self) -> None:
        """Deadlines and reminders until the bot stops: those that fell due while the bot
        was down fire first; a tick under way finishes on a stop."""

        async def send(items: Sequence[Delivered]) -> None:
            await deliver(self.delivery, items)
            await self._settle_rounds()

        await self.scheduler.run(send, TICK_SECONDS, self._stopping)

    async def _absent_for_time(self, table_id: int, seat: int) -> None:
        """A seat out of time too often is absent: in a league, that is its forfeit."""
        await self.leagues.recorder.forfeit(table_id, seat, "time")

    def stop_scheduling(self) -> None:
        """End the deadline loop after its tick under way (shutdown does this first)."""
        self._stopping.set()

    async def tick(self) -> None:
        """One scheduler tick, delivered (tests call it after moving a fake clock)."""
        await deliver(self.delivery, await self.scheduler.tick())
        await self._settle_rounds()

    def _league_now(self) -> datetime:
        """League time is the scheduler's: round deadlines fall due on its clock."""
        return (self._scheduler.clock if self._scheduler is not None else self.clock).now()

    async def _settle_rounds(self) -> None:
        """League rounds past their deadline: their unfinished tables end by the rule, and
        the next round opens where the organisers asked for it."""
        try:
            settled = await self.referee.settle_due(self._league_now())
        except Exception:
            log.exception("could not settle league rounds past their deadline")
            return
        for notice in settled.notices:
            try:
                await self.delivery.post_move(notice)
            except Exception:
                log.exception("could not tell table %s of its round's deadline",
                              notice.table_id)
        for league, why in settled.refused:
            log.info("no next round of league %s: %s", league.id, why)
            try:
                where = self.get_channel(league.channel_id or 0)
                if isinstance(where, discord.TextChannel):
                    role = await self.leagues.store.league_admin_role(league.guild_id)
                    await tell_not_opened(self.delivery, league, why, where, role)
            except Exception:
                log.exception("could not tell league %s why its round did not open",
                              league.id)
        for plan in settled.plans:
            try:
                parent = self.get_channel(plan.league.channel_id or 0)
                if not isinstance(parent, discord.TextChannel):
                    log.warning("league %s: its channel is gone; round %s has no threads",
                                plan.league.id, plan.round.number)
                    continue
                text = await open_round(self, self.delivery, plan, parent)
                await parent.send(text, allowed_mentions=discord.AllowedMentions.none())
                await ask_check_in(self.delivery, plan, parent)
            except Exception:
                log.exception("could not open round %s of league %s", plan.round.number,
                              plan.league.id)

    async def _finish_opening_rounds(self) -> None:
        """League rounds a crash left half open: the tables not yet made are made, the
        members not yet seated seated, every table started, and the league's channel told;
        a round that cannot finish is rolled back (its tables end, it closes)."""
        for plan in await self.rounds.opening():
            if not self.settings.sharding.owns(plan.league.guild_id):
                continue
            parent = self.get_channel(plan.league.channel_id or 0)
            try:
                if not isinstance(parent, discord.TextChannel):
                    raise TableError("the league's channel is gone")
                text = await open_round(self, self.delivery, plan, parent)
            except Exception:
                log.exception("could not finish opening round %s of league %s; rolling back",
                              plan.round.number, plan.league.id)
                await self._roll_back(plan, parent)
                continue
            try:  # the round is open now: a failure to tell it is no reason to undo it
                await self._tell_round(plan, parent, text)
                await ask_check_in(self.delivery, plan, parent)
            except Exception:
                log.exception("could not tell of round %s of league %s", plan.round.number,
                              plan.league.id)

    async def _tell_round(self, plan: RoundPlan, parent: object, text: str) -> None:
        """The organiser's owed answer, or (its token expired) the league's channel."""
        if await give_round_owed(self, self.tables.store, plan.round.id, epoch(self.clock),
                                 text):
            return
        if isinstance(parent, discord.TextChannel):
            await self.delivery.pacer.wait()
            await parent.send(text, allowed_mentions=discord.AllowedMentions.none())

    async def _roll_back(self, plan: RoundPlan, parent: object) -> None:
        try:
            for notice in await self.rounds.roll_back(plan.round):
                await self.delivery.post_move(notice)
            await self._tell_round(
                plan, parent,
                f"Round {plan.round.number} of **{safe_name(plan.league.name)}** could not "
                "finish opening after a restart: its tables are closed without a result. "
                "Organisers: start it again with `/league-admin round`.")
        except Exception:
            log.exception("could not roll back round %s of league %s", plan.round.number,
                          plan.league.id)

    async def _catch_up_results(self) -> None:
        """League games that ended without their result stored (a crash in between)."""
        count = await self.leagues.recorder.catch_up(self.settings.sharding.owns)
        if count:
            log.info("stored %d league results missed before the restart", count)

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
        then it is cancelled), close the connection, the render pool and the store."""
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
        if self.web is not None:
            await self.web.stop()
        if self._web_pool is not None:
            self._web_pool.shutdown(wait=False, cancel_futures=True)
        if self._renderer is not None:
            self._renderer.close()
        if self._thinker is not None:
            self._thinker.shutdown(wait=False, cancel_futures=True)
        if self._store is not None:
            await self._store.close()
            self._store = None
            log.info("closed the store and the render pool")


class ShardedTabulaBot(TabulaBot, commands.AutoShardedBot):
    """The same bot on several gateway shards (``TABULA_SHARD_COUNT``/``TABULA_SHARD_IDS``)."""

    @staticmethod
    def shard_options(sharding: Sharding) -> dict[str, Any]:
        # shard_count None: discord.py asks Discord how many shards the bot needs.
        options: dict[str, Any] = {"shard_count": sharding.count}
        if sharding.ids is not None:
            options["shard_ids"] = list(sharding.ids)
        return options

    def gateway_problem(self) -> str | None:
        if self.draining or self.is_closed():
            return "shutting down"
        if not self.is_ready():
            return "not ready yet"
        down = [str(n) for n, shard in self.shards.items() if shard.is_closed()]
        return f"shards {', '.join(down)} disconnected" if down else None

    async def close_gateway(self) -> None:
        for shard in self.shards.values():
            if not shard.is_closed():
                await shard.disconnect()

    def gateway_connected(self) -> bool:
        return self.is_ready() and bool(self.shards) and not any(
            shard.is_closed() for shard in self.shards.values())


# discord.py names the tasks that run interaction callbacks and event handlers.
IN_FLIGHT_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")


def in_flight(bot: TabulaBot) -> set[asyncio.Task[Any]]:
    current = asyncio.current_task()
    named = {
        task for task in asyncio.all_tasks()
        if task is not current and task.get_name().startswith(IN_FLIGHT_PREFIXES)
    }
    return {task for task in named | bot.background if not task.done()}


async def finish_in_flight(bot: TabulaBot, grace: float) -> None:
    """Wait for interaction handlers and background work, then cancel what is left."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    busy = in_flight(bot)
    # Work under way may start more (a handler spawning a delivery): look again until quiet.
    while busy and loop.time() < deadline:
        await asyncio.wait(busy, timeout=deadline - loop.time())
        busy = in_flight(bot)
    if busy:
        log.warning("abandoning %d unfinished tasks after %.0f s", len(busy), grace)
        for task in busy:
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)


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
    # The bot has no voice: no start-up warnings about voice libraries it does not need.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    # The store's thread and engine work in threads share the GIL with the event loop; a
    # thread may otherwise hold it for 5 ms at a stretch, which adds up to visible stalls.
    sys.setswitchinterval(SWITCH_INTERVAL)
    kind = ShardedTabulaBot if settings.sharding.sharded else TabulaBot
    return kind(settings, render_workers, guild_ready_timeout)


def run_bot(settings: Settings) -> int:
    """Run until SIGTERM or SIGINT (then close cleanly and return 0), or until a startup
    failure, told in one line."""
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token; check DISCORD_TOKEN.")
        return 2
    except (aiohttp.ClientError, TimeoutError) as exc:
        where = settings.api_base or "discord.com"
        log.error("Could not reach Discord (%s): %s", where, exc)
        return 1
    except discord.HTTPException as exc:
        log.error("Discord answered with an error at start: %s", exc)
        return 1
    except discord.DiscordException as exc:  # the gateway refused the session, for one
        log.error("Discord ended the connection: %s", exc)
        return 1
    except (sqlite3.Error, StoreError) as exc:
        log.error("Could not open the database %s: %s", redacted(settings.db_path), exc)
        return 1
    except OSError as exc:  # TABULA_WEB names an address that cannot be served
        log.error("Could not serve the web pages on %s: %s", settings.web.listen, exc)
        return 1
    return 0


async def serve(settings: Settings) -> None:
    """The bot until a stop signal: ``docker stop`` sends SIGTERM, Ctrl-C SIGINT."""
    # A database file the store would refuse is refused before Discord hears of the bot.
    await check_database(settings.db_path)
    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    try:
        async with bot:
            running = asyncio.create_task(bot.start(settings.token))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if running.done():
                running.result()  # a failure to start is raised to run_bot
                return
            log.info("stop signal received; closing")
            await bot.close()
            # start() returns once the gateway is closed; stopped during login, the closed
            # HTTP session ends it with an error that no longer matters.
            await asyncio.wait({running}, timeout=bot.grace)
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
