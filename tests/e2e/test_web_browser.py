"""The web pages in a real browser (Chromium, through Playwright): a game played through the
Discord stand-in is opened from its board's link and its replay stepped end to end (each
step's image compared with the render of that public view), the deadline shows in the
browser's time zone, a league page, a private link with a forged and an expired one, and a
hostile member name that stays text."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import rendering
from bot.config import WebSettings
from bot.leagues import Leagues
from bot.pace.clock import FakeClock, SystemClock, epoch
from bot.pace.model import make_timing
from bot.store import Store
from bot.tables import gamelog
from bot.values import Member as Player
from bot.web.links import Links
from bot.web.signing import Signer
from rules import GAMES
from rules.core import Rng
from tests.bot.web.conftest import ALICE, BOB, GUILD, Web, finish, play, web
from tests.bot.web.conftest import HOSTILE as HOSTILE_MEMBER
from tests.bot.web.conftest import SECRET as PAGES_SECRET
from tests.e2e.browser import browser, screenshot_path
from tests.e2e.harness import Table, play_to_the_end, table
from tests.e2e.test_bot_game import MAX_MOVES, open_and_start, play_move
from tests.e2e.web_harness import SECRET, links, web_settings
from tests.standin import StandIn

__all__ = ["browser", "web"]  # the fixtures

ZONE = "Asia/Tokyo"
HOSTILE = "<script>alert(1)</script>"
HOSTILE_LEAGUE = "<img src=x onerror=alert(2)> Cup"


async def public_views(store: Store, table_id: int) -> list[dict[str, Any]]:
    """Every public view of the table, replayed here from the seed and the log in force."""
    t = await store.get_table(table_id)
    assert t is not None
    game = GAMES[t.game_id]
    names = [s.name for s in await store.seats(table_id)]
    state = game.setup(len(names), t.seed, t.options)
    views = [{**game.view(state, None), "names": names}]
    for p in gamelog.effective(await store.actions(table_id)):
        state = game.apply(state, p.seat, p.action).state
        views.append({**game.view(state, None), "names": names})
    return views


async def loaded_image(page: Any, step: int) -> str:
    """The replay's first image once it shows ``step``."""
    await shown_step(page, step)
    src: str = await page.evaluate("document.getElementById('replay-image').src")
    return src


async def test_a_discord_game_replays_step_by_step_in_the_browser(
    standin: StandIn, tmp_path: Path, browser: Any
) -> None:
    web = web_settings()
    async with table(standin, tmp_path / "web.db", web=web) as t:
        board = await open_and_start(t, "palatinus")
        url = links(board)["Open on the web"]
        rng = Rng("browser")
        private = await hand_link(t)
        for step in range(MAX_MOVES):  # the whole game through slash commands and buttons
            if "Game over" in board.text:
                break
            board = await play_move(t, board, rng, step)
        assert "Game over" in board.text
        assert links(board)["Open on the web"] == url  # the final board links to it too
        latest = await t.bot.tables.store.latest_table(t.channel.id)
        assert latest is not None
        views = await public_views(t.bot.tables.store, latest.id)

        context = await browser.new_context(timezone_id=ZONE, locale="en-US",
                                            viewport={"width": 1000, "height": 1250})
        page = await context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: dialogs.append(d.message))
        await page.goto(url)
        assert await page.inner_text("h1") == "Palatinus"
        assert "Final scores" in await page.inner_text("#final")
        assert await page.get_attribute("#replay-file", "href") is not None
        assert await page.get_attribute("#replay", "data-ready") == "1"

        # Home on the slider, then the right arrow through every step: the image is that
        # step's render.
        await page.focus("#replay-slider")
        await page.keyboard.press("Home")
        await page.evaluate("document.activeElement.blur()")
        for step, view in enumerate(views):
            if step:
                await page.keyboard.press("ArrowRight")
            src = await loaded_image(page, step)
            assert f"/img/{step}-0.png" in src
            assert page.url.endswith(f"?step={step}#replay")
            assert (await page.inner_text("#replay-caption")).startswith(
                f"Step {step} of {len(views) - 1}")
            body = await (await context.request.get(src)).body()
            assert body == rendering.render_pngs("palatinus", view)[0], f"step {step}"
            if step == len(views) * 2 // 3:  # the README's picture: a board well under way
                await page.locator("#replay").scroll_into_view_if_needed()
                await page.screenshot(path=str(screenshot_path(tmp_path, "web-table.png")))
        await page.keyboard.press("ArrowRight")  # past the end: stays on the last step
        assert page.url.endswith(f"?step={len(views) - 1}#replay")

        # The slider and the buttons step too, and the address keeps the step.
        await page.fill("#replay-slider", "3")
        assert "/img/3-0.png" in await loaded_image(page, 3)
        await page.click("#prev")
        assert "/img/2-0.png" in await loaded_image(page, 2)
        await page.reload()
        assert "/img/2-0.png" in await loaded_image(page, 2)
        assert (await page.inner_text("#replay-caption")).startswith("Step 2 of")

        # The private link from /hand (taken at the start) shows the seat's view; forged and
        # expired ones do not.
        await page.goto(private)
        assert "your view" in await page.inner_text("h1")
        await page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        forged = private.replace("sig=", "sig=f")
        response = await page.goto(forged)
        assert response.status == 403
        assert "signature does not match" in await page.inner_text("main")
        public_id = url.rsplit("/", 1)[1]
        seat = int(private.split("/p/", 1)[1].split("/")[1].split("?")[0])
        signer = Signer(SECRET)
        old = signer.grant(public_id, seat, t.members["alice"].id,
                           epoch(SystemClock()) - 2 * signer.ttl)
        response = await page.goto(web.public_url + signer.path(old))
        assert response.status == 403 and "expired" in await page.inner_text("main")
        assert dialogs == []
        await context.close()


