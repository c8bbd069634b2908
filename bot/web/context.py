"""What every page handler reads: the store, the games, the clock, the signer of private links,
and, in the bot's process, probes of the Discord gateway."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field

from aiohttp import web

from bot.config import Network, trusted_proxies
from bot.leagues import Leagues
from bot.pace.clock import Clock, SystemClock, epoch
from bot.store import Store
from bot.web.renders import WorkQueue
from bot.web.replay import Replays
from bot.web.signing import Signer
from bot.web.templates import refusal
from rules import GAMES
from rules.core import Game


@dataclass
class Limits:
    """Requests per client address: a bucket of ``burst`` refilled at ``rate`` a second.
    ``trusted``: the reverse proxies whose ``X-Forwarded-For`` names the client (besides
    loopback); ``TABULA_TRUSTED_PROXIES`` by default, read here so that every process that
    serves pages honours it."""

    burst: float = 240.0
    rate: float = 20.0
    trusted: tuple[Network, ...] = field(default_factory=trusted_proxies)


@dataclass
class Site:
    store: Store
    signer: Signer | None = None
    games: Mapping[str, Game] = field(default_factory=lambda: GAMES)
    clock: Clock = field(default_factory=SystemClock)
    # In the bot's process: why the gateway is down (None while it is connected), and its
    # heartbeat latency in seconds (None when unknown).
    gateway_down: Callable[[], str | None] | None = None
    gateway_latency: Callable[[], float | None] | None = None
    limits: Limits = field(default_factory=Limits)
    # Replays and renders run here (worker processes), else in threads; ``workers`` at once.
    executor: Executor | None = None
    workers: int = 1
    # Seconds between reads of a watched table's version (live moves on an open page).
    live_poll: float = 1.0
    # The address players reach the pages by: absolute links in link previews (none without).
    public_url: str | None = field(default_factory=lambda: public_url())
    replays: Replays = field(init=False)
    leagues: Leagues = field(init=False)
    work: WorkQueue = field(init=False)

    def __post_init__(self) -> None:
        self.work = WorkQueue(self.executor, self.workers)
        self.use_store(self.store)

    def use_store(self, store: Store) -> None:
        """Serve from ``store`` (a reopened one, after the old one went away)."""
        self.store = store
        self.replays = Replays(store, self.games, self.work,
                               in_process=self.executor is None)
        self.leagues = Leagues(store, self.games)

    def now(self) -> int:
        return epoch(self.clock)

    async def find(self, request: web.Request, kind: str) -> tuple[str, int]:
        """The public id in the path and the row it names; a 404 page when it names nothing
        of that kind."""
        public_id = request.match_info["public_id"]
        found = await self.store.find_public_id(public_id) if len(public_id) <= 64 else None
        if found is None or found[0] != kind:
            raise gone("There is no page at this address.")
        return public_id, found[1]

    async def pages_on(self, guild_id: int | None) -> None:
        if not await self.store.web_pages_on(guild_id):
            raise gone("This server has turned its web pages off.")


def public_url(env: Mapping[str, str] | None = None) -> str | None:
    """``TABULA_PUBLIC_URL`` without its trailing slash (None when unset or not http(s)):
    link previews name their image by it, read here so that every process serving pages
    has it."""
    text = (os.environ if env is None else env).get("TABULA_PUBLIC_URL", "").strip()
    return text.rstrip("/") if text.startswith(("http://", "https://")) else None


SITE = web.AppKey("site", Site)


def site_of(request: web.Request) -> Site:
    return request.app[SITE]


def gone(why: str) -> web.HTTPException:
    page = refusal(404, "Not found", why)
    return web.HTTPNotFound(text=page.text, content_type="text/html")


def bad_request(why: str) -> web.HTTPException:
    page = refusal(400, "Bad request", why)
    return web.HTTPBadRequest(text=page.text, content_type="text/html")
