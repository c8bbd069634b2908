"""Live moves, the score chart and link previews as a person sees them in Chromium: an open
table page shows a move made elsewhere within seconds, without a reload, with a cue (and a
reader further back is offered the new step); the chart follows the replay's step and fits a
phone; the preview tags name the board's image by an absolute address that serves it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.web.live import LIVE
from tests.bot.web.conftest import ALICE, BOB, HOSTILE, Web, finish, play, web
from tests.e2e.browser import browser, screenshot_path
from tests.e2e.test_web_browser import shown_step

__all__ = ["browser", "web"]  # the fixtures

MEMBERS = (ALICE, BOB, HOSTILE)
SOON = 20_000  # ms a live move may take to show (the page polls nothing: the stream tells it)


async def test_a_move_shows_on_an_open_page_without_a_reload(
    web: Web, browser: Any, tmp_path: Path
) -> None:
    web.client.app[LIVE].poll = 0.1
    table_id = await play(web.tables, "palermo", 80, MEMBERS, moves=4)
    public_id = await web.store.public_id("table", table_id)
    url = str(web.client.make_url(f"/t/{public_id}"))
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    await page.goto(url)
    await shown_step(page, 4)
    await page.evaluate("window.stayed = true")
    # A stream is open before the move is made (else the move would be in the page read).
    for _ in range(200):
        if web.client.app[LIVE].streams:
            break
        await page.wait_for_timeout(50)
    assert web.client.app[LIVE].streams == 1
    await finish(web.tables, table_id, MEMBERS, moves=1)
    # The reader was at the last step: the new one is shown, with its caption and history.
    await page.wait_for_function(
        "() => document.getElementById('replay').dataset.last === '5'", timeout=SOON)
    await shown_step(page, 5)
    assert (await page.inner_text("#replay-caption")).startswith("Step 5 of 5")
    assert await page.is_visible("#live")
    assert "New move: step 5" in await page.inner_text("#live")
    assert await page.eval_on_selector_all('#history li.current[data-step="5"]',
                                           "l => l.length") >= 1
    assert await page.evaluate("document.getElementById('replay-slider').max") == "5"
    assert await page.evaluate("window.stayed === true")  # no reload
    await page.screenshot(path=str(screenshot_path(tmp_path, "live-move-1280.png")))
    await context.close()
    for _ in range(200):
        if not web.client.app[LIVE].streams:
            break
        await asyncio.sleep(0.05)
    assert web.client.app[LIVE].streams == 0  # the page's stream ended with it

    # A reader further back stays where they are and is offered the new step.
    phone = await browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
    page = await phone.new_page()
    await page.goto(url + "?step=2")
    await shown_step(page, 2)
    for _ in range(200):
        if web.client.app[LIVE].streams:
            break
        await page.wait_for_timeout(50)
    await finish(web.tables, table_id, MEMBERS, moves=1)
    await page.wait_for_selector("#live button", timeout=SOON)
    await page.wait_for_function(
        "() => document.getElementById('replay-caption').textContent.startsWith('Step 2 of 6')")
    await shown_step(page, 2)
    await page.click("#live button")
    await shown_step(page, 6)
    assert (await page.inner_text("#replay-caption")).startswith("Step 6 of 6")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    await phone.close()


async def test_the_chart_follows_the_replay_and_previews_name_the_board(
    web: Web, browser: Any, tmp_path: Path
) -> None:
    web.site.public_url = "https://games.example"
    table_id = await play(web.tables, "hadrians-wall", 81, (ALICE, BOB))
    public_id = await web.store.public_id("table", table_id)
    t = await web.site.replays.table(table_id, public_id)
    assert t is not None
    url = str(web.client.make_url(f"/t/{public_id}"))
    for width in (1280, 390):
        context = await browser.new_context(viewport={"width": width, "height": 844})
        page = await context.new_page()
        await page.goto(url)
        await shown_step(page, t.last)
        assert await page.is_visible("#chart svg")
        assert await page.eval_on_selector_all("#chart polyline.seat", "l => l.length") == 2
        chart = await page.evaluate(
            "(() => { const r = document.querySelector('#chart svg').getBoundingClientRect();"
            " return {w: r.width, right: r.right}; })()")
        assert chart["right"] <= width and chart["w"] > 200
        # The names at the lines' ends are readable: at least 10 px tall on screen.
        sizes = await page.eval_on_selector_all(
            "#chart text.who", "l => l.map(e => e.getBoundingClientRect().height)")
        assert sizes and min(sizes) >= 10, sizes
        at_end = await page.get_attribute("#chart-step", "x1")
        await page.click("#first")
        await shown_step(page, 0)
        assert await page.get_attribute("#chart-step", "x1") != at_end
        assert await page.evaluate("document.documentElement.scrollWidth") <= width
        await page.screenshot(path=str(screenshot_path(tmp_path, f"chart-{width}.png")),
                              full_page=True)
        await context.close()

    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(url)
    tags = await page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('meta[property^=\"og:\"]')]"
        ".map(m => [m.getAttribute('property'), m.content]))")
    assert tags["og:title"].startswith("Hadrian's Wall")
    assert "won" in tags["og:description"] and "Final scores" in tags["og:description"]
    assert tags["og:url"] == f"https://games.example/t/{public_id}"
    image = urlsplit(tags["og:image"])
    assert (image.scheme, image.netloc) == ("https", "games.example")
    assert image.path == f"/t/{public_id}/img/{t.last}-0.png"
    served = await page.request.get(str(web.client.make_url(f"{image.path}?{image.query}")))
    assert served.status == 200 and (await served.body()).startswith(b"\x89PNG")
    await context.close()
