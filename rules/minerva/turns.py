"""The main phase: build a facility, build a residence, place an assistant, pass (spec §9.1 to
§9.4, §11 for the solitaire pairs).
"""

from __future__ import annotations

from rules.core import Action, IllegalAction
from rules.minerva.city import format_cell, frontier
from rules.minerva.components import RESOURCES, Catalogue, Cost
from rules.minerva.economy import can_pay, pay, raise_money
from rules.minerva.effects import advance, culture_check, tile_name
from rules.minerva.rounds import ROUND_TILE, end_main_phase
from rules.minerva.state import Cell, MinervaState, PlayerState


def fee_due(cat: Catalogue, s: MinervaState) -> int:
    """1 denarius before a build or activation once anyone has passed (not in solitaire)."""
    if s.solo or s.passes == 0:
        return 0
    return int(cat.const("action_fee_after_first_pass"))


def tile_key(cat: Catalogue, code: str) -> str:
    """The name a build action uses: the tile type, or the temple's key."""
    if code in cat.temples:
        return cat.temples[code].key
    ttype = cat.code_type(code)
    assert ttype is not None
    return ttype.key


def tile_cost(cat: Catalogue, code: str) -> Cost:
    if code in cat.temples:
        return cat.temples[code].cost
    ttype = cat.code_type(code)
    assert ttype is not None and ttype.cost is not None
    return ttype.cost


Choice = tuple[str, str, str | None]
_CHOICES: dict[tuple[object, ...], tuple[Catalogue, tuple[Choice, ...]]] = {}
_CHOICES_KEPT = 4096


def build_choices(cat: Catalogue, s: MinervaState) -> list[Choice]:
    """(tile key, physical tile, dropped partner) for each distinct build on offer."""
    # Kept per offer: checking each build of a searched move asks again for the same offer.
    key = (id(cat), s.solo, tuple(map(tuple, s.pairs)), tuple(s.offer), tuple(s.temples))
    kept = _CHOICES.get(key)
    if kept is not None and kept[0] is cat:
        return list(kept[1])
    out = _build_choices(cat, s)
    if len(_CHOICES) >= _CHOICES_KEPT:
        _CHOICES.clear()
    _CHOICES[key] = (cat, tuple(out))
    return out


def _build_choices(cat: Catalogue, s: MinervaState) -> list[Choice]:
    out: list[Choice] = []
    seen: set[tuple[str, str | None]] = set()

    def add(code: str, drop: str | None) -> None:
        key = (tile_key(cat, code), drop)
        if key not in seen:
            seen.add(key)
            out.append((key[0], code, drop))

    if s.solo:
        for first, second in s.pairs:
            if second == ROUND_TILE:
                add(first, "round")
            else:
                add(first, tile_key(cat, second))
                add(second, tile_key(cat, first))
    else:
        for code in s.offer:
            add(code, None)
    for code in s.temples:
        add(code, None)
    return out


def legal_main(cat: Catalogue, s: MinervaState, seat: int) -> list[Action]:
    p = s.players[seat]
    fee = fee_due(cat, s)
    cells = frontier(p.city)
    out: list[Action] = []
    for key, code, drop in build_choices(cat, s):
        if not can_pay(cat, p, tile_cost(cat, code), fee):
            continue
        for x, y in cells:
            action: Action = {"type": "build", "tile": key, "x": x, "y": y}
            if drop is not None:
                action["drop"] = drop
            out.append(action)
    if s.solo:
        out.extend(
            {"type": "coins", "drop": tile_key(cat, first)}
            for first, second in s.pairs if second == ROUND_TILE
        )
    can_fee = can_pay(cat, p, (0, 0, 0, 0), fee)
    if p.houses > 0 and can_fee:
        out.extend({"type": "residence", "x": x, "y": y} for x, y in cells)
    if p.reserve > 0 and can_fee:
        out.extend(
            {"type": "assistant", "x": x, "y": y}
            for (x, y), code in sorted(p.city.items(), key=lambda i: (i[0][1], i[0][0]))
            if code == "R"
        )
    out.append({"type": "pass"})
    return out


