"""``/l/<public id>``: standings (image and table), rounds, results linking to their tables,
the CSV; names are text."""

from __future__ import annotations

import csv
import io
import re

from bot.leagues import Leagues
from bot.values import Member
from tests.bot.web.conftest import ALICE, BOB, GUILD, HOSTILE, Web, finish

ADMIN = Member(1, "Admin", is_admin=True)


async def league_with_a_game(web: Web) -> tuple[int, int]:
    leagues = Leagues(web.store)
    web.tables.live.on_over = leagues.recorder.record
    await leagues.create(GUILD, ADMIN, "Spring <i>Cup</i>", "minerva")
    for m in (ALICE, BOB, HOSTILE):
        await leagues.join(GUILD, m, "Spring <i>Cup</i>")
    league = await leagues.named(GUILD, "Spring <i>Cup</i>")
    opened = await web.tables.open("minerva", 1, ALICE, guild_id=GUILD, seat_order="join",
                                   seed="league-game", league="Spring <i>Cup</i>")
    await web.store.sanction_table(league.id, opened.table_id, ADMIN.id)  # its result counts
    for m in (BOB, HOSTILE):
        await web.tables.join(opened.table_id, m)
    await web.tables.start(opened.table_id, ALICE)
    await finish(web.tables, opened.table_id, (ALICE, BOB, HOSTILE))
    return league.id, opened.table_id


async def test_a_league_page_has_standings_results_and_the_csv(web: Web) -> None:
    league_id, table_id = await league_with_a_game(web)
    public_id = await web.store.public_id("league", league_id)
    r = await web.client.get(f"/l/{public_id}")
    assert r.status == 200
    page = await r.text()
    assert "Spring &lt;i&gt;Cup&lt;/i&gt;" in page and "<i>Cup" not in page
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    # The standings image is the link preview's (by the public address only).
    assert "<img" not in page and 'property="og:image"' not in page
    web.site.public_url = "https://games.example"
    page = await (await web.client.get(f"/l/{public_id}")).text()
    assert (f'<meta property="og:image" content="https://games.example/l/{public_id}'
            '/standings.png">') in page
    rows = re.findall(r"<tr><td>(\d+)</td><th scope=\"row\">", page)
    assert rows == ["1", "2", "3"]
    table_page = await web.store.public_id("table", table_id)
    assert f'href="/t/{table_page}"' in page
    assert (await web.client.get(f"/t/{table_page}")).status == 200
    r = await web.client.get(f"/l/{public_id}/standings.png")
    assert r.status == 200 and (await r.read()).startswith(b"\x89PNG")
    r = await web.client.get(f"/l/{public_id}/results.csv")
    assert r.status == 200 and r.content_type == "text/csv"
    found = list(csv.reader(io.StringIO(await r.text())))
    assert len(found) == 1 + 3 and str(table_id) in found[1]


async def test_a_league_page_lists_its_rounds(web: Web) -> None:
    league_id, table_id = await league_with_a_game(web)
    round_ = await web.store.add_round(league_id, None, {})
    await web.store.add_round_table(round_.id, table_id)
    public_id = await web.store.public_id("league", league_id)
    page = await (await web.client.get(f"/l/{public_id}")).text()
    assert 'id="rounds"' in page and "Round 1" in page


async def test_a_league_page_is_gone_when_pages_are_off(web: Web) -> None:
    league_id, _ = await league_with_a_game(web)
    public_id = await web.store.public_id("league", league_id)
    await web.store.set_web_pages(GUILD, False)
    for path in ("", "/standings.png", "/results.csv"):
        assert (await web.client.get(f"/l/{public_id}{path}")).status == 404


async def test_an_empty_league_says_so(web: Web) -> None:
    league_id = await web.store.create_league(GUILD, "Empty", "palermo", ALICE.id)
    page = await (await web.client.get(
        f"/l/{await web.store.public_id('league', league_id)}")).text()
    assert "Nobody has signed up yet." in page and "No game finished yet." in page
