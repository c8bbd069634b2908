"""The replay pages as a person sees them in Chromium (issue 33): a finished game of each game
with its winner, board and controls at the top, the board and the moves side by side on a
desktop and stacked on a phone with touch-sized controls; history lines that open their step,
with and without the script; "Show" landing on the replay; the next step fetched ahead; a
league's season picker on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.web.conftest import ALICE, BOB, HOSTILE, Web, play, web
from tests.bot.web.test_replay_pages import league_with_seasons
from tests.e2e.browser import browser, screenshot_path
from tests.e2e.test_web_browser import shown_step

__all__ = ["browser", "web"]  # the fixtures

GAMES = (("palatinus", (ALICE, BOB, HOSTILE)), ("palermo", (ALICE, BOB, HOSTILE)),
         ("minerva", (ALICE, BOB)), ("hadrians-wall", (ALICE, BOB)))
BOX = "(s) => { const r = document.querySelector(s).getBoundingClientRect();" \
      " return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY," \
      " left: r.left, right: r.right, height: r.height}; }"


async def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = await page.evaluate(BOX, selector)
    return found


@pytest.mark.parametrize(("game", "members"), GAMES)
async def test_a_finished_game_reads_on_a_desktop_and_a_phone(
    web: Web, browser: Any, tmp_path: Path, game: str, members: tuple[Any, ...]
) -> None:
    table_id = await play(web.tables, game, 70, members)
    public_id = await web.store.public_id("table", table_id)
    url = str(web.client.make_url(f"/t/{public_id}"))

    desktop = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await desktop.new_page()
    await page.goto(url)
    t = await web.site.replays.table(table_id, public_id)
    assert t is not None
    await shown_step(page, t.last)
    # The winner, then the replay with its controls, within the first screen.
    assert (await box(page, "#winner"))["bottom"] < 800
    replay, history = await box(page, "#replay"), await box(page, "#history")
    assert replay["top"] < 600, replay
    controls, images = await box(page, "#replay nav"), await box(page, "#replay-images")
    assert controls["bottom"] <= images["top"] and controls["bottom"] < 800
    # The moves beside the board, scrolled in their own box to the step shown.
    assert history["left"] >= replay["right"] and history["top"] < replay["top"] + 100
    assert await page.evaluate(
        "(() => { const h = document.getElementById('history'), r = h.getBoundingClientRect(),"
        " l = h.querySelector('li.current').getBoundingClientRect();"
        " return l.top >= r.top && l.bottom <= r.bottom; })()")
    await page.screenshot(path=str(screenshot_path(tmp_path, f"replay-{game}-1280.png")))
    await desktop.close()

    phone = await browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
    page = await phone.new_page()
    await page.goto(url)
    await shown_step(page, t.last)
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    replay, history = await box(page, "#replay"), await box(page, "#history")
    assert history["top"] >= replay["bottom"]  # stacked: the moves below the board
    heights = await page.eval_on_selector_all(
        "#replay nav a, #replay button, #replay-slider",
        "l => l.map(e => e.getBoundingClientRect().height)")
    assert len(heights) == 6 and min(heights) >= 44, heights
    await page.screenshot(path=str(screenshot_path(tmp_path, f"replay-{game}-390.png")))
    await phone.close()


async def test_history_lines_open_their_step_and_the_next_step_is_fetched_ahead(
    web: Web, browser: Any
) -> None:
    table_id = await play(web.tables, "palermo", 71, (ALICE, BOB, HOSTILE), moves=8)
    public_id = await web.store.public_id("table", table_id)
    url = str(web.client.make_url(f"/t/{public_id}"))
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    await page.goto(url + "?step=3")
    await shown_step(page, 3)
    # The next step's images are asked for before anyone asks to see them.
    await page.wait_for_function(
        "(p) => performance.getEntriesByType('resource').some(e => e.name.includes(p))",
        arg=f"/t/{public_id}/img/4-0.png")
    await page.evaluate("window.stayed = true")
    await page.click('#history a[data-step="6"]')
    await shown_step(page, 6)
    assert page.url.endswith("?step=6#replay")
    assert await page.evaluate("window.stayed === true")  # in place, no reload
    assert (await page.inner_text("#replay-caption")).startswith("Step 6 of 8")
    current = await page.eval_on_selector_all("#history li.current", "l => l.length")
    assert current >= 1
    await context.close()

    # Without the script: the same links, and "Show" lands on the replay, not the top.
    plain = await browser.new_context(java_script_enabled=False,
                                      viewport={"width": 390, "height": 844})
    bare = await plain.new_page()
    await bare.goto(url)
    await bare.click('#history a[data-step="2"]')
    assert bare.url.endswith("?step=2#replay")
    assert (await bare.inner_text("#replay-caption")).startswith("Step 2 of 8")
    await bare.click("#replay button")
    assert bare.url.endswith("?step=2#replay")
    assert (await bare.inner_text("#replay-caption")).startswith("Step 2 of 8")
    await plain.close()


async def test_a_league_season_is_picked_on_a_phone(
    web: Web, browser: Any, tmp_path: Path
) -> None:
    public_id, table_page = await league_with_seasons(web)
    context = await browser.new_context(viewport={"width": 390, "height": 844},
                                        is_mobile=True, has_touch=True)
    page = await context.new_page()
    await page.goto(str(web.client.make_url(f"/l/{public_id}")))
    heights = await page.eval_on_selector_all(
        "#seasons a", "l => l.map(e => e.getBoundingClientRect().height)")
    assert len(heights) == 3 and min(heights) >= 44, heights
    # The latest season is the page's own: picked already.
    assert await page.get_attribute("#seasons a[aria-current=page]", "href") == (
        f"/l/{public_id}?season=2")
    assert "season 2" in await page.inner_text("#standings-title")
    assert "No game finished yet." in await page.inner_text("#results")
    await page.click("#seasons a >> text=Season 1")
    assert page.url.endswith("?season=1")
    assert "season 1" in await page.inner_text("#standings-title")
    assert await page.get_attribute("#results a", "href") == f"/t/{table_page}"
    await page.click("#seasons a >> text=All time")
    assert page.url.endswith("?season=all")
    assert await page.get_attribute("#results a", "href") == f"/t/{table_page}"
    await page.click("#seasons a >> text=Season 1")
    await page.wait_for_function("() => [...document.images].every(i => i.complete)")
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await page.screenshot(path=str(screenshot_path(tmp_path, "league-season-390.png")),
                          full_page=True)
    await context.close()


SWIPE = """([x0, y0, x1, y1]) => {
  const el = document.getElementById('replay-images');
  const at = (x, y) => new Touch({identifier: 1, target: el, clientX: x, clientY: y});
  el.dispatchEvent(new TouchEvent('touchstart', {touches: [at(x0, y0)],
                                                 changedTouches: [at(x0, y0)], bubbles: true}));
  el.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [at(x1, y1)],
                                               bubbles: true}));
}"""


async def test_a_swipe_on_the_board_steps_the_replay_on_a_phone(web: Web, browser: Any) -> None:
    table_id = await play(web.tables, "palermo", 72, (ALICE, BOB, HOSTILE), moves=6)
    public_id = await web.store.public_id("table", table_id)
    context = await browser.new_context(viewport={"width": 390, "height": 844},
                                        is_mobile=True, has_touch=True)
    page = await context.new_page()
    await page.goto(str(web.client.make_url(f"/t/{public_id}?step=3")))
    await shown_step(page, 3)
    await page.evaluate(SWIPE, [300, 300, 100, 310])  # right to left: the next step
    await shown_step(page, 4)
    await page.evaluate(SWIPE, [100, 300, 300, 290])  # left to right: back one
    await shown_step(page, 3)
    await page.evaluate(SWIPE, [200, 200, 230, 420])  # mostly down: a scroll, no step
    await page.wait_for_timeout(300)
    assert await page.evaluate("document.getElementById('replay').dataset.step") == "3"
    await context.close()
