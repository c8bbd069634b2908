"""Pages' images drawn once and kept (public, league, private), a bounded queue of web work that
answers 503 with Retry-After when full (and holds no client's share beyond its own), the open
round's progress on the league page, and a private view told in words as well as drawn."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from bot.leagues import Leagues
from bot.web import league_pages, replay
from tests.bot.web.conftest import ALICE, BOB, GUILD, HOSTILE, Web, finish, play
from tests.bot.web.test_league_pages import ADMIN, league_with_a_game
from tests.bot.web.test_private_links import link

CSP = "Content-Security-Policy"
WAIT = 30.0  # seconds any one await may take before the test fails


def counting(work: Callable[..., Any]) -> tuple[list[int], Callable[..., Any]]:
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return work(*args)

    return calls, counted


async def test_a_league_visit_draws_its_standings_once(web: Web) -> None:
    league_id, _ = await league_with_a_game(web)
    public_id = await web.store.public_id("league", league_id)
    calls, counted = counting(league_pages.standings_png)
    with mock.patch.object(league_pages, "standings_png", counted):
        for _ in range(2):
            page = await web.client.get(f"/l/{public_id}")
            image = await web.client.get(f"/l/{public_id}/standings.png")
            assert page.status == 200 and image.status == 200
            assert (await image.read()).startswith(b"\x89PNG")
    assert len(calls) == 1


async def test_a_private_view_is_drawn_once_per_version(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 1, (ALICE, BOB, HOSTILE), moves=4)
    path = await link(web, table_id, 0, ALICE.id)
    image = path.replace("/0?", "/0/0.png?", 1)
    calls, counted = counting(replay.render_view)
    with mock.patch.object(replay, "render_view", counted):
        for _ in range(2):
            assert (await web.client.get(path)).status == 200
            r = await web.client.get(image)
            assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
        assert len(calls) == 1
        await play_on(web, table_id)
        assert (await web.client.get(path)).status == 200
        assert (await web.client.get(image)).status == 200
    assert len(calls) == 2  # the table moved on: its new view is drawn, once


async def play_on(web: Web, table_id: int) -> None:
    await finish(web.tables, table_id, (ALICE, BOB, HOSTILE), moves=1)


async def test_a_table_image_is_drawn_once_for_readers_asking_together(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 2, (ALICE, BOB, HOSTILE), moves=6)
    public_id = await web.store.public_id("table", table_id)
    assert (await web.client.get(f"/t/{public_id}/step/0.json")).status == 200
    calls, counted = counting(replay.render_view)
    with mock.patch.object(replay, "render_view", counted):
        answers = await asyncio.wait_for(asyncio.gather(*(
            web.client.get(f"/t/{public_id}/img/3-0.png") for _ in range(6))), WAIT)
    assert [r.status for r in answers] == [200] * 6
    assert len({await r.read() for r in answers}) == 1
    assert len(calls) == 1


async def test_a_full_queue_answers_503_with_retry_after(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 3, (ALICE, BOB, HOSTILE), moves=6)
    public_id = await web.store.public_id("table", table_id)
    assert (await web.client.get(f"/t/{public_id}/step/0.json")).status == 200
    from bot.web.renders import WorkQueue

    # One worker, one place in the queue, one pending piece of work per client.
    web.site.work = WorkQueue(None, workers=1, waiting=1, per_client=1)
    web.site.use_store(web.store)
    assert (await web.client.get(f"/t/{public_id}/step/0.json")).status == 200
    release = threading.Event()
    real = replay.render_view

    def held(*args: Any) -> Any:
        release.wait(WAIT)
        return real(*args)

    def client(address: str) -> dict[str, str]:
        return {"X-Forwarded-For": address}  # from loopback: believed

    with mock.patch.object(replay, "render_view", held):
        first = asyncio.ensure_future(
            web.client.get(f"/t/{public_id}/img/1-0.png", headers=client("192.0.2.1")))
        while web.site.work.pending < 1:
            await asyncio.wait_for(asyncio.sleep(0.01), WAIT)
        # The same client again: its share is taken.
        again = await web.client.get(f"/t/{public_id}/img/2-0.png", headers=client("192.0.2.1"))
        assert again.status == 503 and again.headers["Retry-After"].isdigit()
        assert CSP in again.headers
        # Another client waits in the queue's one place; a third finds it full.
        second = asyncio.ensure_future(
            web.client.get(f"/t/{public_id}/img/2-0.png", headers=client("192.0.2.2")))
        while web.site.work.pending < 2:
            await asyncio.wait_for(asyncio.sleep(0.01), WAIT)
        full = await web.client.get(f"/t/{public_id}/img/4-0.png", headers=client("192.0.2.3"))
        assert full.status == 503 and int(full.headers["Retry-After"]) >= 1
        assert "busy" in (await full.text()).lower()
        release.set()
        done = await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    assert [r.status for r in done] == [200, 200]
    assert web.site.work.pending == 0


async def test_the_league_page_shows_the_open_rounds_progress(web: Web) -> None:
    leagues = Leagues(web.store)
    await leagues.create(GUILD, ADMIN, "Ladder", "palermo")
    league = await leagues.named(GUILD, "Ladder")
    season = await web.store.start_season(league.id, None, 0.0)
    due = "2099-01-02T03:04:00+00:00"
    current = await web.store.add_round(league.id, season.id, {}, deadline=due)
    assert current is not None
    table_id = await play(web.tables, "palermo", 5, (ALICE, BOB, HOSTILE), moves=2)
    await web.store.add_round_table(current.id, table_id)
    lobby = await web.tables.open("palermo", 6, BOB, guild_id=GUILD, seat_order="join")
    await web.store.add_round_table(current.id, lobby.table_id)
    t = await web.site.replays.table(table_id, await web.store.public_id("table", table_id))
    assert t is not None and t.active
    waiting = [t.names[s] for s in t.active]
    page = await (await web.client.get(f"/l/{await web.store.public_id('league', league.id)}"
                                       )).text()
    progress = page.split('id="progress"', 1)[1].split("</section>", 1)[0]
    assert "Round 1 now" in progress and "0 of 2 tables finished" in progress
    assert 'datetime="2099-01-02T03:04:00Z"' in progress
    table_link = f"/t/{await web.store.public_id('table', table_id)}"
    assert f'<a href="{table_link}">' in progress
    assert "playing, waits for " + ", ".join(
        w.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for w in waiting
    ) in progress
    assert "not started yet" in progress


async def test_a_private_view_is_told_in_words_too(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 7, (ALICE, BOB, HOSTILE), moves=4)
    path = await link(web, table_id, 0, ALICE.id)
    page = await (await web.client.get(path)).text()
    words = page.split('id="own-view-text"', 1)[1].split("</ul>", 1)[0]
    assert "Behind your screen: " in words


async def test_the_render_time_counted_is_the_workers_own(web: Web) -> None:
    from bot.web import renders

    def worker_says(work: Callable[..., Any], *args: Any) -> tuple[Any, float]:
        return work(*args), 0.125  # what the worker measured, whatever the wait was

    def total(name: str) -> float:
        return float(renders.REGISTRY.get_sample_value(name) or 0.0)

    table_id = await play(web.tables, "palermo", 8, (ALICE, BOB, HOSTILE), moves=3)
    public_id = await web.store.public_id("table", table_id)
    assert (await web.client.get(f"/t/{public_id}/step/0.json")).status == 200
    rendered, waited = total("tabula_render_seconds_sum"), total("tabula_web_queue_seconds_count")
    with mock.patch.object(renders, "timed", worker_says):
        assert (await web.client.get(f"/t/{public_id}/img/2-0.png")).status == 200
    assert total("tabula_render_seconds_sum") - rendered == pytest.approx(0.125)
    assert total("tabula_web_queue_seconds_count") - waited >= 1  # the wait, counted apart
