"""Round end: gain assistants, gain glory, prepare the next round (spec §9.5 to §9.7, §11)."""

from __future__ import annotations

from rules.core import Action
from rules.minerva.components import Catalogue
from rules.minerva.economy import raise_money
from rules.minerva.state import MinervaState, PlayerState
from rules.words import counted

ROUND_TILE = "R"


def assistant_price(cat: Catalogue, p: PlayerState) -> tuple[int, int] | None:
    """(denarii, glory) for the next assistant, by assistants owned; None at the maximum."""
    owned = p.reserve + p.placed()
    if owned >= len(cat.assistant_prices):
        return None
    return cat.assistant_prices[owned]


def hire_actions(cat: Catalogue, p: PlayerState) -> list[Action]:
    price = assistant_price(cat, p)
    if price is None:
        return []
    denarii, glory = price
    out: list[Action] = []
    if p.money + sum(p.res) * int(cat.const("sell_price_per_resource")) >= denarii:
        out.append({"type": "hire", "pay": "denarii"})
    if p.glory >= glory:
        out.append({"type": "hire", "pay": "glory"})
    return out


def end_main_phase(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    s.stack = []
    if s.round < int(cat.const("rounds")):
        s.phase = "hire"
        # Highest order tile first; solitaire has a single buyer.
        s.hire_queue = sorted(range(s.n), key=lambda seat: -(s.players[seat].order or 0))
        _skip_unable(cat, s)
        if not s.hire_queue:
            _after_hire(cat, s, log)
    else:
        award_glory(cat, s, log)
        s.phase = "over"
        s.hire_queue = []
        log.append("the game is over")


def _skip_unable(cat: Catalogue, s: MinervaState) -> None:
    while s.hire_queue and not hire_actions(cat, s.players[s.hire_queue[0]]):
        s.hire_queue.pop(0)


def apply_hire(cat: Catalogue, s: MinervaState, seat: int, action: Action, log: list[str]) -> None:
    """Buy one assistant with money or glory, or decline (``done``)."""
    p = s.players[seat]
    if action["type"] == "hire":
        price = assistant_price(cat, p)
        assert price is not None
        if action["pay"] == "denarii":
            raise_money(cat, p, price[0], log)
            p.money -= price[0]
            log.insert(0, f"hired an assistant for {counted(price[0], 'denarius')}")
        else:
            p.glory -= price[1]
            log.insert(0, f"hired an assistant for {price[1]} glory")
        p.reserve += 1
    else:
        log.insert(0, "hired no assistant")
    s.hire_queue.pop(0)
    _skip_unable(cat, s)
    if not s.hire_queue:
        _after_hire(cat, s, log)


def _after_hire(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    award_glory(cat, s, log)
    prepare(cat, s, log)


def award_glory(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    """Glory tiles by glory tokens, ties to the lower order tile; solitaire against the round."""
    tiles = dict(cat.glory_tiles[s.round])
    winners: list[tuple[int, int]] = []  # (seat, rank)
    if s.solo:
        glory = s.players[0].glory
        if glory >= s.round and 1 in tiles:
            winners.append((0, 1))
        elif glory >= 1 and 2 in tiles:
            winners.append((0, 2))
    else:
        contenders = [seat for seat in range(s.n) if s.players[seat].glory >= 1]
        contenders.sort(key=lambda seat: (-s.players[seat].glory, s.players[seat].order or 0))
        winners = [(seat, rank) for rank, seat in enumerate(contenders, 1) if rank in tiles]
    for seat, rank in winners:
        s.players[seat].glory_tiles.append((s.round, rank, tiles[rank]))
        log.append(f"{{p{seat}}} gains glory tile {s.round}-{_ordinal(rank)} ({tiles[rank]} VP)")


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")


def prepare(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    """Return glory tokens and order tiles, then draw the next round's facilities."""
    holder = next((seat for seat, p in enumerate(s.players) if p.order == 1), 0)
    for p in s.players:
        p.glory = 0
        p.order = None
        p.passed = False
    s.passes = 0
    s.first = s.current = holder
    s.round += 1
    s.phase = "main"
    drawn = draw(s)
    log.append(f"round {s.round} begins with {drawn} new facilities")


def draw(s: MinervaState) -> int:
    """Draw to the next round tile (which leaves play); solitaire forms pairs (spec §11)."""
    count = 0
    if not s.solo:
        while s.deck:
            tile = s.deck.pop(0)
            if tile == ROUND_TILE:
                break
            s.offer.append(tile)
            count += 1
        return count
    while s.deck:
        first = s.deck.pop(0)
        if first == ROUND_TILE or not s.deck:
            break
        second = s.deck.pop(0)
        s.pairs.append([first, second])
        count += 1
        if second == ROUND_TILE:
            break
    return count
