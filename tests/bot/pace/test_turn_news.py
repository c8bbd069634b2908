"""What a member hears as play moves on: "since your last turn" as their turn comes, seats
changing hands in /history, the pace and policy read back, and where the mover is awaited next."""

from __future__ import annotations

from dataclasses import replace

from bot.pace.clock import epoch
from bot.pace.model import DAY, HOUR, make_timing
from bot.pace.status import status_lines
from bot.store import ActionRecord, NewAction, Status, Step
from bot.store.records import NewTurn, PlanInputs, PlanRequest, PlanRows
from bot.tables.moves import RECAP_LINES, recap
from rules.core import Rng
from tests.bot.pace.conftest import Stack
from tests.conftest import ALICE, BOB, CAROL

SINCE = "Since your last turn:"


def entry(version: int, seat: int, text: str, kind: str = "act", undoes: int | None = None
          ) -> ActionRecord:
    return ActionRecord(version, version, kind, seat, None, {}, text, False, undoes, None, "")


def test_a_recap_tells_one_event_a_line_and_keeps_the_latest() -> None:
    log = [entry(1, 1, "{p1} takes wood."), entry(2, 1, "{p1} builds.\nRound 2 begins."),
           entry(3, 0, "{p0} passes."), entry(4, 2, "{p2} scores 3. {p2} pays 1 denarius."),
           entry(5, 1, "{p1} moves to St. Anne's {p2} field.")]
    # Two events of one doer narrated on one line are two lines of the recap.
    assert recap(log, 0) == ["- {p1} takes wood.", "- {p1} builds.", "- Round 2 begins.",
                             "- {p2} scores 3.", "- {p2} pays 1 denarius.",
                             "- {p1} moves to St. Anne's {p2} field."]
    # A move taken back is not news.
    undone = [entry(1, 1, "{p1} takes wood."), entry(2, 1, "", kind="undo", undoes=1)]
    assert recap(undone, 0) == []
    many = [entry(v, 1 + v % 2, f"move {v}") for v in range(1, 40)]
    lines = recap(many, 0)
    assert len(lines) == RECAP_LINES + 1 and "earlier events: `/history`" in lines[0]
    assert lines[-1] == "- move 39"


async def test_a_seat_whose_turn_comes_hears_what_happened_since_its_last_move(
    stack: Stack,
) -> None:
    # Palermo DMs a seat as its turn comes (its reachable cells): the recap rides on it.
    opened = await stack.tables.open("palermo", 40, ALICE, seat_order="join", seed="recap")
    await stack.tables.join(opened.table_id, BOB)
    await stack.tables.join(opened.table_id, CAROL)
    notice = await stack.tables.start(opened.table_id, ALICE)
    by_id = {m.id: m for m in (ALICE, BOB, CAROL)}
    rng = Rng("recap")
    recaps = []
    for _ in range(40):
        if notice.over or not notice.next_members:
            break
        mover = by_id[notice.next_members[0]]
        notice = await stack.tables.act(opened.table_id, mover,
                                        rng.choice(await stack.tables.legal_moves(
                                            opened.table_id, mover)))
        for private in notice.private:
            assert SINCE not in private.text  # the recap rides apart from the news
            if SINCE in private.recap:
                assert private.member_id in notice.next_members
                recaps.append((private.member_id, private.recap))
    assert recaps, "no turn came with a recap"
    member, text = recaps[-1]
    listed = text.split(SINCE, 1)[1]
    others = [m.name for m in (ALICE, BOB, CAROL) if m.id != member]
    assert any(name in listed for name in others)
    assert "{p" not in text  # names filled in


async def test_history_shows_seats_changing_hands_and_who_held_them(stack: Stack) -> None:
    opened = await stack.tables.open("pebbles", 41, ALICE, options={"first": 0},
                                     seat_order="join")
    await stack.tables.join(opened.table_id, BOB)
    await stack.tables.start(opened.table_id, ALICE)
    await stack.tables.act(opened.table_id, ALICE, "hold")
    await stack.tables.act(opened.table_id, BOB, "hold")
    await stack.scheduler.substitute(opened.table_id, 1, CAROL, ALICE)
    await stack.tables.act(opened.table_id, ALICE, "hold")
    await stack.tables.act(opened.table_id, CAROL, "hold")
    lines = await stack.tables.history(41)
    assert lines[1] == "2. Bob held."  # a sentence, naming its player once
    assert lines[2] == "- Seat 2: Carol takes over from Bob."
    assert lines[4] == "4. Carol held."


