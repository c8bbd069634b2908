"""Minerva's computer-player heuristic (see README, "Computer players").

A city is worth its score if the game ended now (the game's own breakdown: culture and glory
tiles, temples on their current neighbours, money and resources at one point per three, the
order tile), plus credit for what earns later: each facility and residence in the city (lines
that activate again), glory tokens (they win glory tiles), and money and resources a little
beyond their end value, since they pay for the next building. Money matters most: a player
who goes broke pays fees it cannot meet, so the credit for money never drops to nothing. A seat
that has not passed in the main phase is credited for the turns it still has: a pass gives them
up, which a short look-ahead (the pass income, the rivals' fees) would otherwise not see.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.core import Action
from rules.minerva import GAME
from rules.minerva.city import DIRECTIONS, line
from rules.minerva.components import CULTURE, RESOURCES
from rules.minerva.scoring import order_points, temple_score, temples_of
from rules.minerva.state import Cell, MinervaState, PlayerState
from rules.players.values import best_first, greedy_key

SCALE = 6.0
BUDGETS = {"normal": (12, 2), "hard": (60, 2)}
KEEP = 8
PLACES = 2  # places tried per tile on offer
ROUNDS = 6
FACILITY = 1.0  # an activated facility, plus its cost again in part
FACILITY_COST = 0.5
CULTURE_FACILITY = 2.0  # culture points win culture tiles, the main source of points
HOUSE = 0.8  # a residence still in the stack: a line to activate later
RESIDENCE = 0.3
ASSISTANT = 3.0
GLORY = 0.6  # a token until the round's glory tiles are given out
LINE = 1.0  # each activated tile of a line about to resolve
ORDER_FIRST = 0.3  # order tile 1 before the last round: first seat next round
TURNS = 1.0  # a seat not yet passed still has turns this round; a pass gives them up
PASS_GAP = 1.0  # an action this much better than passing rules the pass out


def _city_credit(codes: tuple[str, ...]) -> float:
    """What the buildings will still earn: an activated facility pays again every time a line
    reaches it (worth more the more it cost); a residence anchors lines and an assistant."""

    credit = 0.0
    for code in codes:
        if code in ("R", "A"):
            credit += RESIDENCE
        elif code == "F" or code in GAME.cat.temples:
            continue
        else:
            ttype = GAME.cat.code_type(code)
            if ttype is not None and ttype.timing == "activated":
                credit += (CULTURE_FACILITY if ttype.category == "culture" else FACILITY)
                credit += FACILITY_COST * sum(ttype.cost or ())
    return credit


CityValue = tuple[float, int, tuple[tuple[int, int], ...]]


@lru_cache(maxsize=4096)
def _city_value(cells: tuple[tuple[Cell, str], ...]) -> CityValue:
    """What a city's tiles give, kept per city: a searched move scores thousands of positions
    where most cities have not changed. The credit of ``_city_credit`` (its sum in the city's
    order, as floats depend on it), the temple points that depend on the city alone, and
    (VP each, resource index) of the temples that count a resource held."""
    city = dict(cells)
    fixed = 0
    by_resource = []
    p = PlayerState(money=0, res=[0] * len(RESOURCES), city=city)
    for cell, temple in temples_of(GAME.cat, p):
        if temple.area == "none":
            resource = temple.count.removeprefix("resource:")
            by_resource.append((temple.vp_each, RESOURCES.index(resource)))
        else:
            fixed += temple_score(GAME.cat, p, cell, temple)
    return _city_credit(tuple(city.values())), fixed, tuple(by_resource)


def _activated(city: dict[tuple[int, int], str], cells: Any) -> int:

    n = 0
    for cell in cells:
        ttype = GAME.cat.code_type(city.get(tuple(cell), ""))
        n += ttype is not None and ttype.timing == "activated"
    return n


def _pending(state: MinervaState) -> float:
    """An activation still to resolve is worth its line: the gains are about to come."""
    if not state.stack or state.phase != "main":
        return 0.0
    city = state.players[state.current].city
    top = state.stack[0]
    if top.get("k") == "dir":
        at = tuple(top["at"])
        return LINE * max(_activated(city, line(city, at, d)) for d in DIRECTIONS)
    return sum(LINE * _activated(city, f["cells"]) for f in state.stack if f.get("k") == "line")


def _culture_due(state: MinervaState) -> float:
    """Culture points of the turn so far win the top tile of a stack at the turn's end."""
    due = 0.0
    for stack, points in zip(CULTURE, state.points, strict=True):
        tiles = state.culture.get(stack)
        if points and tiles and points >= tiles[0][0]:
            due += tiles[0][1]
    return due