async def hand_link(t: Table) -> str:
    r = await t.standin.slash(t.members["alice"], t.channel, "hand", {})
    reply = await t.reply(r)
    assert reply.message is not None
    return links(reply.message)["My view on the web"]


async def test_deadline_league_and_a_hostile_name_in_the_browser(
    standin: StandIn, tmp_path: Path, browser: Any
) -> None:
    web = web_settings()
    async with table(standin, tmp_path / "web.db", web=web) as t:
        bot = t.bot
        alice = Player(t.members["alice"].id, "alice")
        hostile = Player(t.members["bob"].id, HOSTILE)
        admin = Player(t.members["admin"].id, "admin", is_admin=True)
        guild = t.guild.id
        # A paced table: whose turn, and the deadline in the reader's zone.
        paced = standin.add_channel(t.guild, "paced")
        opened = await bot.tables.open("palermo", paced.id, alice, guild_id=guild,
                                       seat_order="join")
        await bot.scheduler.set_timing(opened.table_id, make_timing("daily"), alice)
        await bot.tables.join(opened.table_id, hostile)
        await bot.tables.add_computer(opened.table_id, alice, "random")
        await bot.tables.start(opened.table_id, alice)
        turns = await bot.tables.store.open_turns(opened.table_id)
        due = next(turn.due_at for turn in turns.values() if turn.due_at)
        assert due is not None
        local = datetime.fromtimestamp(due, ZoneInfo(ZONE))

        context = await browser.new_context(timezone_id=ZONE, locale="en-US")
        page = await context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: dialogs.append(d.message))
        table_url = await bot.delivery.table_url(opened.table_id)
        assert table_url is not None
        await page.goto(table_url)
        shown = await page.inner_text("#turn time")
        # en-US as the browser's language: a 12-hour clock, the zone named by its offset.
        assert local.strftime("%b %-d, %Y, %I:%M %p GMT+9") in shown, shown
        assert ZONE in (await page.get_attribute("#turn time", "title") or "")
        utc = datetime.fromtimestamp(due, UTC)
        assert await page.get_attribute("#turn time", "datetime") == \
            utc.isoformat().replace("+00:00", "Z")
        # The hostile name is text on the page, never markup.
        assert HOSTILE in await page.inner_text("#seats")
        assert await page.evaluate("document.querySelectorAll('main script, main img[src=x]')"
                                   ".length") == 0

        # Without JavaScript the page still reads: the deadline in UTC, steps by links.
        plain = await browser.new_context(java_script_enabled=False)
        bare = await plain.new_page()
        await bare.goto(table_url)
        assert await bare.inner_text("#turn time") == f"{utc:%Y-%m-%d %H:%M} UTC"
        await bare.click("#first")
        assert bare.url.endswith("?step=0#replay")
        assert "Step 0 of" in await bare.inner_text("#replay-caption")
        await plain.close()

        # A league with a finished game: standings, results linking to the table.
        await bot.leagues.create(guild, admin, HOSTILE_LEAGUE, "palermo")
        for m in (alice, hostile):
            await bot.leagues.join(guild, m, HOSTILE_LEAGUE)
        played = standin.add_channel(t.guild, "league")
        game = await bot.tables.open("palermo", played.id, alice, guild_id=guild,
                                     seat_order="join", league=HOSTILE_LEAGUE)
        league = await bot.leagues.named(guild, HOSTILE_LEAGUE)
        await bot.tables.store.sanction_table(league.id, game.table_id, admin.id)  # it counts
        await bot.tables.join(game.table_id, hostile)
        await bot.tables.add_computer(game.table_id, alice, "random")
        await bot.tables.start(game.table_id, alice)
        await play_to_the_end(t, game.table_id, Rng("league"), FakeClock())
        league_url = await bot.delivery.links.league(league.id, guild)  # type: ignore[union-attr]
        assert league_url is not None
        await page.goto(league_url)
        assert await page.inner_text("h1") == HOSTILE_LEAGUE  # text, not an image
        rows = await page.locator("#standings-table tbody tr").all_inner_texts()
        assert len(rows) == 2 and any(HOSTILE in r for r in rows)
        await page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        await page.screenshot(path=str(screenshot_path(tmp_path, "web-league.png")),
                              full_page=True)
        csv = await context.request.get(await page.evaluate("document.getElementById('csv')"
                                                            ".href"))
        assert csv.status == 200 and "finished_at" in (await csv.text())
        await page.click("#results a")
        assert await page.inner_text("h1") == "Palermo"
        assert "Final scores" in await page.inner_text("#final")
        assert dialogs == []
        await context.close()


