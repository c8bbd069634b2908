"""What a good replay page has (issue 33), as the server sends it: a favicon, a generic
``/healthz`` reason, "Show" landing on the replay, alt texts that say the step and what each
image shows, the winner at the top, history lines that open their step, link previews with
the public board only, and a league page's season picker."""

from __future__ import annotations

import html
import logging
import re

import pytest

import rendering
from bot.leagues import Leagues
from bot.web import table_pages
from tests.bot.web.conftest import ALICE, BOB, GUILD, HOSTILE, Web, finish, play
from tests.bot.web.test_league_pages import ADMIN
from tests.bot.web.test_table_pages import replayed_views

CSP = "Content-Security-Policy"
PUBLIC = "https://g.example"


async def test_the_favicon_is_served_with_the_security_headers(web: Web) -> None:
    for path in ("/favicon.ico", "/static/favicon.svg"):
        r = await web.client.get(path)
        assert r.status == 200 and r.content_type == "image/svg+xml", path
        assert CSP in r.headers and r.headers["X-Frame-Options"] == "DENY", path
        assert (await r.read()).startswith(b"<svg")
    page = await (await web.client.get("/")).text()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page


async def test_healthz_gives_a_generic_reason_and_logs_the_exception(
    web: Web, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(table_id: int) -> int:
        raise RuntimeError("db.internal:5432 rejected user tabula")

    monkeypatch.setattr(web.site.store, "table_version", broken)
    with caplog.at_level(logging.WARNING, logger="bot.web.health"):
        r = await web.client.get("/healthz")
    text = await r.text()
    assert r.status == 503 and text == "unavailable: the store does not answer\n"
    assert "db.internal" in caplog.text and "RuntimeError" in caplog.text


async def test_show_lands_on_the_replay_and_history_lines_open_their_step(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 61, (ALICE, BOB, HOSTILE), moves=5)
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    assert f'<form method="get" action="/t/{public_id}#replay">' in page
    history = page.split('id="history"', 1)[1].split("</section>", 1)[0]
    links = re.findall(r'<li data-step="(\d+)"><a class="to-step" data-step="(\d+)"'
                       r' href="([^"]+)">', history)
    assert {int(s) for s, _, _ in links} == set(range(1, 6))
    assert all(s == t and href == f"/t/{public_id}?step={s}#replay" for s, t, href in links)


async def test_each_image_of_a_step_has_its_own_alt_text(web: Web) -> None:
    for channel, game in ((62, "hadrians-wall"), (66, "minerva")):
        table_id = await play(web.tables, game, channel, (ALICE, BOB), moves=3)
        public_id = await web.store.public_id("table", table_id)
        t = await web.site.replays.table(table_id, public_id)
        assert t is not None
        data = await (await web.client.get(f"/t/{public_id}/step/3.json")).json()
        alts = [i["alt"] for i in data["images"]]
        assert len(alts) > 1 and len(set(alts)) == len(alts), game
        # Each says the step (its caption: what the move was), not only its number.
        assert all(a.startswith(table_pages.caption(t, 3)) for a in alts)
        assert table_pages.caption(t, 3) != "Step 3 of 3: "


async def test_a_finished_game_says_its_winner_and_scores_before_the_replay(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 63, (ALICE, HOSTILE, BOB))
    public_id = await web.store.public_id("table", table_id)
    t = await web.site.replays.table(table_id, public_id)
    assert t is not None and t.outcome is not None
    page = await (await web.client.get(f"/t/{public_id}")).text()
    main = page.split("<main>", 1)[1]
    assert main.index('id="final"') < main.index('id="replay"') < main.index('id="history"')
    assert main.index('id="replay"') < main.index('id="seats"')
    found = re.search(r'<p id="winner">(.*?)</p>', main)
    assert found is not None
    first = t.outcome.ranking[0]
    winner = html.unescape(found.group(1))
    assert all(t.names[seat][:20] in winner for seat in first), winner
    assert "<script>" not in main  # the hostile name stays text


def previews(page: str) -> dict[str, str]:
    head = page.split("</head>", 1)[0]
    return {k: html.unescape(v) for k, v in re.findall(
        r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', head)}


async def test_link_previews_show_the_public_board(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 64, (ALICE, BOB, HOSTILE))
    public_id = await web.store.public_id("table", table_id)
    table = await web.store.get_table(table_id)
    assert table is not None
    views = await replayed_views(web, table)
    # Without a public address: a title and description, no image (it must be absolute).
    web.site.public_url = None
    meta = previews(await (await web.client.get(f"/t/{public_id}")).text())
    assert meta["og:title"] == "Palermo table · Tabula" and "og:image" not in meta
    assert meta["twitter:card"] == "summary" and "won" in meta["og:description"]
    web.site.public_url = PUBLIC
    meta = previews(await (await web.client.get(f"/t/{public_id}")).text())
    assert meta["og:url"] == f"{PUBLIC}/t/{public_id}"
    assert meta["twitter:card"] == "summary_large_image"
    image = meta["og:image"]
    last = len(views) - 1
    assert image.startswith(f"{PUBLIC}/t/{public_id}/img/{last}-0.png?v=")
    assert HOSTILE.name[:20] in meta["og:description"]  # escaped in the page, text here
    # The image is the public view's render: nothing a seat alone may see.
    r = await web.client.get(image.removeprefix(PUBLIC))
    assert r.status == 200
    assert await r.read() == rendering.render_pngs("palermo", views[last])[0]


async def test_a_live_tables_preview_is_its_board_now(web: Web) -> None:
    web.site.public_url = PUBLIC
    table_id = await play(web.tables, "palatinus", 65, (ALICE, BOB, HOSTILE), moves=4)
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}?step=1")).text()
    meta = previews(page)
    # The board now, whichever step the link opens on.
    assert re.fullmatch(rf"{PUBLIC}/t/{public_id}/img/4-0\.png\?v=\d+", meta["og:image"])
    assert meta["og:description"].startswith("This game is being played. Step 4 of 4: ")


async def league_with_seasons(web: Web) -> tuple[str, str]:
    """A league of two seasons, a finished game in season 1's round: the league's page id
    and the game's."""
    leagues = Leagues(web.store)
    web.tables.live.on_over = leagues.recorder.record
    await leagues.create(GUILD, ADMIN, "Cup", "palermo")
    for m in (ALICE, BOB, HOSTILE):
        await leagues.join(GUILD, m, "Cup")
    league = await leagues.named(GUILD, "Cup")
    first = await web.store.start_season(league.id, None, 0.0)
    one = await web.store.add_round(league.id, first.id, {})
    assert one is not None
    opened = await web.tables.open("palermo", 67, ALICE, guild_id=GUILD, seat_order="join",
                                   seed="season-one", league="Cup")
    await web.store.sanction_table(league.id, opened.table_id, ADMIN.id)
    await web.store.add_round_table(one.id, opened.table_id)
    for m in (BOB, HOSTILE):
        await web.tables.join(opened.table_id, m)
    await web.tables.start(opened.table_id, ALICE)
    await finish(web.tables, opened.table_id, (ALICE, BOB, HOSTILE))
    second = await web.store.start_season(league.id, None, 0.0)
    two = await web.store.add_round(league.id, second.id, {}, force=True)
    assert two is not None
    return (await web.store.public_id("league", league.id),
            await web.store.public_id("table", opened.table_id))


async def test_a_league_page_shows_the_season_picked(web: Web) -> None:
    public_id, table_page = await league_with_seasons(web)

    def section(page: str, name: str) -> str:
        return page.split(f'id="{name}"', 1)[1].split("</section>", 1)[0]

    page = await (await web.client.get(f"/l/{public_id}", params={"season": "1"})).text()
    picker = page.split('id="seasons"', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r'href="([^"]+)"( aria-current="page")?>([^<]+)<', picker) == [
        (f"/l/{public_id}?season=2", "", "Season 2 (running)"),
        (f"/l/{public_id}?season=1", ' aria-current="page"', "Season 1"),
        (f"/l/{public_id}?season=all", "", "All time")]
    assert "Cup league, season 1" in page.split("<title>", 1)[1][:60]
    assert "Cup, season 1" in page.split('id="standings-title"', 1)[1][:200]
    assert re.findall(r"<li>Season (\d+), round (\d+)", section(page, "rounds")) == [("1", "1")]
    assert f"/t/{table_page}" in section(page, "results")
    page = await (await web.client.get(f"/l/{public_id}", params={"season": "2"})).text()
    assert "Cup, season 2" in page.split('id="standings-title"', 1)[1][:200]
    assert re.findall(r"<li>Season (\d+), round (\d+)", section(page, "rounds")) == [("2", "2")]
    assert f"/t/{table_page}" not in page and "No game finished yet." in page
    # Without a choice: the latest season, the same page as ?season=2.
    latest = await (await web.client.get(f"/l/{public_id}")).text()
    assert latest.replace("?season=2\" aria-current", "") == page.replace(
        "?season=2\" aria-current", "")
    # All time: every round and result.
    page = await (await web.client.get(f"/l/{public_id}", params={"season": "all"})).text()
    assert len(re.findall(r"<li>Season (\d+), round", section(page, "rounds"))) == 2
    assert f"/t/{table_page}" in section(page, "results")
    r = await web.client.get(f"/l/{public_id}/standings.png", params={"season": "1"})
    assert r.status == 200 and r.content_type == "image/png"
    for bad, status in (("3", 404), ("x", 400), ("²", 400)):
        r = await web.client.get(f"/l/{public_id}", params={"season": bad})
        assert r.status == status and CSP in r.headers, bad