def _tile_points(p: PlayerState) -> int:
    """VP of the culture and glory tiles won."""
    points = 0
    for _, _, vp in p.culture_tiles:
        points += vp
    for _, _, won in p.glory_tiles:
        points += won
    return points


def evaluate(state: MinervaState) -> tuple[float, ...]:

    later = max(0, ROUNDS - state.round) / ROUNDS  # credit for the future fades with the rounds
    ahead = (ROUNDS + 1 - state.round) / ROUNDS  # rounds still to play, this one included
    last = state.round >= ROUNDS
    divisor = float(GAME.cat.const("end_money_divisor"))
    spend = 0.1 + 0.2 * later
    main = state.phase == "main"
    out = []
    for p in state.players:
        credit, temples, by_resource = _city_value(tuple(p.city.items()))
        if by_resource:
            temples += sum(vp * p.res[i] for vp, i in by_resource)
        wealth = p.money + sum(p.res)
        # The game's own breakdown (scoring.breakdown), the city's part kept per city. Money
        # counts at its exact rate (no floor, so a coin is never worth nothing), and an order
        # tile only in the last round: earlier ones are returned unscored.
        value = float(_tile_points(p) + temples)
        value += wealth / divisor
        value += order_points(GAME.cat, state, p) if last else (
            ORDER_FIRST if p.order == 1 else 0.0)
        value += ahead * (credit + HOUSE * p.houses)
        value += later * ASSISTANT * p.reserve
        value += GLORY * p.glory + spend * wealth
        value += TURNS if main and not p.passed else 0.0
        out.append(value)
    if state.phase == "main":
        out[state.current] += _pending(state) + _culture_due(state)
    return tuple(out)


def _thin(state: MinervaState, seat: int, actions: list[Action]) -> list[Action]:
    """Builds of the same tile differ only in where it goes: keep the two places with the most
    neighbours (more lines reach it, more tiles count for a temple)."""
    city = state.players[seat].city
    groups: dict[tuple[str, str], list[tuple[int, int, Action]]] = {}
    out: list[Action] = []
    nears: dict[tuple[int, int], int] = {}  # every tile on offer tries the same cells
    for i, a in enumerate(actions):
        if a.get("type") != "build" or "x" not in a:
            out.append(a)
            continue
        x, y = int(a["x"]), int(a["y"])
        near = nears.get((x, y))
        if near is None:
            near = nears[(x, y)] = sum((x + dx, y + dy) in city
                                       for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        groups.setdefault((str(a["tile"]), str(a.get("drop"))), []).append((-near, i, a))
    for group in groups.values():
        out.extend(a for _, _, a in sorted(group, key=lambda t: t[:2])[:PLACES])
    return out


def candidates(state: MinervaState, seat: int, actions: list[Action]) -> list[Action]:
    """The best actions by the game's scoring. Passing is dropped while another action gains
    ``PASS_GAP`` more: a short look-ahead sees the pass income and the rivals' fees at once,
    but not the turns a pass gives up, and stopped with free residences still to build."""
    if len(actions) <= 1:
        return actions

    if len(actions) > 2 * KEEP:
        actions = _thin(state, seat, actions)
    keys = {id(a): greedy_key(evaluate(GAME.apply(state, seat, a).state), seat)
            for a in actions}
    passing = [keys[id(a)] for a in actions if a.get("type") == "pass"]
    if passing and max(keys.values()) > passing[0] + PASS_GAP:
        actions = [a for a in actions if a.get("type") != "pass"]
    return best_first(actions, lambda a: keys[id(a)], KEEP)
