"""Use cases of a table, on a temp-file store with the Pebbles test game."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re

import pytest

from bot.tables import Tables
from bot.values import Member, OutOfDate, TableError
from rules.__main__ import main as rules_cli
from rules.core import RulesError
from tests.conftest import ADMIN, ALICE, BOB, CAROL, MALLORY

CHANNEL = 5000


async def started(tables: Tables, *members: Member, options: dict | None = None) -> int:
    """A Pebbles table in join order, started; returns its id."""
    opened = await tables.open("pebbles", CHANNEL, members[0], options=options,
                               seat_order="join")
    for m in members[1:]:
        await tables.join((await tables.table_in(CHANNEL)).id, m)
    await tables.start((await tables.table_in(CHANNEL)).id, members[0])
    return opened.table_id


async def test_a_table_goes_from_lobby_to_the_end(tables: Tables) -> None:
    opened = await tables.open("pebbles", CHANNEL, ALICE, seat_order="join")
    assert "lobby" in opened.public_text
    await tables.join((await tables.table_in(CHANNEL)).id, BOB)
    notice = await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    table = await tables.table_for(opened.table_id)
    # Provably fair: the hash of the secret seed is announced, the seed itself is not.
    assert hashlib.sha256(table.seed.encode()).hexdigest() in notice.public_text
    assert table.seed not in notice.public_text
    assert {n.member_id for n in notice.private} == {ALICE.id, BOB.id}
    for _ in range(100):
        if notice.over:
            break
        mover = ALICE if notice.next_members == (ALICE.id,) else BOB
        notice = await tables.act(opened.table_id, mover, "hold")
    assert notice.over
    assert table.seed in notice.public_text
    assert "Game over" in notice.public_text
    # The ranking in a sentence ("Alice wins with 3 points; Bob is second with 1 point."),
    # never "1. Alice (3); 2. Bob (1)".
    assert re.search(r"\*\*Game over\.\*\* (Alice|Bob) (wins|and \w+ share first place) "
                     r"with \d+ points?", notice.public_text), notice.public_text
    assert "1. " not in notice.public_text.split("Game over", 1)[1]


async def test_every_seat_is_told_at_start_and_the_first_mover_is_mentioned(
    tables: Tables,
) -> None:
    await tables.open("pebbles", CHANNEL, ALICE, options={"first": 1}, seat_order="join")
    await tables.join((await tables.table_in(CHANNEL)).id, BOB)
    notice = await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    assert notice.next_members == (BOB.id,)
    hands = {n.member_id: n.view["hand"] for n in notice.private}
    assert len(hands[ALICE.id]) == 2 and len(hands[BOB.id]) == 2
    # The channel view never carries a hand.
    assert notice.public_view is not None and "hand" not in notice.public_view


async def test_one_live_game_per_channel(tables: Tables) -> None:
    await tables.open("pebbles", CHANNEL, ALICE)
    with pytest.raises(TableError, match="already has a game"):
        await tables.open("pebbles", CHANNEL, BOB)
    await tables.open("pebbles", CHANNEL + 1, BOB)


async def test_a_non_seated_member_cannot_act(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    with pytest.raises(TableError, match="do not have a seat"):
        await tables.act(table_id, MALLORY, "hold")


async def test_a_seated_member_out_of_turn_is_told_so(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    with pytest.raises(RulesError) as info:
        await tables.act(table_id, BOB, "hold")
    assert "not your turn" in str(info.value).lower()


async def test_a_wrong_move_out_of_turn_is_told_whose_turn_it_is(tables: Tables) -> None:
    """Not the hint for the move on turn (someone else's), nor a list of moves."""
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    for attempt in (tables.act(table_id, BOB, "zz 99"),
                    tables.propose(table_id, BOB, "zz 99")):
        with pytest.raises(TableError) as info:
            await attempt
        assert str(info.value) == "It is not your turn: it is Alice's turn."


async def test_two_concurrent_acts_on_the_same_version_apply_exactly_one(
    tables: Tables,
) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    version = (await tables.table_for(table_id)).version
    results = await asyncio.gather(
        tables.act(table_id, ALICE, "hold", idem_key="click-1", expected_version=version),
        tables.act(table_id, ALICE, "hold", idem_key="click-2", expected_version=version),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, OutOfDate)]
    assert len(applied) == 1 and len(refused) == 1
    log = await tables.store.actions(table_id)
    assert len(log) == 1
    assert (await tables.table_for(table_id)).version == version + 1


