"""Money and resources: gains with the 6-per-type cap, costs, substitution and selling
(spec §2, §9.2, §10.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.minerva.components import CULTURE, RESOURCES, Catalogue, Cost
from rules.minerva.state import PlayerState
from rules.words import counted, signed

R_INDEX = {r: i for i, r in enumerate(RESOURCES)}
C_INDEX = {c: i for i, c in enumerate(CULTURE)}


def gain(
    cat: Catalogue, p: PlayerState, points: list[int], key: str, n: int, log: list[str]
) -> None:
    """Add ``n`` of ``key``; a resource above the cap is discarded at once for 1 denarius each."""
    if n <= 0:
        return
    if key in R_INDEX:
        i = R_INDEX[key]
        p.res[i] += n
        cap = int(cat.const("resource_cap_per_type"))
        if p.res[i] > cap:
            extra = p.res[i] - cap
            p.res[i] = cap
            refund = extra * int(cat.const("overflow_refund_per_token"))
            p.money += refund
            log.append(f"{extra} {key} over the cap of {cap} returned for "
                       f"{counted(refund, 'denarius')}")
    elif key == "denarii":
        p.money += n
    elif key == "glory":
        p.glory += n
    else:
        points[C_INDEX[key]] += n


def gain_all(
    cat: Catalogue, p: PlayerState, points: list[int], amounts: Mapping[str, int],
    times: int, log: list[str],
) -> None:
    """Add ``amounts`` ``times`` over and say what was gained (``+2 grain, +1 art point``)."""
    gained = [(key, value * times) for key, value in amounts.items() if value * times > 0]
    for key, n in gained:
        gain(cat, p, points, key, n, log)
    if gained:
        log.append(", ".join(gained_text(key, n) for key, n in gained))


def gained_text(key: str, n: int) -> str:
    """``+2 grain``, ``+1 denarius``, ``+3 art points`` (culture keys count points)."""
    if key in C_INDEX:
        return signed(n, key + " point")
    if key == "denarii":
        return signed(n, "denarius")
    return f"+{n} {key}"


def holding(p: PlayerState, key: str) -> int:
    if key in R_INDEX:
        return p.res[R_INDEX[key]]
    if key == "denarii":
        return p.money
    if key == "glory":
        return p.glory
    return 0


def take(p: PlayerState, key: str, n: int) -> None:
    if key in R_INDEX:
        p.res[R_INDEX[key]] -= n
    elif key == "denarii":
        p.money -= n
    elif key == "glory":
        p.glory -= n


def sell(cat: Catalogue, p: PlayerState, resource: str) -> None:
    p.res[R_INDEX[resource]] -= 1
    p.money += int(cat.const("sell_price_per_resource"))


def shortfall(cat: Catalogue, p: PlayerState, cost: Cost) -> tuple[list[int], int]:
    """Tokens used per type and the denarii owed for the missing ones (held tokens must be used)."""
    used = [min(have, need) for have, need in zip(p.res, cost, strict=True)]
    missing = sum(cost) - sum(used)
    return used, missing * int(cat.const("substitute_cost_per_missing_resource"))


def can_pay(cat: Catalogue, p: PlayerState, cost: Cost, fee: int = 0) -> bool:
    """Payable now or after selling resources the cost does not use."""
    if len(p.res) != len(cost):
        shortfall(cat, p, cost)  # raises, as a list of tokens of another length should
    # ``shortfall``'s sums, without its list: every build a searched move lists is checked.
    used = sum(map(min, p.res, cost))
    owed = (sum(cost) - used) * int(cat.const("substitute_cost_per_missing_resource"))
    spare = sum(p.res) - used
    return p.money + spare * int(cat.const("sell_price_per_resource")) >= owed + fee


def raise_money(cat: Catalogue, p: PlayerState, need: int, log: list[str]) -> None:
    """Sell resources, most plentiful first, until ``need`` denarii are in hand."""
    sold: dict[str, int] = {}
    while p.money < need and any(p.res):
        i = max(range(len(RESOURCES)), key=lambda k: (p.res[k], -k))
        sell(cat, p, RESOURCES[i])
        sold[RESOURCES[i]] = sold.get(RESOURCES[i], 0) + 1
    if sold:
        log.append("sold " + ", ".join(f"{n} {r}" for r, n in sold.items()) + " to pay")


def pay(cat: Catalogue, p: PlayerState, cost: Cost, fee: int, log: list[str]) -> None:
    """Pay a fee and a cost: held tokens first, then 3 denarii per missing token."""
    used, owed = shortfall(cat, p, cost)
    for i, n in enumerate(used):
        p.res[i] -= n
    raise_money(cat, p, owed + fee, log)
    p.money -= owed + fee
    parts = [f"{n} {RESOURCES[i]}" for i, n in enumerate(used) if n]
    if owed:
        parts.append(f"{counted(owed, 'denarius')} for missing resources")
    if fee:
        parts.append(f"the {counted(fee, 'denarius')} fee")
    if parts:
        log.append("paid " + ", ".join(parts))

