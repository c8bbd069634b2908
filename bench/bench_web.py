"""The web pages under load, served as ``python -m bot web`` serves them (its own process, its
render workers sized to the machine), with nothing else running.

    python bench/bench_web.py [--seconds 15] [--table-clients 20] [--other-clients 5]

Builds a database with a finished game of each game, a league of two seasons whose tables are
those games, and a private link; starts the web server on it; then, for each kind of page,
``clients`` clients (each its own address, as a proxy on the loopback names it) ask for the
page and its images over and over, each at most ``--pace`` requests a second (under the
per-client limit). Prints, per kind, requests per second, p50/p99 latency of the page itself
and of its images, and how many answers were 503 (busy) or 429 (limited).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from bot.config import WebSettings
from bot.leagues import Leagues
from bot.pace.clock import FakeClock, SystemClock
from bot.pace.scheduler import paced
from bot.store import SqliteStore, Store
from bot.tables import Tables
from bot.values import Member
from bot.web.links import Links
from rules.core import Rng

GUILD = 42
SECRET = "a-bench-secret-of-enough-length"
ADMIN = Member(1, "Admin", is_admin=True)
PLAYERS = (Member(11, "Aurelia"), Member(12, "Brutus"), Member(13, "Cassia"))
GAMES = ("palatinus", "palermo", "hadrians-wall", "minerva")


async def play(tables: Tables, game_id: str, channel: int, league: str | None) -> int:
    opened = await tables.open(game_id, channel, PLAYERS[0], guild_id=GUILD, seat_order="join",
                               seed=f"bench-{game_id}", league=league)
    for m in PLAYERS[1:]:
        await tables.join(opened.table_id, m)
    await tables.start(opened.table_id, PLAYERS[0])
    rng = Rng(f"bench-{game_id}-moves")
    for _ in range(5_000):
        if (await tables.table_for(opened.table_id)).status != "playing":
            break
        for m in PLAYERS:
            legal = await tables.legal_moves(opened.table_id, m)
            if legal:
                await tables.act(opened.table_id, m, rng.choice(legal))
                break
    return opened.table_id


async def build(db: Path) -> tuple[list[str], str, str]:
    """The tables' page paths, the league's and a private link's."""
    store: Store = await SqliteStore.open(db)
    clock = FakeClock()
    tables, _ = paced(store, clock)
    leagues = Leagues(store)
    tables.live.on_over = leagues.recorder.record
    await leagues.create(GUILD, ADMIN, "Bench Cup", "palermo")
    for m in PLAYERS:
        await leagues.join(GUILD, m, "Bench Cup")
    league = await leagues.named(GUILD, "Bench Cup")
    paths, table_ids = [], []
    for season_number in (1, 2):
        season = await store.start_season(league.id, None, 0.0)
        current = await store.add_round(league.id, season.id, {}, force=True)
        assert current is not None
        table_id = await play(tables, "palermo", 100 + season_number, "Bench Cup")
        await store.sanction_table(league.id, table_id, ADMIN.id)
        await store.add_round_table(current.id, table_id)
        table_ids.append(table_id)
    for n, game_id in enumerate(GAMES):
        table_ids.append(await play(tables, game_id, 200 + n, None))
    for table_id in table_ids:
        paths.append(f"/t/{await store.public_id('table', table_id)}")
    live = await play_part(tables, "palatinus", 300)
    # The link's expiry is read against the server's own clock.
    links = Links(store, WebSettings(public_url="http://bench", secret=SECRET), SystemClock())
    private = await links.private(live, GUILD, 0, PLAYERS[0].id)
    assert private is not None
    league_path = f"/l/{await store.public_id('league', league.id)}"
    await store.close()
    return paths, league_path, private.removeprefix("http://bench")


async def play_part(tables: Tables, game_id: str, channel: int) -> int:
    opened = await tables.open(game_id, channel, PLAYERS[0], guild_id=GUILD, seat_order="join",
                               seed="bench-live")
    for m in PLAYERS[1:]:
        await tables.join(opened.table_id, m)
    await tables.start(opened.table_id, PLAYERS[0])
    return opened.table_id


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


IMAGE = re.compile(r'<img[^>]* src="([^"]+)"')


