"""The web server: the aiohttp application with its routes, started in the bot's process when
``TABULA_WEB`` is set, or alone with ``python -m bot web`` on the same database."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sqlite3
import sys
import urllib.request
from pathlib import Path

from aiohttp import web

from bot.config import ConfigError, WebSettings, check_database_folder, database_path
from bot.store import StoreError, is_postgres, open_store, redacted
from bot.web import health, league_pages, live, private_pages, table_pages
from bot.web.context import SITE, Site
from bot.web.limits import BUCKETS, Buckets, guard
from bot.web.numbers import number
from bot.web.renders import web_pool, worker_count
from bot.web.signing import Signer
from bot.web.templates import html_response, page

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SHUTDOWN_SECONDS = 2.0


async def home(request: web.Request) -> web.Response:
    return html_response(page("Tabula", (
        "<h1>Tabula</h1><p>Board games played in Discord. Each table and league has a page"
        " of its own; the bot gives its address with every board.</p>")))


async def favicon(request: web.Request) -> web.FileResponse:
    # Browsers ask for /favicon.ico whatever the page links: the same small SVG.
    return web.FileResponse(STATIC / "favicon.svg", headers={
        "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400"})


def make_app(site: Site) -> web.Application:
    app = web.Application(middlewares=[guard], client_max_size=4096)
    app[SITE] = site
    app[BUCKETS] = Buckets()
    app.router.add_get("/", home)
    app.router.add_get("/favicon.ico", favicon)
    for module in (table_pages, live, league_pages, private_pages, health):
        module.add_routes(app)
    app.router.add_static("/static", STATIC, append_version=False)
    return app


def signer_for(settings: WebSettings) -> Signer | None:
    return Signer(settings.secret, settings.link_seconds) if settings.secret else None


class WebServer:
    """The pages on ``host:port`` (port 0: any free port, then ``port`` tells which)."""

    def __init__(self, site: Site, host: str, port: int) -> None:
        self.site = site
        self.host, self.port = host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        # Pages are reads: on a stop, requests under way get a moment, idle keep-alive
        # connections none (aiohttp would otherwise wait up to a minute for them).
        self._runner = web.AppRunner(make_app(self.site), access_log=None,
                                     shutdown_timeout=SHUTDOWN_SECONDS)
        await self._runner.setup()
        tcp = web.TCPSite(self._runner, self.host, self.port)
        await tcp.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        log.info("web pages on http://%s:%d", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


async def start_web(site: Site, listen: tuple[str, int]) -> WebServer:
    """The web pages beside the bot (``TABULA_WEB``), serving."""
    server = WebServer(site, *listen)
    await server.start()
    return server


async def serve_alone(settings: WebSettings, db: str) -> None:
    """``python -m bot web``: the pages alone until SIGTERM or SIGINT."""
    assert settings.listen is not None
    store = await open_store(db)
    workers = worker_count(beside_bot=False)
    pool = web_pool(workers)
    server = WebServer(Site(store, signer_for(settings), executor=pool, workers=workers),
                       *settings.listen)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await server.start()
        await stop.wait()
    finally:
        await server.stop()
        pool.shutdown(wait=False, cancel_futures=True)
        await store.close()


WEB_SETTINGS = """\
settings (environment variables):
  TABULA_WEB         host:port to serve the pages on, e.g. 0.0.0.0:8080 (needed)
  TABULA_DB          the SQLite file (default ./tabula.db), or a postgresql:// URL
  TABULA_PUBLIC_URL  optional: the address players reach the pages by (links, and the
                     board's image in a link's preview)
  TABULA_WEB_SECRET  optional: the key that signs private links (needed for them)
  TABULA_LINK_HOURS  optional: how long a private link works (default 24)
  TABULA_TRUSTED_PROXIES  optional: reverse proxies (addresses or CIDRs, comma-separated)
                     whose X-Forwarded-For names the client (loopback always is)
"""


def web_main(argv: list[str]) -> int:
    """``python -m bot web``: the pages alone, on the bot's database, until SIGTERM or SIGINT."""
    argparse.ArgumentParser(
        prog="python -m bot web",
        description="Serve the web pages alone, on the bot's database, until stopped.",
        epilog=WEB_SETTINGS, formatter_class=argparse.RawDescriptionHelpFormatter,
    ).parse_args(argv)
    try:
        settings = WebSettings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if settings.listen is None:
        print("TABULA_WEB must name host:port, e.g. TABULA_WEB=0.0.0.0:8080.", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    db = database_path()
    try:
        if not is_postgres(db):
            check_database_folder(db)
        asyncio.run(serve_alone(settings, db))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    except (StoreError, OSError, sqlite3.Error) as exc:
        print(f"error: {redacted(db)}: {exc}", file=sys.stderr)
        return 1
    return 0


async def _set_pages(db: str, guild_id: int, on: bool) -> None:
    store = await open_store(db)
    try:
        await store.set_web_pages(guild_id, on)
    finally:
        await store.close()


def guild_id(text: str) -> int:
    found = number(text, 20)  # a Discord id: up to 20 ASCII digits
    if found is None:
        raise argparse.ArgumentTypeError(f"a server id is digits only, not {text[:40]!r}")
    return found


def pages_main(argv: list[str]) -> int:
    """``python -m bot web-pages GUILD_ID on|off``: a server's pages (and links) on or off."""
    parser = argparse.ArgumentParser(
        prog="python -m bot web-pages",
        description="Turn a server's web pages (and the links to them) on or off, in the "
                    "database TABULA_DB names.",
    )
    parser.add_argument("guild", metavar="GUILD_ID", type=guild_id,
                        help="the Discord server's id")
    parser.add_argument("state", choices=("on", "off"))
    args = parser.parse_args(argv)
    db = database_path()
    try:
        asyncio.run(_set_pages(db, args.guild, args.state == "on"))
    except (StoreError, OSError, sqlite3.Error) as exc:
        print(f"error: {redacted(db)}: {exc}", file=sys.stderr)
        return 1
    print(f"Web pages of server {args.guild} are {args.state}.")
    return 0


def healthz_main(argv: list[str]) -> int:
    """``python -m bot healthcheck`` with ``TABULA_WEB`` set: 0 when ``/healthz`` answers 200,
    or when the web server is off (``TABULA_WEB`` unset: nothing to ask); 1 otherwise."""
    argparse.ArgumentParser(
        prog="python -m bot healthcheck",
        description="Exit 0 when the web pages' /healthz (on TABULA_WEB) answers 200, else 1.",
    ).parse_args(argv)
    try:
        settings = WebSettings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    if settings.listen is None:
        return 0
    host, port = settings.listen
    host = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    where = f"[{host}]" if ":" in host else host
    try:
        with urllib.request.urlopen(f"http://{where}:{port}/healthz", timeout=5) as answer:
            return 0 if answer.status == 200 else 1
    except (OSError, ValueError) as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
