"""Minerva's computer-player heuristic (see README, "Computer players").

A city is worth its score if the game ended now (the game's own breakdown: culture and glory
tiles, temples on their current neighbours, money and resources at one point per three, the
order tile), plus credit for what earns later: each facility and residence in the city (lines
that activate again), glory tokens (they win glory tiles), and money and resources a little
beyond their end value, since they pay for the next building. Money matters most: a player
who goes broke pays fees it cannot meet, so the credit for money never drops to nothing.
"""

from __future__ import annotations

from rules.core import Action
from rules.minerva.scoring import breakdown
from rules.minerva.state import MinervaState

SCALE = 6.0
BUDGETS = {"normal": (20, 2), "hard": (60, 2)}
KEEP = 8
ROUNDS = 6


def evaluate(state: MinervaState) -> tuple[float, ...]:
    from rules.minerva import GAME

    later = max(0, ROUNDS - state.round) / ROUNDS  # credit for the future fades with the rounds
    out = []
    for p in state.players:
        value = float(sum(breakdown(GAME.cat, state, p).values()))
        tiles = sum(1 for code in p.city.values() if code != "A")
        value += later * (0.8 * tiles + 0.4 * p.glory + 0.5 * p.reserve)
        value += (0.1 + 0.2 * later) * (p.money + sum(p.res))
        out.append(value)
    return tuple(out)


def candidates(state: MinervaState, seat: int, actions: list[Action]) -> list[Action]:
    if len(actions) <= 1:
        return actions
    from rules.minerva import GAME

    def key(action: Action) -> float:
        values = evaluate(GAME.apply(state, seat, action).state)
        others = [v for i, v in enumerate(values) if i != seat]
        return values[seat] - 0.5 * max(others, default=0.0)

    keyed = sorted(((key(a), i) for i, a in enumerate(actions)), key=lambda p: (-p[0], p[1]))
    return [actions[i] for _, i in keyed[:KEEP]]
