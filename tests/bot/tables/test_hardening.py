"""Regressions from the hardening pass: member text is data, private views are current,
previews belong to their owner and stay valid while the seat's own position is unchanged."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import rules
from bot.store import SqliteStore
from bot.tables import Tables
from bot.values import Member, OutOfDate, TableError
from rules import GAMES
from rules.core import Rng
from tests.conftest import ALICE, BOB, MALLORY
from tests.pebbles import GAME as PEBBLES

CHANNEL = 7000


@contextmanager
def with_game(game: object) -> Iterator[None]:
    rules.GAMES["pebbles"] = game  # type: ignore[assignment]
    try:
        yield
    finally:
        rules.GAMES.pop("pebbles", None)

HOSTILE_NAMES = [
    "{x.y}",
    "{p0:>50000000}",
    "{p0}",
    "{p1}{p0}{}",
    "{0}",
    "@everyone",
    "@here <@&123>",
    "**bold** _it_ `code` ||spoiler|| > quote",
    "zero\u200bwidth\u200d\u2060",
    "\u202eright-to-left\u202c",
    "a" * 32,
    "b" * 100,
    "\n\n\n",
]


async def _table_with(
    tables: Tables, *members: Member, game: str = "pebbles", **kw: object
) -> int:
    opened = await tables.open(game, CHANNEL, members[0], seat_order="join", **kw)
    for m in members[1:]:
        await tables.join((await tables.table_in(CHANNEL)).id, m)
    return opened.table_id


@pytest.mark.parametrize("name", HOSTILE_NAMES)
async def test_a_member_name_is_data_never_a_template(tables: Tables, name: str) -> None:
    odd = Member(555, name)
    table_id = await _table_with(tables, odd, BOB, options={"first": 0})
    notice = await tables.start((await tables.table_in(CHANNEL)).id, odd)
    texts = [notice.public_text,
             *(t for n in notice.private for t in (n.text, n.recap, n.state))]
    for text in texts:
        assert len(text) < 4_000
    # The name never expands into another player's name, and stays short.
    seated = await tables.seats(table_id)
    shown = next(s.name for s in seated if s.member_id == odd.id)
    assert len(shown) <= 32
    assert "\u202e" not in shown and "\u200b" not in shown
    if name == "{p0}":
        assert shown == "{p0}"
    moved = await tables.act(table_id, odd, "hold")
    assert len(moved.public_text) < 4_000
    undone = await tables.undo((await tables.table_in(CHANNEL)).id, odd)
    assert len(undone.public_text) < 4_000
    if name.strip() and "{p1}" in name:
        assert "Bob" not in undone.public_text


async def test_mentions_and_markdown_in_names_are_neutralised(tables: Tables) -> None:
    odd = Member(556, "@everyone **x**")
    await _table_with(tables, odd, BOB)
    notice = await tables.start((await tables.table_in(CHANNEL)).id, odd)
    assert "@everyone" not in notice.public_text
    assert "**x**" not in notice.public_text


async def test_private_views_are_of_the_latest_version_after_computer_moves(
    tables: Tables,
) -> None:
    table_id = await _table_with(tables, ALICE, options={"first": 0, "turns": 3})
    await tables.add_computer((await tables.table_in(CHANNEL)).id, ALICE)
    notice = await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    game = GAMES["pebbles"]
    for _ in range(3):
        if notice.over:
            break
        card = (await tables.legal_moves(table_id, ALICE))[0]
        notice = await tables.act(table_id, ALICE, card)
        assert notice.private, "a draw addressed to Alice reaches her"
        table = await tables.table_for(table_id)
        state = game.load(table.snapshot or {})
        for seat_notice in notice.private:
            expected = {**game.view(state, seat_notice.seat),
                        "names": seat_notice.view["names"]}
            assert seat_notice.view == expected


async def test_a_preview_is_checked_for_its_owner_before_it_is_used(tables: Tables) -> None:
    table_id = await _table_with(tables, ALICE, BOB, options={"first": 0})
    await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    proposal = await tables.propose(table_id, ALICE, "hold")
    with pytest.raises(TableError, match="another player"):
        await tables.confirm(proposal.pending_id, MALLORY)
    with pytest.raises(TableError, match="another player"):
        await tables.cancel(proposal.pending_id, MALLORY)
    notice = await tables.confirm(proposal.pending_id, ALICE)
    assert not notice.duplicate
    assert notice.version == proposal.version + 1


async def test_a_preview_stays_valid_while_the_seat_is_unchanged(tables: Tables) -> None:
    # Hadrian's Wall opens with both players choosing a path card at the same time.
    table_id = await _table_with(tables, ALICE, BOB, game="hadrians-wall")
    await tables.start(table_id, ALICE)
    alice_moves = await tables.legal_moves(table_id, ALICE)
    proposal = await tables.propose(table_id, ALICE, alice_moves[0])
    menu_print = await tables.seat_print(table_id, ALICE)
    bob_moves = await tables.legal_moves(table_id, BOB)
    await tables.act(table_id, BOB, bob_moves[0])
    # Bob's move changed the table, not what Alice sees or may do: her preview still counts.
    assert await tables.seat_print(table_id, ALICE) == menu_print
    notice = await tables.confirm(proposal.pending_id, ALICE)
    assert not notice.duplicate
    assert notice.version == proposal.version + 2


async def test_a_preview_goes_stale_when_the_seats_position_changes(tables: Tables) -> None:
    table_id = await _table_with(tables, ALICE, BOB, options={"first": 0})
    await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    proposal = await tables.propose(table_id, ALICE, "hold")
    card = (await tables.legal_moves(table_id, ALICE))[0]
    await tables.act(table_id, ALICE, card)  # her hand changes: the old preview is stale
    await tables.act(table_id, BOB, "hold")
    with pytest.raises(OutOfDate):
        await tables.confirm(proposal.pending_id, ALICE)


async def test_a_game_without_secrets_dms_a_seat_only_when_its_turn_comes(
    tables: Tables,
) -> None:
    carol = Member(103, "Carol")
    table_id = await _table_with(tables, ALICE, BOB, carol, game="palermo")
    notice = await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    by_id = {m.id: m for m in (ALICE, BOB, carol)}
    rng = Rng("palermo-dms")
    dms = turns_come = 0
    for _ in range(60):
        if notice.over or not notice.next_members:
            break
        mover = by_id[notice.next_members[0]]
        moves = await tables.legal_moves(table_id, mover)
        notice = await tables.act(table_id, mover, rng.choice(moves))
        turns_come += bool(set(notice.next_members) - {mover.id})
        for private in notice.private:
            dms += 1
            # Palermo hides nothing: a DM only when a seat's turn comes (with where it may
            # build, or where its pawn can end), never to the mover who is still on the move.
            assert private.member_id != mover.id or private.member_id in notice.next_members
            assert private.member_id in notice.next_members
    assert 0 < dms <= turns_come


async def test_a_committed_move_never_announced_is_caught_up_once(
    tables: Tables, tmp_path: Path
) -> None:
    table_id = await _table_with(tables, ALICE, BOB, options={"first": 0})
    started = await tables.start(table_id, ALICE)
    await tables.mark_announced(table_id, started.version)
    await tables.act(table_id, ALICE, "hold")
    await tables.act(table_id, BOB, "hold")
    # Neither move reached the channel (as after a crash between commit and post).
    fresh = Tables(tables.store)
    assert [t.id for t in await fresh.unannounced()] == [table_id]
    notice = await fresh.catch_up(table_id)
    # The latest version with the board; the one before is a missed version, told from the
    # log in a message of its own.
    assert notice is not None and notice.since == notice.version - 1 == started.version + 1
    assert "Bob held" in notice.public_text and "Alice held" not in notice.public_text
    assert await fresh.told_lines(table_id, started.version, notice.since) == ["Alice held."]
    await fresh.mark_announced(table_id, notice.version)
    assert await fresh.unannounced() == []
    assert await fresh.catch_up(table_id) is None


def test_kill_9_after_a_commit_leaves_the_move_to_announce(tmp_path: Path) -> None:
    """A process killed right after its commit (before any post): the move is there, and the
    next start finds it unannounced."""
    db = tmp_path / "crash.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.tables.crash_unannounced", str(db)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()  # printed after the commit returned
        assert line.startswith("COMMITTED "), line
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    version = int(line.split()[1])

    async def after_restart() -> None:
        store = await SqliteStore.open(db)
        try:
            fresh = Tables(store)
            [table] = await fresh.unannounced()
            assert table.version == version
            notice = await fresh.catch_up(table.id)
            assert notice is not None and "held" in notice.public_text
        finally:
            await store.close()

    with with_game(PEBBLES):
        asyncio.run(after_restart())