async def client(session: aiohttp.ClientSession, base: str, address: str, paths: list[str],
                 until: float, pace: float, pages: list[float], images: list[float],
                 codes: dict[int, int]) -> None:
    """Asks for each of ``paths`` in turn, then the page's images, until ``until``."""
    headers = {"X-Forwarded-For": address}
    n = 0
    while time.monotonic() < until:
        started = time.monotonic()
        async with session.get(base + paths[n % len(paths)], headers=headers) as r:
            text = (await r.read()).decode(errors="replace")  # a page, or an image
            codes[r.status] = codes.get(r.status, 0) + 1
        pages.append(time.monotonic() - started)
        n += 1
        for src in IMAGE.findall(text)[:3]:
            then = time.monotonic()
            async with session.get(base + src.replace("&amp;", "&"), headers=headers) as r:
                await r.read()
                codes[r.status] = codes.get(r.status, 0) + 1
            images.append(time.monotonic() - then)
        if pace > 0:
            await asyncio.sleep(max(0.0, 1 / pace - (time.monotonic() - started)))


def p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def load(base: str, name: str, paths: list[str], clients: int, seconds: float,
               pace: float, warm: bool = True) -> None:
    pages: list[float] = []
    images: list[float] = []
    codes: dict[int, int] = {}
    async with aiohttp.ClientSession() as session:
        # Once each, first: what a page makes on its first visit is made before the count.
        for path in paths if warm else ():
            async with session.get(base + path) as r:
                await r.read()
        until = time.monotonic() + seconds
        # Each client starts at its own place in the list, spread over all of it.
        starts = [k * len(paths) // clients for k in range(clients)]
        await asyncio.gather(*(
            client(session, base, f"198.51.100.{k + 1}", paths[start:] + paths[:start],
                   until, pace, pages, images, codes)
            for k, start in enumerate(starts)))
    print(f"{name:<22} {clients:>3} clients  {len(pages) / seconds:6.1f} pages/s"
          f"  page p50 {p(pages, .5):6.1f} ms p99 {p(pages, .99):6.1f} ms"
          f"  images p50 {p(images, .5):6.1f} ms p99 {p(images, .99):6.1f} ms"
          f"  answers {dict(sorted(codes.items()))}")


async def every_step(base: str, tables: list[str]) -> list[str]:
    """Each step of each table, the tables interleaved: pages nobody has asked for yet."""
    lasts = []
    async with aiohttp.ClientSession() as session:
        for path in tables:
            async with session.get(f"{base}{path}/replay.json") as r:
                lasts.append(len((await r.json(content_type=None))["actions"]))
    return [f"{path}?step={n}" for n in range(1, max(lasts) + 1)
            for path, last in zip(tables, lasts, strict=True) if n <= last]


async def wait_up(base: str, server: subprocess.Popen[bytes]) -> None:
    async with aiohttp.ClientSession() as session:
        for _ in range(600):
            if server.poll() is not None:
                raise SystemExit("the web server stopped")
            try:
                async with session.get(base + "/healthz") as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("the web server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--table-clients", type=int, default=20)
    parser.add_argument("--other-clients", type=int, default=5)
    parser.add_argument("--pace", type=float, default=4.0,
                        help="most pages a second each client asks for (0: no pause)")
    parser.add_argument("--server-tree", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the source tree whose web server to run (to compare versions)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        started = time.monotonic()
        tables, league, private = asyncio.run(build(db))
        print(f"database built in {time.monotonic() - started:.1f} s; "
              f"{len(tables)} finished tables, a league of two seasons, a private link")
        port = free_port()
        env = {**os.environ, "TABULA_DB": str(db), "TABULA_WEB": f"127.0.0.1:{port}",
               "TABULA_WEB_SECRET": SECRET, "TABULA_PUBLIC_URL": "http://bench"}
        server = subprocess.Popen([sys.executable, "-m", "bot", "web"], env=env,
                                  cwd=args.server_tree, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            asyncio.run(wait_up(base, server))
            steps = asyncio.run(every_step(base, tables))
            runs: list[tuple[str, list[str], int]] = [
                ("/t/<id>", tables, args.table_clients),
                ("/l/<id>", [league], args.other_clients),
                ("/l/<id>?season=1", [league + "?season=1"], args.other_clients),
                ("/l/<id>/standings.png", [league + "/standings.png"], args.other_clients),
                ("/p/<id>/<seat>", [private], args.other_clients),
                # Steps nobody asked for yet: each page draws new images (503 when full).
                ("/t/<id>?step=new", steps, args.table_clients)]
            for name, paths, clients in runs:
                asyncio.run(load(base, name, paths, clients, args.seconds, args.pace,
                                 warm=not name.endswith("new")))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)
    print(f"CPUs: {os.cpu_count()}; p50/p99 over every request of the run")


if __name__ == "__main__":
    main()