def _take_from_offer(cat: Catalogue, s: MinervaState, action: Action) -> str:
    """Remove the chosen tile (and in solitaire its partner) from the offer; return its id."""
    key, drop = action["tile"], action.get("drop")
    for i, code in enumerate(s.temples):
        if cat.temples[code].key == key:
            del s.temples[i]
            if s.temple_stack:
                s.temples.append(s.temple_stack.pop(0))
            return code
    if not s.solo:
        for i, code in enumerate(s.offer):
            if tile_key(cat, code) == key:
                del s.offer[i]
                return code
        raise IllegalAction("That tile is not on offer.")
    for i, (first, second) in enumerate(s.pairs):
        partner = "round" if second == ROUND_TILE else tile_key(cat, second)
        if tile_key(cat, first) == key and partner == drop:
            del s.pairs[i]
            s.removed += 1 if second != ROUND_TILE else 0
            return first
        if second != ROUND_TILE and tile_key(cat, second) == key and tile_key(cat, first) == drop:
            del s.pairs[i]
            s.removed += 1
            return second
    raise IllegalAction("That pair is not on offer.")


def _place(p: PlayerState, cell: Cell, code: str) -> None:
    if cell in p.city:
        raise IllegalAction("That cell is taken: build next to your city on an empty cell.")
    p.city[cell] = code


def apply_main(cat: Catalogue, s: MinervaState, action: Action, log: list[str]) -> None:
    """Apply a main-phase action already found among the legal ones."""
    p = s.players[s.current]
    kind = action["type"]
    if kind == "pass":
        _pass(cat, s, p, log)
        return
    fee = fee_due(cat, s)
    if kind == "build":
        code = _take_from_offer(cat, s, action)
        cell = (action["x"], action["y"])
        pay(cat, p, tile_cost(cat, code), fee, log)
        _place(p, cell, code)
        log.insert(0, f"built {tile_name(cat, code)} at {format_cell(cell)}")
        ttype = cat.code_type(code)
        if ttype is not None and ttype.timing == "when_built" and ttype.effect:
            log.append(f"the {ttype.name.lower()} takes effect at once")
            s.stack.append({"k": "eff", "type": ttype.key, "at": cell, "i": 0, "opt": True})
    elif kind == "coins":
        for i, (first, second) in enumerate(s.pairs):
            if second == ROUND_TILE and tile_key(cat, first) == action["drop"]:
                del s.pairs[i]
                s.removed += 1
                break
        coins = int(cat.const("solo_round_tile_coins"))
        p.money += coins
        log.insert(0, f"took the round tile's {coins} denarii and removed {action['drop']}")
    else:
        cell = (action["x"], action["y"])
        raise_money(cat, p, fee, log)
        p.money -= fee
        if kind == "residence":
            _place(p, cell, "R")
            p.houses -= 1
            log.insert(0, f"built a residence at {format_cell(cell)}")
        else:
            p.city[cell] = "A"
            p.reserve -= 1
            log.insert(0, f"placed an assistant at {format_cell(cell)}")
        if fee:
            log.append(f"paid the {fee} denarius fee")
        s.stack.append({"k": "dir", "at": cell})
    continue_turn(cat, s, log)


def continue_turn(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    """Resolve what needs no decision; when nothing is pending, the turn ends."""
    advance(cat, s, log)
    if s.stack:
        return
    culture_check(s, s.players[s.current], log)
    _next_turn(cat, s, log)


def _pass(cat: Catalogue, s: MinervaState, p: PlayerState, log: list[str]) -> None:
    if s.solo:
        log.append("passed: the main phase ends")
        end_main_phase(cat, s, log)
        return
    s.passes += 1
    p.order = s.passes
    p.passed = True
    log.append(f"passed and took order tile {p.order}")
    if s.passes == s.n:
        end_main_phase(cat, s, log)
    else:
        _next_turn(cat, s, log)


def _next_turn(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    """Clockwise to the next player still in the round; passed players gain 1 denarius."""
    income = int(cat.const("pass_income"))
    seat = s.current
    for _ in range(4 * s.n):  # bounded: someone has not passed when this is called
        seat = (seat + 1) % s.n
        q = s.players[seat]
        if not q.passed:
            s.current = seat
            return
        q.money += income
        log.append(f"{{p{seat}}} passes again and gains {income} denarius")
    raise AssertionError("no player left in the round")


def sell_actions(p: PlayerState) -> list[Action]:
    return [{"type": "sell", "resource": r} for i, r in enumerate(RESOURCES) if p.res[i] > 0]
