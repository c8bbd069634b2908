"""The bot's own web server (``TABULA_WEB``): boards link to the table's page, ``/hand`` and
the DM boards to the seat's own view, ``/league standings`` to the league's page;
``/healthz`` follows the gateway."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.values import Member as Player
from rules.core import Rng
from tests.e2e.harness import WAIT, table
from tests.e2e.test_bot_game import open_and_start, play_move
from tests.e2e.web_harness import links, web_settings
from tests.standin import StandIn


async def test_boards_hand_and_dms_link_to_the_web(standin: StandIn, tmp_path: Path) -> None:
    web = web_settings()
    async with table(standin, tmp_path / "web.db", web=web) as t, \
            aiohttp.ClientSession() as http:
        board = await open_and_start(t, "palermo")
        url = links(board)["Open on the web"]
        assert url.startswith(f"{web.public_url}/t/")
        async with http.get(url) as r:
            assert r.status == 200 and "Palermo" in await r.text()

        r = await standin.slash(t.members["alice"], t.channel, "hand", {})
        reply = await t.reply(r)
        assert reply.ephemeral and reply.message is not None
        own = links(reply.message)["My view on the web"]
        assert own.startswith(f"{web.public_url}/p/")
        async with http.get(own) as r:
            assert r.status == 200 and "your view" in await r.text()
        async with http.get(own.replace("sig=", "sig=0")) as r:
            assert r.status == 403

        # The DMs follow the board: on a busy machine they may come after /hand's answer.
        await standin.wait_until(lambda: [m for m in standin.dms(t.members["bob"]) if links(m)],
                                 WAIT, "bob's DM with its link")
        dms = [m for m in standin.dms(t.members["bob"]) if links(m)]
        assert dms and links(dms[-1])["My view on the web"].startswith(f"{web.public_url}/p/")

        admin = Player(t.members["admin"].id, "admin", is_admin=True)
        await t.bot.leagues.create(t.guild.id, admin, "Autumn", "palermo")
        r = await standin.slash(t.members["alice"], t.channel, "league standings",
                                {"name": "Autumn"})
        answer = await t.reply(r)
        assert answer.message is not None
        league_url = links(answer.message)["Open on the web"]
        assert league_url.startswith(f"{web.public_url}/l/")
        async with http.get(league_url) as r:
            assert r.status == 200 and "Autumn" in await r.text()

        async with http.get(f"{web.public_url}/healthz") as r:
            assert r.status == 200
        assert t.bot.gateway_problem() is None
        await t.bot.close_gateway()
        # What /healthz reports while the gateway reconnects (its 503: test_health_metrics).
        assert t.bot.gateway_problem() == "disconnected, reconnecting"
        # Link buttons as Discord takes them (a url, no custom_id, style 5).
        assert standin.violations == [] and standin.unhandled == []


def sample(text: str, name: str) -> float:
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and not s.labels:
                return float(s.value)
    raise AssertionError(f"{name} not in /metrics")


async def test_the_bots_metrics_move_with_a_game(standin: StandIn, tmp_path: Path) -> None:
    web = web_settings()
    async with table(standin, tmp_path / "web.db", closed_dms=("bob",), web=web) as t, \
            aiohttp.ClientSession() as http:
        async with http.get(f"{web.public_url}/metrics") as r:
            before = await r.text()
        board = await open_and_start(t, "palermo")
        await play_move(t, board, Rng("metrics"), 1)
        await standin.wait_until(
            lambda: any("cannot send you direct messages" in m.text
                        for m in t.bot_messages()), 10, "the note about bob's closed DMs")
        async with http.get(f"{web.public_url}/metrics") as r:
            after = await r.text()
        for name in ("tabula_moves_committed_total", "tabula_act_seconds_count",
                     "tabula_renders_total", "tabula_render_seconds_count",
                     "tabula_dms_refused_total"):
            assert sample(after, name) > sample(before, name), name
        assert sample(after, "tabula_live_tables") == 1
        latency = sample(after, "tabula_gateway_latency_seconds")
        assert latency == latency and latency >= 0  # connected: a number, not NaN