# The pages on a store of their own (no Discord): games played through the table use cases.

async def shown_step(page: Any, step: int) -> None:
    """Until the replay shows ``step`` and every image of it has loaded."""
    await page.wait_for_function(
        "(n) => { const box = document.getElementById('replay');"
        " return box.dataset.step === String(n) && [...box.querySelectorAll('img')]"
        ".every(i => i.complete && i.naturalWidth > 0); }", arg=step)


async def server_caption(web: Web, path: str, step: int) -> str:
    text = await (await web.client.get(path, params={"step": str(step)})).text()
    found = re.search(r'<p id="replay-caption"[^>]*>(.*?)</p>', text)
    assert found is not None
    return html.unescape(found.group(1))


async def test_the_script_steps_every_image_and_the_servers_caption(
    web: Web, browser: Any
) -> None:
    for game, members, moves in (("palatinus", (ALICE, BOB, HOSTILE_MEMBER), 8),
                                 ("minerva", (ALICE, BOB), 4)):
        table_id = await play(web.tables, game, 31 + len(members), members, moves=moves)
        public_id = await web.store.public_id("table", table_id)
        t = await web.site.replays.table(table_id, public_id)
        assert t is not None
        path = f"/t/{public_id}"
        context = await browser.new_context(viewport={"width": 1000, "height": 900})
        page = await context.new_page()
        await page.goto(str(web.client.make_url(path)) + "?step=0")
        await shown_step(page, 0)
        for step in range(t.last + 1):
            if step:
                await page.keyboard.press("ArrowRight")
                await shown_step(page, step)
            # The caption is the server's for the same ?step=, and so are the images.
            assert await page.inner_text("#replay-caption") == \
                await server_caption(web, path, step), step
            want = [f"{path}/img/{step}-{k}.png" for k in range(
                len(await web.site.replays.images(game, t.view(step), f"check:{step}")))]
            images = await page.eval_on_selector_all(
                "#replay-images img", "l => l.map(i => [i.getAttribute('src'), i.alt])")
            assert [src.split("?")[0] for src, _ in images] == want, step
            assert all(alt for _, alt in images)
            # The highlighted history lines are those of this step's move, and only those.
            current = await page.eval_on_selector_all(
                "#history li.current", "l => l.map(i => i.dataset.step)")
            lines = [s for s, _ in t.history if s == step]
            assert current == [str(step)] * len(lines), step
        assert any([s for s, _ in t.history].count(s) > 1 for s in range(1, t.last + 1)) \
            or game != "palatinus"  # the game had steps told in several lines
        await context.close()


