"""A standing answer: a member who is home in Palermo answers the police question once
("keep my stone from now on") and is not asked again for the rest of the game."""

from __future__ import annotations

from bot.tables import Tables
from bot.values import Member
from rules.core import Rng
from tests.conftest import ALICE, BOB, CAROL

CHANNEL = 8100


async def test_keep_from_now_on_answers_every_later_police_question(tables: Tables) -> None:
    opened = await tables.open("palermo", CHANNEL, ALICE, seat_order="join", seed="standing")
    table_id = opened.table_id
    await tables.join(table_id, BOB)
    await tables.join(table_id, CAROL)
    notice = await tables.start(table_id, ALICE)
    members: dict[int, Member] = {m.id: m for m in (ALICE, BOB, CAROL)}
    rng = Rng("standing")
    standing_set: set[int] = set()
    asked_after: list[int] = []
    for _ in range(4000):
        if notice.over:
            break
        mover = members[notice.next_members[0]]
        moves = await tables.legal_moves(table_id, mover)
        if "keep" in moves:
            if mover.id in standing_set:
                asked_after.append(mover.id)  # never: the answer is played for them
            notice = await tables.act(table_id, mover, "keep", always=True)
            standing_set.add(mover.id)
            continue
        # Head home when possible, so the game ends and members sit at home.
        choices = [m for m in moves if "home" in m] or moves
        notice = await tables.act(table_id, mover, choices[rng.randbelow(len(choices))])
    assert notice.over
    assert standing_set, "nobody was asked the police question"
    assert asked_after == []
    log = await tables.store.actions(table_id)
    kept = [a for a in log if (a.notation or "") == "keep"]
    assert len(kept) > len(standing_set)  # later answers were played by the standing answer
    assert {a.member_id for a in kept} <= standing_set


async def test_a_standing_answer_can_be_dropped(tables: Tables) -> None:
    opened = await tables.open("pebbles", CHANNEL, ALICE, seat_order="join",
                               options={"first": 0})
    await tables.join(opened.table_id, BOB)
    await tables.start(opened.table_id, ALICE)
    await tables.act(opened.table_id, ALICE, "hold", always=True)
    seats = await tables.seats(opened.table_id)
    assert seats[0].standing == "hold"
    assert await tables.drop_standing(opened.table_id, ALICE) == "hold"
    assert (await tables.seats(opened.table_id))[0].standing is None
