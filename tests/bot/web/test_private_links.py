"""Private views by signed link: the seat's own view for its member until the link expires;
forged, expired, other-seat and changed-hands links are refused with a 403 page."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import rendering
from bot.config import WebSettings
from bot.web.links import Links
from bot.web.signing import Signer
from rules import GAMES
from tests.bot.web.conftest import ALICE, BOB, HOSTILE, SECRET, Web, play


async def link(web: Web, table_id: int, seat: int, member_id: int) -> str:
    links = Links(web.store, WebSettings(public_url="https://games.example",
                                         secret=SECRET), web.clock)
    url = await links.private(table_id, 42, seat, member_id)
    assert url is not None and url.startswith("https://games.example/p/")
    return url.removeprefix("https://games.example")


async def test_a_signed_link_shows_that_seats_own_view(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 1, (ALICE, BOB, HOSTILE), moves=4)
    path = await link(web, table_id, 0, ALICE.id)
    r = await web.client.get(path)
    assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
    page = await r.text()
    assert "your view" in page and "Alice" in page
    table = await web.store.get_table(table_id)
    assert table is not None
    game = GAMES["palatinus"]
    view = {**game.view(game.load(table.snapshot or {}), 0),
            "names": ["Alice", BOB.name, HOSTILE.name]}
    image = urlsplit(path)._replace(path=urlsplit(path).path + "/0.png").geturl()
    r = await web.client.get(image)
    assert r.status == 200
    assert await r.read() == rendering.render_pngs("palatinus", view)[0]


async def test_another_seat_in_the_same_link_is_refused(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 2, (ALICE, BOB, HOSTILE), moves=2)
    path = await link(web, table_id, 0, ALICE.id)
    other = path.replace("/0?", "/1?", 1)
    r = await web.client.get(other)
    assert r.status == 403 and "signature does not match" in await r.text()
    assert (await web.client.get(other.replace("/1?", "/1/0.png?"))).status == 403


async def test_a_forged_signature_or_member_is_refused(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 3, (ALICE, BOB, HOSTILE), moves=2)
    path = await link(web, table_id, 1, BOB.id)
    query = parse_qs(urlsplit(path).query)
    forged = path.replace(query["sig"][0], "0" * 64)
    r = await web.client.get(forged)
    assert r.status == 403 and "Link refused" in await r.text()
    public_id = await web.store.public_id("table", table_id)
    signer = Signer(SECRET)
    alice = path.replace(f"m={signer.member(public_id, BOB.id)}",
                         f"m={signer.member(public_id, ALICE.id)}")
    assert alice != path
    r = await web.client.get(alice)
    assert r.status == 403
    other_key = Signer("another-secret-entirely-0123")
    r = await web.client.get(other_key.path(other_key.grant(public_id, 1, BOB.id, 0)))
    assert r.status == 403
    r = await web.client.get(urlsplit(path).path)  # no signature at all
    assert r.status == 403 and "not a valid private link" in await r.text()


async def test_an_expired_link_is_refused(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 4, (ALICE, BOB, HOSTILE), moves=2)
    path = await link(web, table_id, 0, ALICE.id)
    web.clock.advance(24 * 3600 - 1)
    assert (await web.client.get(path)).status == 200
    web.clock.advance(1)
    r = await web.client.get(path)
    assert r.status == 403 and "expired" in await r.text()


async def test_a_link_stops_working_when_the_seat_changes_hands(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 5, (ALICE, BOB, HOSTILE), moves=2)
    path = await link(web, table_id, 2, BOB.id)  # signed, but seat 3 is not Bob's
    r = await web.client.get(path)
    assert r.status == 403 and "no longer yours" in await r.text()


async def test_without_a_secret_there_are_no_private_links(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 6, (ALICE, BOB, HOSTILE), moves=2)
    path = await link(web, table_id, 0, ALICE.id)
    web.site.signer = None
    r = await web.client.get(path)
    assert r.status == 403 and "not enabled" in await r.text()
    links = Links(web.store, WebSettings(public_url="https://games.example"), web.clock)
    assert await links.private(table_id, 42, 0, ALICE.id) is None
    assert await links.table(table_id, 42) is not None


async def test_links_need_the_public_address_and_pages_on(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 7, (ALICE, BOB, HOSTILE), moves=1)
    off = Links(web.store, WebSettings(secret=SECRET), web.clock)
    assert await off.table(table_id, 42) is None
    assert await off.private(table_id, 42, 0, ALICE.id) is None
    on = Links(web.store, WebSettings(public_url="https://g.example", secret=SECRET),
               web.clock)
    url = await on.table(table_id, 42)
    assert url == f"https://g.example/t/{await web.store.public_id('table', table_id)}"
    await web.store.set_web_pages(42, False)
    assert await on.table(table_id, 42) is None
    assert await on.private(table_id, 42, 0, ALICE.id) is None
