"""A table's event stream (a new version said as it is stored, streams bounded per client) and
the score chart (a line per seat, its end the final score, none for a game without running
scores)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from unittest import mock

from aiohttp import ClientResponse

from bot.text import clean_name
from bot.web import live
from bot.web.chart import NAME_CHARS
from bot.web.live import LIVE
from bot.web.scores import scores_of
from bot.web.templates import esc
from rules import GAMES
from tests.bot.web.conftest import ALICE, BOB, HOSTILE, Web, finish, play

CSP = "Content-Security-Policy"
WAIT = 30.0


async def next_event(r: ClientResponse) -> dict[str, Any]:
    """The next event's data (comments and retry lines skipped)."""
    while True:
        line = (await asyncio.wait_for(r.content.readline(), WAIT)).decode()
        if line.startswith("data: "):
            found: dict[str, Any] = json.loads(line[6:])
            return found


async def test_a_tables_stream_says_each_new_version(web: Web) -> None:
    web.client.app[LIVE].poll = 0.02
    table_id = await play(web.tables, "palermo", 1, (ALICE, BOB, HOSTILE), moves=2)
    public_id = await web.store.public_id("table", table_id)
    r = await web.client.get(f"/t/{public_id}/events")
    assert r.status == 200 and r.content_type == "text/event-stream"
    assert CSP in r.headers and r.headers["Cache-Control"] == "no-store"
    first = await next_event(r)
    assert first == {"version": await web.store.table_version(table_id)}
    await finish(web.tables, table_id, (ALICE, BOB, HOSTILE), moves=1)
    second = await next_event(r)
    assert second == {"version": await web.store.table_version(table_id)}
    assert second["version"] > first["version"]
    r.close()


async def test_one_poller_per_table_and_streams_bounded_per_client(web: Web) -> None:
    web.client.app[LIVE].poll = 0.02
    table_id = await play(web.tables, "palermo", 2, (ALICE, BOB, HOSTILE), moves=2)
    public_id = await web.store.public_id("table", table_id)
    headers = {"X-Forwarded-For": "192.0.2.9"}
    with mock.patch.object(live, "PER_CLIENT", 2):
        opened = [await web.client.get(f"/t/{public_id}/events", headers=headers)
                  for _ in range(2)]
        for r in opened:
            await next_event(r)
        assert web.client.app[LIVE].streams == 2
        assert len(web.client.app[LIVE]._watches) == 1
        refused = await web.client.get(f"/t/{public_id}/events", headers=headers)
        assert refused.status == 503 and "Retry-After" in refused.headers
        assert CSP in refused.headers
        other = await web.client.get(f"/t/{public_id}/events",
                                     headers={"X-Forwarded-For": "192.0.2.10"})
        assert other.status == 200
        other.close()
        for r in opened:
            r.close()
    assert (await web.client.get("/t/nothing/events")).status == 404


def chart_of(page: str) -> str:
    return page.split('id="chart"', 1)[1].split("</section>", 1)[0]


async def test_the_score_chart_draws_each_seats_score_to_the_final_one(web: Web) -> None:
    table_id = await play(web.tables, "palermo", 3, (ALICE, BOB, HOSTILE))
    public_id = await web.store.public_id("table", table_id)
    t = await web.site.replays.table(table_id, public_id)
    assert t is not None and t.outcome is not None
    page = await (await web.client.get(f"/t/{public_id}")).text()
    chart = chart_of(page)
    lines = re.findall(r'<polyline class="seat" points="([^"]+)"', chart)
    assert len(lines) == 3
    assert all(len(points.split()) == t.last + 1 for points in lines)
    # Each line's end is labelled with the seat's name and final score.
    labels = re.findall(r'<text class="who"[^>]*>([^<]+)</text>', chart)
    assert sorted(labels) == sorted(
        f"{esc(clean_name(name, NAME_CHARS))} {score:g}"
        for name, score in zip(t.names, t.outcome.scores, strict=True))
    # The scores are the views': Palermo's table says each seat's score.
    view = t.view(t.last // 2)
    assert t.scores[t.last // 2] == tuple(float(s["score"]) for s in view["table"])
    assert t.scores[t.last] == tuple(float(x) for x in t.outcome.scores)
    # The step marker is at the step shown.
    assert 'id="chart-step"' in chart and "Scores over the game" in chart


async def test_a_game_without_running_scores_has_no_chart(web: Web) -> None:
    table_id = await play(web.tables, "palatinus", 4, (ALICE, BOB, HOSTILE))
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    assert 'id="chart"' not in page and 'id="final"' in page


def test_running_scores_are_read_from_the_public_view() -> None:
    game = GAMES["hadrians-wall"]
    state = game.setup(2, "scores")
    view = game.view(state, None)
    assert scores_of("hadrians-wall", view) == tuple(
        float(s["score"]["total"]) for s in view["sheets"])
    assert scores_of("palatinus", game.view(state, None)) is None
    assert scores_of("palatinus", {}, (3, 4.5)) == (3.0, 4.5)
