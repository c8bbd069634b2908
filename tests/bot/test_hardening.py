"""Regressions from the hardening pass: member text is data, private views are current,
previews belong to their owner and stay valid while the seat's own position is unchanged."""

from __future__ import annotations

import pytest

from bot.tables import Tables
from bot.values import Member, OutOfDate, TableError
from rules import GAMES
from rules.core import Rng
from tests.conftest import ALICE, BOB, MALLORY

CHANNEL = 7000

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
        await tables.join(CHANNEL, m)
    return opened.table_id


@pytest.mark.parametrize("name", HOSTILE_NAMES)
async def test_a_member_name_is_data_never_a_template(tables: Tables, name: str) -> None:
    odd = Member(555, name)
    table_id = await _table_with(tables, odd, BOB, options={"first": 0})
    notice = await tables.start(CHANNEL, odd)
    texts = [notice.public_text, *(n.text for n in notice.private)]
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
    undone = await tables.undo(CHANNEL, odd)
    assert len(undone.public_text) < 4_000
    if name.strip() and "{p1}" in name:
        assert "Bob" not in undone.public_text


async def test_mentions_and_markdown_in_names_are_neutralised(tables: Tables) -> None:
    odd = Member(556, "@everyone **x**")
    await _table_with(tables, odd, BOB)
    notice = await tables.start(CHANNEL, odd)
    assert "@everyone" not in notice.public_text
    assert "**x**" not in notice.public_text


async def test_private_views_are_of_the_latest_version_after_computer_moves(
    tables: Tables,
) -> None:
    table_id = await _table_with(tables, ALICE, options={"first": 0, "turns": 3})
    await tables.add_computer(CHANNEL, ALICE)
    notice = await tables.start(CHANNEL, ALICE)
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
    await tables.start(CHANNEL, ALICE)
    proposal = await tables.propose(table_id, ALICE, "hold")
    with pytest.raises(TableError, match="another player"):
        await tables.confirm(proposal.pending_id, MALLORY)
    with pytest.raises(TableError, match="another player"):
        await tables.cancel(proposal.pending_id, MALLORY)
    notice = await tables.confirm(proposal.pending_id, ALICE)
    assert not notice.duplicate
    assert notice.version == proposal.version + 1


async def test_a_preview_stays_valid_while_the_seat_is_unchanged(tables: Tables) -> None:
    table_id = await _table_with(tables, ALICE, BOB, options={"first": 0})
    await tables.start(CHANNEL, ALICE)
    proposal = await tables.propose(table_id, ALICE, "hold")
    # Something changes the table version without touching Alice's seat.
    await tables.mark_dm_closed(table_id, BOB.id)
    table = await tables.table_for(table_id)
    await tables.store.set_status(table_id, "playing", table.version)
    notice = await tables.confirm(proposal.pending_id, ALICE)
    assert not notice.duplicate


async def test_a_preview_goes_stale_when_the_seats_position_changes(tables: Tables) -> None:
    table_id = await _table_with(tables, ALICE, BOB, options={"first": 0})
    await tables.start(CHANNEL, ALICE)
    proposal = await tables.propose(table_id, ALICE, "hold")
    await tables.act(table_id, ALICE, "hold")
    await tables.act(table_id, BOB, "hold")
    with pytest.raises(OutOfDate):
        await tables.confirm(proposal.pending_id, ALICE)


async def test_a_game_without_secrets_dms_a_seat_only_when_its_turn_comes(
    tables: Tables,
) -> None:
    carol = Member(103, "Carol")
    table_id = await _table_with(tables, ALICE, BOB, carol, game="palermo")
    notice = await tables.start(CHANNEL, ALICE)
    by_id = {m.id: m for m in (ALICE, BOB, carol)}
    rng = Rng("palermo-dms")
    dms = 0
    for _ in range(60):
        if notice.over or not notice.next_members:
            break
        mover = by_id[notice.next_members[0]]
        moves = await tables.legal_moves(table_id, mover)
        notice = await tables.act(table_id, mover, rng.choice(moves))
        for private in notice.private:
            dms += 1
            # Palermo hides nothing: a DM only when a seat's turn comes, never to the mover
            # who is still on the move.
            assert private.member_id != mover.id or private.member_id in notice.next_members
            assert private.member_id in notice.next_members
    assert dms < 40
