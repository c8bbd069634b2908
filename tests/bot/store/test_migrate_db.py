"""``python -m bot migrate-db``: SQLite to PostgreSQL, play on, back up; refusals write nothing."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main as bot_main
from bot.leagues import Leagues
from bot.pace.clock import FakeClock
from bot.pace.member import MemberSettings
from bot.pace.model import make_timing
from bot.pace.scheduler import paced
from bot.store import LeagueSettings, SqliteStore, Store, open_store
from bot.tables import Tables
from tests.conftest import ADMIN, ALICE, BOB, CAROL

ROOT = Path(__file__).resolve().parents[3]
GUILD = 42


async def migrate_db(source: Path, target: str) -> int:
    """``python -m bot migrate-db`` as its own thread runs it (it runs its own event loop)."""
    return await asyncio.to_thread(
        bot_main, ["migrate-db", "--from", str(source), "--to", target]
    )


async def everything(store: Store) -> dict[str, object]:
    """All a store holds, through its interface."""
    tables = await store.tables_with_status("lobby", "playing", "over", "abandoned")
    leagues = await store.leagues(GUILD)
    rounds = {x.id: await store.rounds(x.id) for x in leagues}
    return {
        "tables": tables,
        "seats": {t.id: await store.seats(t.id) for t in tables},
        "actions": {t.id: await store.actions(t.id) for t in tables},
        "forfeits": {t.id: await store.forfeits(t.id) for t in tables},
        "round of": {t.id: await store.round_of_table(t.id) for t in tables},
        "unannounced": await store.unannounced(),
        "leagues": leagues,
        "admin role": await store.league_admin_role(GUILD),
        "members": {x.id: await store.league_members(x.id, signed_up=False) for x in leagues},
        "seasons": {x.id: await store.seasons(x.id) for x in leagues},
        "rounds": rounds,
        "marks": {r.id: await store.round_marks(r.id) for rs in rounds.values() for r in rs},
        "seatings": {x.id: await store.league_seatings(x.id) for x in leagues},
        "results": await store.league_results(),
        "awaiting": await store.tables_awaiting_result(),
        "ratings": await store.all_ratings(),
        "finishes": sorted(await store.member_finishes(GUILD, [ALICE.id, BOB.id, CAROL.id])),
        # Asynchronous play: paces, clocks, turns with their deadlines, member settings.
        "timing": {t.id: await store.timing_in_force(t.id) for t in tables},
        "table clocks": {t.id: await store.table_clock(t.id) for t in tables},
        "seat clocks": {t.id: await store.seat_clocks(t.id) for t in tables},
        "turns": {t.id: await store.open_turns(t.id) for t in tables},
        "settings": await store.member_settings([ALICE.id, BOB.id, CAROL.id]),
        "waiting": {m.id: await store.waiting_turns(m.id) for m in (ALICE, BOB, CAROL)},
        # Web pages: an id made once stays (a new one would be a different random id).
        "page ids": {t.id: await store.public_id("table", t.id) for t in tables},
        "league page ids": {x.id: await store.public_id("league", x.id) for x in leagues},
        "pages on": await store.web_pages_on(GUILD),
    }


async def a_busy_sqlite_file(path: Path) -> tuple[dict[str, object], int, int]:
    """Tables in every state, a league with a season, sign-ups, a round, a forfeit, a stored
    result and ratings, an undo, a closed DM, a computer's level and a waiting preview.
    Returns what the store holds, the live table and the preview's id."""
    store = await SqliteStore.open(path)
    # Every change plans the table's turns.
    tables, scheduler = paced(store, FakeClock())
    await scheduler.save_settings(MemberSettings(ALICE.id, tz="Europe/Paris", dashboard=True))
    leagues = Leagues(store, tables.games)
    await leagues.create(GUILD, ADMIN, "Spring", "pebbles",
                         settings=LeagueSettings(channel_id=9, computers=True, carry=0.5))
    league = await store.league_named(GUILD, "Spring")
    assert league is not None
    await store.set_league_admin_role(GUILD, 5150)
    for member in (ALICE, BOB, CAROL):
        await store.join_league(league.id, member.id, member.name)
    await store.leave_league(league.id, CAROL.id)
    season = await store.start_season(league.id, "2031-01-31", 0.5)
    round_ = await store.add_round(league.id, season.id, {ALICE.id: 1.5, BOB.id: -0.25})
    # Over, in the league, a forfeit and its result recorded.
    opened = await tables.open("pebbles", 1, ALICE, guild_id=GUILD, league="Spring",
                               options={"first": 0, "turns": 1}, seat_order="join")
    await store.add_round_table(round_.id, opened.table_id)
    await tables.join(opened.table_id, BOB)
    notice = await tables.start(opened.table_id, ALICE)
    await store.add_forfeit(notice.table_id, 1, BOB.id, BOB.name, "time")
    notice = await tables.act(notice.table_id, ALICE, "hold")
    notice = await tables.act(notice.table_id, BOB, "hold")
    assert notice.over
    assert await leagues.recorder.record(notice.table_id) is not None
    # Live, with an undo, a closed DM and a preview waiting for Confirm.
    opened = await tables.open("pebbles", 2, ALICE, options={"first": 0, "turns": 50},
                               seat_order="join")
    live = opened.table_id
    await scheduler.set_timing(live, make_timing("daily"), ALICE)
    await tables.join(live, BOB)
    await tables.add_computer(live, ALICE, "easy")
    await tables.start(live, ALICE)
    await tables.act(live, ALICE, "hold", idem_key="i-1")
    await tables.act(live, BOB, "hold")
    await tables.act(live, ALICE, "hold")
    await tables.undo(live, ALICE)
    await tables.mark_dm_closed(live, BOB.id)
    await tables.mark_announced(live, 3)  # the later versions were never announced
    preview = await tables.propose(live, ALICE, "hold")
    assert await store.open_turns(live) and await store.seat_clocks(live)
    # A real game with computer seats, a lobby, an abandoned league table awaiting its result.
    opened = await tables.open("palatinus", 3, CAROL, seat_order="join")
    await tables.add_computer(opened.table_id, CAROL)
    await tables.start(opened.table_id, CAROL)
    await tables.open("pebbles", 4, CAROL)
    opened = await tables.open("pebbles", 5, BOB, guild_id=GUILD, league="Spring")
    await store.sanction_table(league.id, opened.table_id, ADMIN.id)
    await tables.abandon(opened.table_id, ADMIN)
    await store.set_web_pages(GUILD, False)
    held = await everything(store)
    await store.close()
    return held, live, preview.pending_id


