"""``economy.can_pay`` works out the sums of ``shortfall`` without its list: it must say the
same as paying by ``shortfall`` would (tokens held first, the missing ones in denarii, resources
the cost does not use sold), including for holdings a test may set below zero."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.minerva import GAME
from rules.minerva.economy import can_pay, shortfall
from rules.minerva.state import PlayerState


def _by_shortfall(p: PlayerState, cost: tuple[int, int, int, int], fee: int) -> bool:
    used, owed = shortfall(GAME.cat, p, cost)
    sell = int(GAME.cat.const("sell_price_per_resource"))
    return p.money + (sum(p.res) - sum(used)) * sell >= owed + fee


def test_can_pay_agrees_with_paying_by_shortfall() -> None:
    rng = Rng("can pay")
    answers = set()
    for _ in range(20_000):
        p = PlayerState(money=rng.randbelow(15) - 2, res=[rng.randbelow(8) - 1 for _ in range(4)])
        cost = (rng.randbelow(4), rng.randbelow(4), rng.randbelow(4), rng.randbelow(4))
        fee = rng.randbelow(3)
        answer = can_pay(GAME.cat, p, cost, fee)
        assert answer == _by_shortfall(p, cost, fee), (p, cost, fee)
        answers.add(answer)
    assert answers == {True, False}


def test_can_pay_refuses_a_cost_of_another_length() -> None:
    with pytest.raises(ValueError):
        can_pay(GAME.cat, PlayerState(money=5, res=[1, 1, 1]), (1, 0, 0, 0))