async def test_a_repeated_idempotency_key_applies_once(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, CAROL, options={"first": 0})
    first = await tables.act(table_id, ALICE, "hold", idem_key="interaction-77")
    again = await tables.act(table_id, ALICE, "hold", idem_key="interaction-77")
    assert not first.duplicate and again.duplicate
    assert len(await tables.store.actions(table_id)) == 1


async def test_a_stale_version_is_refused(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    old = (await tables.table_for(table_id)).version
    await tables.act(table_id, ALICE, "hold")
    with pytest.raises(OutOfDate, match="out of date"):
        await tables.act(table_id, BOB, "hold", expected_version=old)


async def test_undo_takes_back_your_own_last_move(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    await tables.act(table_id, ALICE, "hold")
    notice = await tables.undo((await tables.table_in(CHANNEL)).id, ALICE)
    assert notice.next_members == (ALICE.id,)
    history = await tables.history(CHANNEL)
    assert history == []


async def test_undo_is_refused_after_another_seat_acted(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    await tables.act(table_id, ALICE, "hold")
    await tables.act(table_id, BOB, "hold")
    with pytest.raises(TableError, match="your own last move"):
        await tables.undo((await tables.table_in(CHANNEL)).id, ALICE)


async def test_undo_is_refused_after_a_draw(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    card = (await tables.private_view(table_id, ALICE)).view["hand"][0]
    await tables.act(table_id, ALICE, f"play {card}")
    with pytest.raises(TableError, match="cannot be undone"):
        await tables.undo((await tables.table_in(CHANNEL)).id, ALICE)


async def test_computer_seats_play_until_a_human_must_act(tables: Tables) -> None:
    await tables.open("pebbles", CHANNEL, ALICE, options={"first": 1}, seat_order="join")
    await tables.add_computer((await tables.table_in(CHANNEL)).id, ALICE)
    await tables.add_computer((await tables.table_in(CHANNEL)).id, ALICE)
    notice = await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    assert notice.next_members == (ALICE.id,)
    assert len(await tables.history(CHANNEL)) == 2  # both computers moved


async def test_a_move_answered_by_computers_is_told_once_with_their_replies(
    tables: Tables,
) -> None:
    """The member's acknowledgement builds no private view and no board: the notice of the
    computers' replies tells the whole chain, from the latest state."""
    await tables.open("pebbles", CHANNEL, ALICE, options={"first": 0}, seat_order="join")
    table_id = (await tables.table_in(CHANNEL)).id
    await tables.add_computer(table_id, ALICE)
    await tables.start(table_id, ALICE)
    notice = await tables.act(table_id, ALICE, "hold", then_computers=False)
    assert notice.computers_due and notice.deferred == (0,)
    assert notice.private == () and notice.public_view is None
    later = await tables.run_computers(table_id, notice)
    assert later is not None and later.since == notice.since
    assert later.version == notice.version + 1 and later.public_view is not None
    assert later.public_text.startswith("Alice held.\nComputer 1") and later.deferred == ()


async def test_a_move_told_alone_after_all_gets_its_board_and_news(tables: Tables) -> None:
    """When something else answered first (a restart's catch-up), the member's notice goes
    out alone: with the board and the member's view of the latest state."""
    await tables.open("pebbles", CHANNEL, ALICE, options={"first": 0}, seat_order="join")
    table_id = (await tables.table_in(CHANNEL)).id
    await tables.add_computer(table_id, ALICE)
    await tables.start(table_id, ALICE)
    notice = await tables.act(table_id, ALICE, "hold", then_computers=False)
    assert await tables.run_computers(table_id) is not None  # not as a continuation
    assert await tables.run_computers(table_id, notice) is None  # nothing left to answer
    whole = await tables.complete(notice)
    assert whole.public_view is not None and whole.deferred == ()
    (mine,) = whole.private
    assert mine.member_id == ALICE.id and mine.version == notice.version + 1


async def test_only_the_creator_or_an_admin_may_abandon(tables: Tables) -> None:
    await started(tables, ALICE, BOB)
    with pytest.raises(TableError, match="creator or a server manager"):
        await tables.abandon((await tables.table_in(CHANNEL)).id, BOB)
    notice = await tables.abandon((await tables.table_in(CHANNEL)).id, ADMIN)
    assert notice.status == "abandoned"
    await tables.open("pebbles", CHANNEL, BOB)  # the channel is free again


async def test_lobby_rules(tables: Tables) -> None:
    await tables.open("pebbles", CHANNEL, ALICE, max_players=2)
    with pytest.raises(TableError, match="needs 2 to 4"):
        await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    await tables.join((await tables.table_in(CHANNEL)).id, BOB)
    with pytest.raises(TableError, match="already have a seat"):
        await tables.join((await tables.table_in(CHANNEL)).id, BOB)
    with pytest.raises(TableError, match="full"):
        await tables.join((await tables.table_in(CHANNEL)).id, CAROL)
    await tables.leave((await tables.table_in(CHANNEL)).id, BOB)
    with pytest.raises(TableError, match="creator or a server manager"):
        await tables.remove_seat((await tables.table_in(CHANNEL)).id, CAROL, 0)
    await tables.join((await tables.table_in(CHANNEL)).id, CAROL)
    notice = await tables.status((await tables.table_in(CHANNEL)).id)
    assert notice.data["seats"] == ["Alice", "Carol"]


async def test_unknown_options_are_refused_when_opening(tables: Tables) -> None:
    with pytest.raises(RulesError, match="Unknown option"):
        await tables.open("pebbles", CHANNEL, ALICE, options={"trns": 3})


async def test_the_export_replays_to_the_same_end(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB)
    notice = await tables.status((await tables.table_in(CHANNEL)).id)
    for _ in range(100):
        if notice.over:
            break
        mover = ALICE if notice.next_members == (ALICE.id,) else BOB
        legal = await tables.legal_moves(table_id, mover)
        notice = await tables.act(table_id, mover, legal[0])
    exported = await tables.export(CHANNEL)
    assert exported["seed"] == (await tables.table_for(table_id)).seed
    out = io.StringIO()
    code = rules_cli(["replay", "-"], stdin=io.StringIO(json.dumps(exported)), stdout=out)
    assert code == 0
    result = json.loads(out.getvalue())
    assert result["over"] is True
    assert notice.public_view is not None
    assert notice.public_view.pop("names") == ["Alice", "Bob"]
    assert result["view"] == notice.public_view
    assert result["outcome"]["scores"] == notice.public_view["outcome"]["scores"]


async def test_export_withholds_the_seed_and_actions_while_the_game_is_live(tables: Tables) -> None:
    await started(tables, ALICE, BOB)
    table_id = (await tables.table_in(CHANNEL)).id
    mover = ALICE if (await tables.status(table_id)).next_members == (ALICE.id,) else BOB
    card = (await tables.private_view(table_id, mover)).view["hand"][0]
    await tables.act(table_id, mover, f"play {card}")
    exported = await tables.export(CHANNEL)
    assert exported["seed"] is None and len(exported["seed_sha256"]) == 64
    # Neither the actions' JSON nor the card drawn may leak; the public log is there.
    assert exported["actions"] is None
    assert exported["public_log"] == [f"1. {mover.name} played {card}. "
                                      f"{mover.name} drew a card."]


async def test_different_tables_do_not_wait_for_each_other(tables: Tables) -> None:
    ids = []
    for n in range(4):
        await tables.open("pebbles", CHANNEL + n, ALICE, options={"first": 0}, seat_order="join")
        await tables.join((await tables.table_in(CHANNEL + n)).id, BOB)
        ids.append((await tables.start((await tables.table_in(CHANNEL + n)).id, ALICE)).table_id)
    results = await asyncio.gather(*(tables.act(t, ALICE, "hold") for t in ids))
    assert all(r.next_members == (BOB.id,) for r in results)


async def test_a_previewed_move_is_committed_once_on_confirm(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    proposal = await tables.propose(table_id, ALICE, "HOLD")
    assert proposal.text == "hold"
    assert len(await tables.store.actions(table_id)) == 0  # nothing committed yet
    results = await asyncio.gather(
        tables.confirm(proposal.pending_id, ALICE, idem_key="c1"),
        tables.confirm(proposal.pending_id, ALICE, idem_key="c2"),
        return_exceptions=True,
    )
    assert sum(1 for r in results if isinstance(r, OutOfDate)) == 1
    assert len(await tables.store.actions(table_id)) == 1


async def test_a_preview_goes_stale_when_the_table_moves_on(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    proposal = await tables.propose(table_id, ALICE, "hold")
    await tables.act(table_id, ALICE, "hold")
    await tables.act(table_id, BOB, "hold")
    with pytest.raises(OutOfDate, match="out of date"):
        await tables.confirm(proposal.pending_id, ALICE)


async def test_an_illegal_move_is_refused_before_any_preview(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    with pytest.raises(RulesError, match="You hold"):
        await tables.propose(table_id, ALICE, "play 99")


async def test_a_preview_never_shows_what_a_move_would_draw(tables: Tables) -> None:
    table_id = await started(tables, ALICE, BOB, options={"first": 0})
    hand = (await tables.private_view(table_id, ALICE)).view["hand"]
    proposal = await tables.propose(table_id, ALICE, f"play {hand[0]}")
    # Playing draws a card: the preview keeps the hand as it is, so no draw can be peeked at.
    assert proposal.hidden_result
    assert proposal.view["hand"] == hand
    assert "result once it counts" in proposal.description
    held = await tables.propose(table_id, ALICE, "hold")
    assert not held.hidden_result


async def test_a_hadrians_wall_player_hears_of_each_change_to_their_own_sheet(
    tables: Tables,
) -> None:
    # The rule: each player's sheets go to them by DM whenever they change.
    await tables.open("hadrians-wall", CHANNEL, ALICE, seat_order="join")
    await tables.join((await tables.table_in(CHANNEL)).id, BOB)
    notice = await tables.start((await tables.table_in(CHANNEL)).id, ALICE)
    by_id = {ALICE.id: ALICE, BOB.id: BOB}
    checked = 0
    for _ in range(200):
        if notice.over or checked >= 5:
            break
        mover = by_id[notice.next_members[0]]
        legal = await tables.legal_moves(notice.table_id, mover)
        before = (await tables.private_view(notice.table_id, mover)).view["own_sheet"]
        notice = await tables.act(notice.table_id, mover, legal[0])
        after = (await tables.private_view(notice.table_id, mover)).view["own_sheet"]
        if after != before:
            assert mover.id in {n.member_id for n in notice.private}
            checked += 1
    assert checked >= 5


async def test_only_recent_tables_keep_a_decoded_state(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.tables.live.CACHED_TABLES", 2)
    ids = []
    for n in range(4):
        await tables.open("pebbles", CHANNEL + n, ALICE, options={"first": 0}, seat_order="join")
        await tables.join((await tables.table_in(CHANNEL + n)).id, BOB)
        ids.append((await tables.start((await tables.table_in(CHANNEL + n)).id, ALICE)).table_id)
    assert tables.live.cached() == 2
    # A table whose state was dropped is read back from the store and plays on.
    notice = await tables.act(ids[0], ALICE, "hold")
    assert notice.next_members == (BOB.id,)


async def test_a_member_hears_of_their_own_move_as_their_turn_comes_again(
    tables: Tables,
) -> None:
    """Playing a card with the deck empty changes the player's hidden hand and tells nobody:
    no DM to the player who made the change, but their next turn brings their view."""
    table_id = await started(tables, ALICE, BOB, options={"first": 0, "deck": [1, 2, 3, 4]})
    notice = await tables.act(table_id, ALICE, "play 4")
    assert [p.member_id for p in notice.private] == []  # Alice made the change herself
    notice = await tables.act(table_id, BOB, "hold")
    (mine,) = notice.private
    assert mine.member_id == ALICE.id and 4 not in mine.view["hand"]
    notice = await tables.act(table_id, ALICE, "hold")
    notice = await tables.act(table_id, BOB, "hold")
    assert [p.member_id for p in notice.private] == []  # nothing new for Alice this time
