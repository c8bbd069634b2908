"""``/healthz`` follows the store (and the gateway in the bot's process); ``/metrics`` parses
as Prometheus text and its counters move with a game; clients are rate limited."""

from __future__ import annotations

from pathlib import Path

import asyncpg
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot.store import SqliteStore, open_store
from bot.web.context import Limits, Site
from bot.web.limits import Buckets
from bot.web.server import make_app
from tests.bot.web.conftest import ALICE, BOB, HOSTILE, Web, play
from tests.pg_server import DATABASE, schema_of, with_database


async def test_healthz_is_503_while_the_store_is_gone_and_200_again_after(
    web: Web, tmp_path: Path
) -> None:
    r = await web.client.get("/healthz")
    assert r.status == 200 and await r.text() == "ok\n"
    await web.store.close()
    r = await web.client.get("/healthz")
    assert r.status == 503 and "the store does not answer" in await r.text()
    web.site.use_store(await SqliteStore.open(tmp_path / "web.db"))
    r = await web.client.get("/healthz")
    assert r.status == 200


async def test_healthz_is_503_while_the_gateway_is_down(web: Web) -> None:
    down: list[str | None] = ["disconnected, reconnecting"]
    web.site.gateway_down = lambda: down[0]
    r = await web.client.get("/healthz")
    assert r.status == 503
    assert "Discord gateway is not connected (disconnected, reconnecting)" in await r.text()
    down[0] = None
    assert (await web.client.get("/healthz")).status == 200


def samples(text: str) -> dict[str, float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if not sample.labels:  # counters, gauges, a histogram's count and sum
                found[sample.name] = sample.value
    return found


async def test_metrics_parse_and_move_with_a_game(web: Web) -> None:
    web.site.gateway_latency = lambda: 0.125
    r = await web.client.get("/metrics")
    assert r.status == 200 and r.content_type == "text/plain"
    before = samples(await r.text())
    for name in ("tabula_moves_committed_total", "tabula_act_seconds_count",
                 "tabula_renders_total", "tabula_render_seconds_count",
                 "tabula_deadlines_fired_total", "tabula_reminders_sent_total",
                 "tabula_dms_refused_total", "tabula_live_tables"):
        assert name in before, name
    assert before["tabula_gateway_latency_seconds"] == 0.125
    table_id = await play(web.tables, "palermo", 1, (ALICE, BOB, HOSTILE), moves=4,
                          scheduler=web.scheduler)
    public_id = await web.store.public_id("table", table_id)
    assert (await web.client.get(f"/t/{public_id}/img/1-0.png")).status == 200
    web.clock.advance(23 * 3600)  # an hour before the deadline: the reminder
    await web.scheduler.tick()
    web.clock.advance(3600 + 1)  # the deadline
    await web.scheduler.tick()
    after = samples(await (await web.client.get("/metrics")).text())
    assert after["tabula_moves_committed_total"] >= before["tabula_moves_committed_total"] + 4
    assert after["tabula_act_seconds_count"] >= before["tabula_act_seconds_count"] + 4
    assert after["tabula_renders_total"] >= before["tabula_renders_total"] + 1
    assert after["tabula_deadlines_fired_total"] >= before["tabula_deadlines_fired_total"] + 1
    assert after["tabula_reminders_sent_total"] >= before["tabula_reminders_sent_total"] + 1
    assert after["tabula_live_tables"] == 1


async def test_a_client_over_its_limit_waits_and_others_do_not(web: Web) -> None:
    web.site.limits = Limits(burst=3, rate=0.5)
    for _ in range(3):
        assert (await web.client.get("/healthz")).status == 200
    r = await web.client.get("/healthz")
    assert r.status == 429 and int(r.headers["Retry-After"]) >= 1
    assert "Content-Security-Policy" in r.headers
    # Behind a proxy on this machine, each forwarded client has a bucket of its own.
    r = await web.client.get("/healthz", headers={"X-Forwarded-For": "203.0.113.9"})
    assert r.status == 200


def test_a_bucket_refills_with_time() -> None:
    now = [0.0]
    buckets = Buckets(lambda: now[0])
    assert [buckets.take("a", 2, 1.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    assert buckets.take("b", 2, 1.0) == 0.0
    now[0] = 1.0
    assert buckets.take("a", 2, 1.0) == 0.0
    assert buckets.take("a", 2, 1.0) > 0


async def test_healthz_follows_a_postgresql_database_that_goes_and_comes_back(
    postgres_url: str,
) -> None:
    store = await open_store(postgres_url)
    client = TestClient(TestServer(make_app(Site(store))))
    await client.start_server()
    schema = schema_of(postgres_url)
    admin = await asyncpg.connect(with_database(postgres_url, DATABASE))
    try:
        assert (await client.get("/healthz")).status == 200
        await admin.execute(f"ALTER SCHEMA {schema} RENAME TO {schema}_away")
        r = await client.get("/healthz")
        assert r.status == 503 and "the store does not answer" in await r.text()
        await admin.execute(f"ALTER SCHEMA {schema}_away RENAME TO {schema}")
        assert (await client.get("/healthz")).status == 200
    finally:
        await admin.close()
        await client.close()
        await store.close()
