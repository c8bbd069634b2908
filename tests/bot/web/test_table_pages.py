"""``/t/<public id>``: the table's page, its replay images and file, and what is refused."""

from __future__ import annotations

import json
import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime

import rendering
from bot.pace.clock import epoch
from bot.store import TableRecord
from bot.tables import gamelog
from bot.values import Member
from rules import GAMES
from tests.bot.web.conftest import ALICE, BOB, GUILD, HOSTILE, Web, finish, play

CSP = "Content-Security-Policy"


async def replayed_views(web: Web, table: TableRecord) -> list[dict[str, object]]:
    """The public view after every step, replayed here from the seed and the log."""
    game = GAMES[table.game_id]
    seats = await web.store.seats(table.id)
    names = [s.name for s in seats]
    state = game.setup(len(seats), table.seed, table.options)
    views = [{**game.view(state, None), "names": names}]
    for p in gamelog.effective(await web.store.actions(table.id)):
        state = game.apply(state, p.seat, p.action).state
        views.append({**game.view(state, None), "names": names})
    return views


def as_json(views: list[dict[str, object]]) -> list[dict[str, object]]:
    """Views as JSON gives them back (tuples become lists): how pages keep them."""
    return [json.loads(json.dumps(v)) for v in views]


async def test_a_finished_game_shows_board_seats_scores_history_and_replay(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 1, (ALICE, HOSTILE, BOB))
    public_id = await web.store.public_id("table", table_id)
    r = await web.client.get(f"/t/{public_id}")
    assert r.status == 200 and r.content_type == "text/html"
    assert "default-src 'none'" in r.headers[CSP] and "script-src 'self'" in r.headers[CSP]
    page = await r.text()
    for section in ("seats", "final", "replay", "history"):
        assert f'id="{section}"' in page
    assert "This game is finished." in page
    assert f'href="/t/{public_id}/replay.json"' in page
    table = await web.store.get_table(table_id)
    assert table is not None
    last = len(await replayed_views(web, table)) - 1
    assert f'data-last="{last}"' in page and f'max="{last}"' in page
    # The final board once: the replay opens on it (no second copy above it).
    main = page.split("<main>", 1)[1]
    assert main.count(f"/t/{public_id}/img/{last}-0.png") == 1
    # Every move is told in the history (a line an event), with the step it led to.
    steps = {int(n) for n in re.findall(r'<li data-step="(\d+)">', page)}
    assert steps == set(range(1, last + 1))


async def test_a_hostile_name_is_text_everywhere_on_the_page(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 2, (HOSTILE, ALICE, BOB), moves=6)
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    assert "<script>alert" not in page and "<b>Co</b>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "Bob &amp; &lt;b&gt;Co&lt;/b&gt;" in page
    # The only scripts are the site's own files (the policy forbids inline ones anyway).
    assert re.findall(r"<script[^>]*>", page) == [
        '<script src="/static/local-time.js" defer>', '<script src="/static/replay.js" defer>',
        '<script src="/static/live.js" defer>']


async def test_each_step_image_is_the_render_of_that_public_view(web: Web) -> None:
    table_id = await play(web.tables, "minerva", 3, (ALICE, BOB), moves=8)
    public_id = await web.store.public_id("table", table_id)
    table = await web.store.get_table(table_id)
    assert table is not None
    views = await replayed_views(web, table)
    for step, view in enumerate(views):
        r = await web.client.get(f"/t/{public_id}/img/{step}-0.png")
        assert r.status == 200 and r.content_type == "image/png"
        assert await r.read() == rendering.render_pngs("minerva", view)[0]
    r = await web.client.get(f"/t/{public_id}/img/{len(views)}-0.png")
    assert r.status == 404


async def test_the_url_keeps_the_replay_step(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 4, (ALICE, BOB, HOSTILE), moves=5)
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}?step=2")).text()
    assert f'src="/t/{public_id}/img/2-0.png?v=' in page
    assert 'value="2"' in page
    # The caption names who moved (the history line without its number).
    assert re.search(r"Step 2 of 5: (Alice|Bob|&lt;script)", page)
    assert f'href="/t/{public_id}?step=1#replay"' in page  # previous
    assert f'href="/t/{public_id}?step=3#replay"' in page  # next
    page = await (await web.client.get(f"/t/{public_id}?step=99")).text()
    assert "Step 5 of 5:" in page  # past the end: the last step


async def test_a_live_game_hides_its_seed_and_replay_file(web: Web) -> None:
    table_id = await play(web.tables, "hadrians-wall", 5, (ALICE, BOB), moves=3,
                          seed="a-secret-seed")
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    assert "a-secret-seed" not in page and "replay.json" not in page
    assert 'id="final"' not in page
    r = await web.client.get(f"/t/{public_id}/replay.json")
    assert r.status == 404