async def test_status_shows_pace_policy_level_and_deadlines(stack: Stack) -> None:
    opened = await stack.tables.open("pebbles", 42, ALICE, options={"first": 0},
                                     seat_order="join")
    await stack.scheduler.set_timing(opened.table_id,
                                     make_timing("fast", policy="skip", level="easy"), ALICE)
    await stack.tables.join(opened.table_id, BOB)
    await stack.tables.start(opened.table_id, ALICE)
    text = await status_lines(stack.scheduler, opened.table_id)
    assert "1 h per move" in text and "`skip`" in text and "level easy" in text
    assert "1. Alice: deadline <t:" in text


async def test_the_mover_hears_of_their_next_waiting_table(stack: Stack) -> None:
    first = await stack.tables.open("pebbles", 43, ALICE, options={"first": 0},
                                    seat_order="join", guild_id=1)
    await stack.tables.join(first.table_id, BOB)
    await stack.tables.start(first.table_id, ALICE)
    stack.clock.advance(60)
    second = await stack.tables.open("pebbles", 44, CAROL, options={"first": 1},
                                     seat_order="join", guild_id=2)
    await stack.tables.join(second.table_id, ALICE)
    await stack.tables.start(second.table_id, CAROL)
    await stack.tables.act(first.table_id, ALICE, "hold")
    after = await stack.scheduler.next_waiting(ALICE.id, first.table_id)
    assert after is not None and after.table_id == second.table_id
    assert await stack.scheduler.next_waiting(BOB.id, first.table_id) is None


async def test_a_league_imposes_its_pace_on_its_tables(stack: Stack) -> None:
    league_id = await stack.store.create_league(7, "Spring", "pebbles", ALICE.id)
    await stack.scheduler.set_league_timing(league_id, make_timing("fast", level="random"))
    opened = await stack.tables.open("pebbles", 45, ALICE, options={"first": 0},
                                     seat_order="join", guild_id=7, league="Spring")
    # The table's own choice gives way to the league's.
    chosen = await stack.scheduler.set_timing(opened.table_id, make_timing("relaxed"), ALICE)
    assert chosen.period == HOUR
    await stack.tables.join(opened.table_id, BOB)
    notice = await stack.tables.start(opened.table_id, ALICE)
    assert notice.data["deadlines"] == {ALICE.id: epoch(stack.clock) + HOUR}
    assert "1 h per move" in await status_lines(stack.scheduler, opened.table_id)
    # Without a league pace, the table's own choice counts again (from its next move).
    await stack.scheduler.set_league_timing(league_id, None)
    assert (await stack.scheduler.timing(opened.table_id)).period == 3 * DAY


async def test_a_plan_that_fails_never_undoes_the_move(stack: Stack) -> None:
    store = stack.store
    table = await store.create_table(
        guild_id=None, channel_id=46, game_id="pebbles", creator_id=1, creator_name="A",
        options={}, max_players=None, seat_order="join", seed="s", seed_hash="h")
    await store.start(table.id, 0, [0], {"n": 0})
    good = NewTurn(0, 1, 2, 100, 200, None)
    bad = NewTurn(1, 2, 2, None, 200, None)  # type: ignore[arg-type]  # refused: NOT NULL

    def broken(inputs: PlanInputs) -> PlanRows:
        return PlanRows([], [good, bad], [])

    def fine(inputs: PlanInputs) -> PlanRows:
        return PlanRows([], [replace(good, since_version=3)], [])

    step = Step({"n": 1}, NewAction("act", 0, 1, {"type": "x"}), Status.PLAYING)
    version, after = await store.record_steps_planned(
        table.id, 1, [step], PlanRequest(table.id, (1,), 100, broken))
    assert (version, after) == (2, None)
    assert (await store.get_table(table.id)).version == 2  # type: ignore[union-attr]
    assert await store.open_turns(table.id) == {}  # the plan's own first write is undone
    _, made = await store.record_steps_planned(
        table.id, 2, [step], PlanRequest(table.id, (1,), 100, fine))
    assert made is not None and list(made) == [0] and made[0].since_version == 3
