"""Defects found on the pages: every image of a replay step, one caption per step, strict
numbers (a bad one is a 400 or 404 with the security headers, never a 500), the same headers
on every error answer, and no Discord member id in a public CSV or a private link."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import re
from typing import Any
from unittest import mock
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp import web as aioweb
from aiohttp.test_utils import TestClient, TestServer, make_mocked_request

from bot.config import ConfigError, WebSettings
from bot.pace.clock import epoch
from bot.web import table_pages
from bot.web.limits import client_of
from bot.web.links import Links
from bot.web.replay import render_view
from bot.web.server import make_app
from bot.web.templates import esc
from tests.bot.web.conftest import ALICE, BOB, HOSTILE, SECRET, Web, play
from tests.bot.web.test_league_pages import league_with_a_game
from tests.bot.web.test_table_pages import replayed_views

CSP = "Content-Security-Policy"
ODD = ("²", "٣", "1" * 5000, "+1", " 1", "-1", "1_0")


async def test_the_replay_shows_every_image_of_a_step_with_alt_text(web: Web) -> None:
    table_id = await play(web.tables, "minerva", 21, (ALICE, BOB), moves=4)
    public_id = await web.store.public_id("table", table_id)
    table = await web.store.get_table(table_id)
    assert table is not None
    view = (await replayed_views(web, table))[2]
    # The post's image, then the market and each city (a Discord reader's detail buttons).
    described = render_view("minerva", view)
    assert len(described) > 1
    page = await (await web.client.get(f"/t/{public_id}?step=2")).text()
    replay = page.split('id="replay"', 1)[1].split("</section>", 1)[0]
    found = re.findall(r'<img [^>]*src="([^"]+)" alt="([^"]*)"', replay)
    assert [src.split("?")[0] for src, _ in found] == [
        f"/t/{public_id}/img/2-{k}.png" for k in range(len(described))]
    assert all(alt for _, alt in found)
    # The script asks the same of the server: the step's images, alt texts and caption.
    r = await web.client.get(f"/t/{public_id}/step/2.json")
    assert r.status == 200 and CSP in r.headers
    step = await r.json()
    assert [i["src"].split("?")[0] for i in step["images"]] == [s.split("?")[0]
                                                                 for s, _ in found]
    # Each alt text says the step (its caption), then what that image shows.
    assert [i["alt"] for i in step["images"]] == [f"{step['caption']} {alt}"
                                                  for _, alt in described]
    assert [esc(i["alt"]) for i in step["images"]] == [alt for _, alt in found]
    assert f"<p id=\"replay-caption\" aria-live=\"polite\">{esc(step['caption'])}</p>" in page


async def test_a_steps_caption_is_the_first_line_of_its_move(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 22, (ALICE, BOB, HOSTILE), moves=6)
    public_id = await web.store.public_id("table", table_id)
    t = await web.site.replays.table(table_id, public_id)
    assert t is not None
    steps = [s for s, _ in t.history if s is not None]
    several = next(s for s in steps if steps.count(s) > 1)
    first = next(text for s, text in t.history if s == several)
    assert table_pages.caption(t, several).endswith(re.sub(r"^\d+\.\s*", "", first))
    r = await web.client.get(f"/t/{public_id}/step/{several}.json")
    assert (await r.json())["caption"] == table_pages.caption(t, several)


@pytest.mark.parametrize("odd", ODD)
async def test_odd_numbers_are_refused_with_the_security_headers(web: Web, odd: str) -> None:
    table_id = await play(web.tables, "palermo", 23, (ALICE, BOB, HOSTILE), moves=2)
    public_id = await web.store.public_id("table", table_id)
    links = Links(web.store, WebSettings(public_url="https://g.example", secret=SECRET),
                  web.clock)
    private = await links.private(table_id, 42, 0, ALICE.id)
    assert private is not None
    path = urlsplit(private).path
    query = parse_qs(urlsplit(private).query)
    for url, params in (
        (f"/t/{public_id}", {"step": odd}),
        (f"/t/{public_id}/img/{odd}-0.png", None),
        (f"/t/{public_id}/img/0-{odd}.png", None),
        (f"/t/{public_id}/step/{odd}.json", None),
        (path, {"m": odd, "exp": query["exp"][0], "sig": query["sig"][0]}),
        (path, {"m": query["m"][0], "exp": odd, "sig": query["sig"][0]}),
        (f"/p/{public_id}/{odd}", {"m": query["m"][0], "exp": query["exp"][0],
                                   "sig": query["sig"][0]}),
    ):
        r = await web.client.get(url, params=params)
        assert r.status in (400, 403, 404), (url, params, r.status)
        assert CSP in r.headers and r.headers["X-Frame-Options"] == "DENY", (url, params)


async def test_an_unexpected_error_is_a_500_with_the_security_headers(web: Web) -> None:
    async def broken(request: aioweb.Request) -> aioweb.Response:
        raise RuntimeError("a bug")

    app = make_app(web.site)  # the site's own app, with a route that fails
    app.router.add_get("/broken", broken)
    async with TestClient(TestServer(app)) as client:
        r = await client.get("/broken")
        assert r.status == 500 and CSP in r.headers and "a bug" not in await r.text()
    r = await web.client.get("/nowhere")
    assert r.status == 404 and CSP in r.headers
    r = await web.client.post("/")
    assert r.status == 405 and CSP in r.headers


async def test_the_public_csv_names_no_member_id(web: Web) -> None:
    league_id, _ = await league_with_a_game(web)
    public_id = await web.store.public_id("league", league_id)
    text = await (await web.client.get(f"/l/{public_id}/results.csv")).text()
    rows = list(csv.DictReader(io.StringIO(text)))
    cells = {cell for row in rows for cell in row.values()}
    assert not cells & {str(m.id) for m in (ALICE, BOB, HOSTILE)}
    assert "member_id" not in rows[0]
    assert {r["player"] for r in rows} == {"p1", "p2", "p3"}
    assert {r["name"] for r in rows} == {ALICE.name, BOB.name, HOSTILE.name}


async def test_a_private_link_names_no_member_id_and_old_links_are_refused(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 24, (ALICE, BOB, HOSTILE), moves=2)
    links = Links(web.store, WebSettings(public_url="https://g.example", secret=SECRET),
                  web.clock)
    url = await links.private(table_id, 42, 0, ALICE.id)
    assert url is not None
    # No part of the link is the member's id (hex digests may hold its digits by chance).
    parts = urlsplit(url)
    values = [v for vs in parse_qs(parts.query).values() for v in vs]
    assert str(ALICE.id) not in [*parts.path.split("/"), *values]
    path = url.removeprefix("https://g.example")
    assert (await web.client.get(path)).status == 200
    # A link of the old form (the member's id in m=), even rightly signed, opens nothing.
    public_id = await web.store.public_id("table", table_id)
    expires = epoch(web.clock) + 3600
    message = f"{public_id}:0:{ALICE.id}:{expires}"
    sig = hmac.new(SECRET.encode(), message.encode(), hashlib.sha256).hexdigest()
    r = await web.client.get(f"/p/{public_id}/0",
                             params={"m": str(ALICE.id), "exp": str(expires), "sig": sig})
    assert r.status == 403 and "older kind" in await r.text()
    assert CSP in r.headers


def forwarded(peer: str, chain: str) -> Any:
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda key, default=None: (
        (peer, 4000) if key == "peername" else default)
    headers = {"X-Forwarded-For": chain} if chain else {}
    return make_mocked_request("GET", "/", headers=headers, transport=transport)


def test_a_trusted_proxy_names_the_client() -> None:
    trusted = WebSettings.from_env({"TABULA_TRUSTED_PROXIES": "172.18.0.0/16, 10.0.0.7"}
                                   ).trusted_proxies
    # Behind a proxy on a Docker bridge: the client it names, not the proxy for everyone.
    assert client_of(forwarded("172.18.0.2", "203.0.113.5"), trusted) == "203.0.113.5"
    assert client_of(forwarded("10.0.0.7", "198.51.100.1, 203.0.113.9"), trusted) == \
        "203.0.113.9"
    # A chain of trusted proxies: the last address none of them is.
    assert client_of(forwarded("172.18.0.2", "203.0.113.5, 10.0.0.7"), trusted) == \
        "203.0.113.5"
    # Anyone else's header is not believed, nor is one without the setting.
    assert client_of(forwarded("192.0.2.44", "203.0.113.5"), trusted) == "192.0.2.44"
    assert client_of(forwarded("172.18.0.2", "203.0.113.5"), ()) == "172.18.0.2"
    assert client_of(forwarded("127.0.0.1", "203.0.113.5"), ()) == "203.0.113.5"
    assert client_of(forwarded("172.18.0.2", ""), trusted) == "172.18.0.2"
    for bad in ("nonsense", "10.0.0.0/33", "1.2.3.4,,x"):
        with pytest.raises(ConfigError, match="TABULA_TRUSTED_PROXIES"):
            WebSettings.from_env({"TABULA_TRUSTED_PROXIES": bad})


async def test_a_league_page_labels_rounds_by_season(web: Web) -> None:
    league_id, table_id = await league_with_a_game(web)
    first = await web.store.start_season(league_id, None, 0.0)
    one = await web.store.add_round(league_id, first.id, {})
    assert one is not None
    await web.store.add_round_table(one.id, table_id)
    second = await web.store.start_season(league_id, None, 0.0)
    two = await web.store.add_round(league_id, second.id, {}, force=True)
    assert two is not None
    public_id = await web.store.public_id("league", league_id)
    # By default the page is the latest season's: its standings and rounds only.
    page = await (await web.client.get(f"/l/{public_id}")).text()
    rounds = page.split('id="rounds"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<li>Season (\d+), round (\d+)", rounds) == [("2", "2")]
    assert "season 2" in page.split('id="standings-title"', 1)[1][:200]
    assert 'aria-current="page">Season 2 (running)' in page
    # All time: each round says its season, the newest first.
    page = await (await web.client.get(f"/l/{public_id}?season=all")).text()
    rounds = page.split('id="rounds"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<li>Season (\d+), round (\d+)", rounds) == [("2", "2"), ("1", "1")]
    assert 'aria-current="page">All time' in page