async def test_sqlite_to_postgresql_then_play_on_then_back_up(
    tmp_path: Path, postgres_url: str, with_pebbles: None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tabula.db"
    before, live, preview = await a_busy_sqlite_file(source)
    assert before["results"] and before["ratings"] and before["awaiting"]
    assert before["unannounced"] and before["marks"] and before["forfeits"]
    assert await migrate_db(source, postgres_url) == 0
    out = capsys.readouterr().out
    assert "5 game_tables" in out and "2 live tables replay" in out

    store = await open_store(postgres_url)
    try:
        assert await everything(store) == before  # every record, ids and times included
        tables = Tables(store)
        # Play on: the preview still confirms, moves continue the log, new rows get new ids.
        await tables.confirm(preview, ALICE)
        await tables.act(live, BOB, "hold")  # and the computer seat after Bob
        # Keys recorded before the move still count.
        assert (await tables.act(live, ALICE, "hold", idem_key="i-1")).duplicate
        assert await store.add_pending(live, BOB.id, 0, {"type": "hold"}, "hold") > preview
        fresh = await tables.open("pebbles", 6, ALICE)
        assert fresh.table_id > max(t.id for t in before["tables"])  # type: ignore[attr-defined]
        league = await store.league_named(GUILD, "spring")
        assert league is not None
        assert (await store.add_round(league.id, None, {})).number == 2
        after = await everything(store)
        # Back up: the SQLite copy holds exactly what PostgreSQL holds.
        await store.backup(tmp_path / "backup.db")
    finally:
        await store.close()
    copy = await SqliteStore.open(tmp_path / "backup.db")
    try:
        assert await everything(copy) == after
        grown = len(after["actions"][live]) - len(before["actions"][live])  # type: ignore[index]
        assert grown == 3
        # The copy is a database to run on: new rows continue after the copied ids.
        assert await copy.add_pending(live, BOB.id, 0, {"type": "hold"}, "hold") > preview + 1
    finally:
        await copy.close()


async def test_a_non_empty_target_is_refused(
    tmp_path: Path, postgres_url: str, with_pebbles: None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tabula.db"
    await a_busy_sqlite_file(source)
    assert await migrate_db(source, postgres_url) == 0
    capsys.readouterr()
    assert await migrate_db(source, postgres_url) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err and "nothing was written" in err
    conn = await asyncpg.connect(postgres_url)
    assert await conn.fetchval("SELECT count(*) FROM game_tables") == 5
    await conn.close()


async def test_a_log_that_does_not_replay_writes_nothing(
    tmp_path: Path, postgres_url: str, with_pebbles: None, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "tabula.db"
    _, live, _ = await a_busy_sqlite_file(source)
    conn = sqlite3.connect(source)
    conn.execute("DELETE FROM actions WHERE table_id = ? AND kind = 'undo'", (live,))
    conn.commit()
    conn.close()
    assert await migrate_db(source, postgres_url) == 1
    err = capsys.readouterr().err
    assert f"Table {live} (pebbles): its log does not replay to its snapshot" in err
    pg = await asyncpg.connect(postgres_url)
    assert await pg.fetchval("SELECT count(*) FROM game_tables") == 0
    assert await pg.fetchval("SELECT count(*) FROM actions") == 0
    await pg.close()


def test_bad_arguments_get_one_line_and_a_failing_status(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cases = [
        (["--from", str(tmp_path / "missing.db"), "--to", "postgresql://u@127.0.0.1:1/x"],
         "There is no SQLite file"),
        (["--from", str(tmp_path / "missing.db"), "--to", str(tmp_path / "b.db")],
         "must be a postgresql:// URL"),
    ]
    (tmp_path / "here.db").write_bytes(b"")
    cases.append((["--from", str(tmp_path / "here.db"), "--to", "postgresql://u@127.0.0.1:1/x"],
                  "nothing was written"))
    for argv, words in cases:
        result = subprocess.run(
            [sys.executable, "-m", "bot", "migrate-db", *argv], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=60,
        )
        assert result.returncode == 1, result.stderr
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