async def test_a_finished_game_offers_its_replay_file(web: Web) -> None:
    table_id = await play(web.tables, "minerva", 6, (ALICE,), seed="solo")
    public_id = await web.store.public_id("table", table_id)
    r = await web.client.get(f"/t/{public_id}/replay.json")
    assert r.status == 200 and "attachment" in r.headers["Content-Disposition"]
    data = json.loads(await r.text())
    assert data["game"] == "minerva" and data["seed"] == "solo" and data["actions"]


async def test_whose_turn_and_the_deadline_as_a_time_element(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 7, (ALICE, BOB, HOSTILE), moves=1,
                          scheduler=web.scheduler)
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    turns = await web.store.open_turns(table_id)
    due = next(t.due_at for t in turns.values() if t.due_at)
    assert due is not None and due == epoch(web.clock) + 24 * 3600
    stamp = datetime.fromtimestamp(due, UTC)
    assert f'<time class="local" datetime="{stamp.isoformat().replace("+00:00", "Z")}">' \
        f'{stamp:%Y-%m-%d %H:%M} UTC</time>' in page
    assert 'id="turn"' in page


async def test_a_lobby_shows_its_seats_only(web: Web) -> None:
    opened = await web.tables.open("palatinus", 8, ALICE, guild_id=GUILD, seat_order="join")
    public_id = await web.store.public_id("table", opened.table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    assert "waiting for players" in page and "Alice" in page
    assert 'id="replay"' not in page and 'id="board"' not in page


async def test_unknown_ids_and_wrong_kinds_are_not_found(web: Web) -> None:
    league_id = await web.store.create_league(GUILD, "L", "palermo", ALICE.id)
    league_page = await web.store.public_id("league", league_id)
    for path in ("/t/nothing", f"/t/{league_page}", "/t/1", "/t/" + "x" * 300,
                 "/nowhere"):
        r = await web.client.get(path)
        assert r.status == 404, path
        assert CSP in r.headers


async def test_a_server_that_turned_its_pages_off_shows_none(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 9, (ALICE, BOB, Member(9, "C")), moves=2)
    public_id = await web.store.public_id("table", table_id)
    await web.store.set_web_pages(GUILD, False)
    r = await web.client.get(f"/t/{public_id}")
    assert r.status == 404 and "turned its web pages off" in await r.text()
    assert (await web.client.get(f"/t/{public_id}/img/0-0.png")).status == 404
    await web.store.set_web_pages(GUILD, True)
    assert (await web.client.get(f"/t/{public_id}")).status == 200


async def test_the_static_scripts_and_style_are_served(web: Web) -> None:
    for name, kind in (("replay.js", "javascript"), ("local-time.js", "javascript"),
                       ("style.css", "text/css")):
        r = await web.client.get(f"/static/{name}")
        assert r.status == 200 and kind in r.content_type
    assert (await web.client.get("/")).status == 200


async def test_a_replay_goes_on_from_where_it_was_and_starts_over_after_an_undo(
    web: Web
) -> None:
    table_id = await play(web.tables, "palermo", 10, (ALICE, BOB, HOSTILE), moves=3)
    public_id = await web.store.public_id("table", table_id)
    table = await web.store.get_table(table_id)
    assert table is not None
    first = await web.site.replays.table(table_id, public_id)
    assert first is not None and first.last == 3
    await finish(web.tables, table_id, (ALICE, BOB, HOSTILE), moves=2, seed="more")
    grown = await web.site.replays.table(table_id, public_id)
    assert grown is not None and grown.last == 5
    assert grown.packed[:4] == first.packed  # the first steps were not replayed again
    assert [grown.view(n) for n in range(6)] == as_json(await replayed_views(web, table))
    last = (await web.store.actions(table_id))[-1]
    mover = next(m for m in (ALICE, BOB, HOSTILE) if m.id == last.member_id)
    await web.tables.undo(table_id, mover)
    undone = await web.site.replays.table(table_id, public_id)
    assert undone is not None and undone.last == 4
    assert [undone.view(n) for n in range(5)] == as_json(await replayed_views(web, table))


async def test_replays_and_images_in_a_worker_process(web: Web) -> None:
    table_id = await play(web.tables, "minerva", 11, (ALICE, BOB), moves=4)
    public_id = await web.store.public_id("table", table_id)
    table = await web.store.get_table(table_id)
    assert table is not None
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        web.site.executor = pool
        web.site.use_store(web.store)
        assert (await web.client.get(f"/t/{public_id}")).status == 200
        r = await web.client.get(f"/t/{public_id}/img/2-0.png")
        assert await r.read() == rendering.render_pngs(
            "minerva", (await replayed_views(web, table))[2])[0]