async def test_only_plain_arrows_outside_form_fields_step_the_replay(
    web: Web, browser: Any
) -> None:
    table_id = await play(web.tables, "palermo", 32, (ALICE, BOB, HOSTILE_MEMBER), moves=6)
    public_id = await web.store.public_id("table", table_id)
    context = await browser.new_context(viewport={"width": 800, "height": 300})
    page = await context.new_page()
    await page.goto(str(web.client.make_url(f"/t/{public_id}")) + "?step=3")
    await shown_step(page, 3)
    await page.evaluate(
        "window.taken = []; window.addEventListener('keydown',"
        " e => window.taken.push(e.key + ':' + e.defaultPrevented))")

    async def press(key: str) -> str:
        """The step asked for (the slider and the address follow at once)."""
        await page.keyboard.press(key)
        step: str = await page.evaluate("document.getElementById('replay-slider').value")
        return step

    for key in ("Alt+ArrowLeft", "Alt+ArrowRight", "Control+ArrowLeft", "Shift+ArrowRight",
                "Meta+ArrowLeft", "Home", "End"):
        assert await press(key) == "3", key
        assert "step=3" in page.url
    taken = await page.evaluate("window.taken")
    assert all(t.endswith(":false") for t in taken), taken
    # End and Home scroll the page as they always do.
    await page.evaluate("window.scrollTo(0, 0)")
    await page.keyboard.press("End")
    await page.wait_for_function("() => window.scrollY > 0")
    await page.focus("#replay button")  # a form's control keeps its keys
    assert await press("ArrowRight") == "3"
    await page.focus("#replay-slider")  # the slider: arrows, Home and End step it
    assert await press("Home") == "0"
    await shown_step(page, 0)
    assert await press("End") == "6"
    await shown_step(page, 6)
    await page.evaluate("document.activeElement.blur()")
    assert await press("ArrowLeft") == "5"
    await shown_step(page, 5)
    assert page.url.endswith("?step=5#replay")
    await context.close()


LONG = ("Wolfgang" * 4, "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", "x" * 16 + "—" + "y" * 15)


async def test_no_page_is_wider_than_a_phone(web: Web, browser: Any) -> None:
    members = tuple(Player(400 + n, name) for n, name in enumerate(LONG))
    assert all(len(m.name) == 32 for m in members)
    leagues = Leagues(web.store)
    web.tables.live.on_over = leagues.recorder.record
    admin = Player(1, "Admin", is_admin=True)
    league_name = "L" * 32
    await leagues.create(GUILD, admin, league_name, "palermo")
    for m in members:
        await leagues.join(GUILD, m, league_name)
    league = await leagues.named(GUILD, league_name)
    opened = await web.tables.open("palermo", 33, members[0], guild_id=GUILD,
                                   seat_order="join", seed="phone", league=league_name)
    await web.store.sanction_table(league.id, opened.table_id, admin.id)
    for m in members[1:]:
        await web.tables.join(opened.table_id, m)
    await web.tables.start(opened.table_id, members[0])
    await finish(web.tables, opened.table_id, members)
    live = await play(web.tables, "palatinus", 34, members, moves=5, scheduler=web.scheduler)
    # An open round with that table playing: the league page shows whom it waits for.
    season = await web.store.start_season(league.id, None, 0.0)
    current = await web.store.add_round(league.id, season.id, {},
                                        deadline="2099-01-01T00:00:00+00:00")
    assert current is not None
    await web.store.add_round_table(current.id, live)
    table_page = await web.store.public_id("table", opened.table_id)
    private = await Links(web.store, WebSettings(public_url="https://g.example",
                                                 secret=PAGES_SECRET), web.clock).private(
        live, GUILD, 0, members[0].id)
    assert private is not None
    paths = ["/", f"/t/{table_page}", f"/t/{await web.store.public_id('table', live)}",
             f"/l/{await web.store.public_id('league', league.id)}",
             f"/l/{await web.store.public_id('league', league.id)}?season=all",
             private.removeprefix("https://g.example"), "/t/nothing"]
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    for path in paths:
        await page.goto(str(web.client.make_url(path)))
        await page.wait_for_function(
            "() => [...document.images].every(i => i.complete)")
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (path, width)
        if path.startswith("/l/") and "season" not in path:
            assert "waits for" in await page.inner_text("#progress")
        if path.startswith("/p/"):
            assert "Behind your screen" in await page.inner_text("#own-view-text")
    await context.close()
