"""Views (everything is public except the order of the two stacks), the plain-text account,
the prompt of the pending decision and the messages for refused moves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action, Outcome
from rules.minerva.city import DIRECTION_NAMES, format_cell, frontier, line
from rules.minerva.components import CULTURE, RESOURCES, Catalogue, catalogue
from rules.minerva.economy import can_pay
from rules.minerva.effects import category_of, decisions, tile_name
from rules.minerva.notation import format_action
from rules.minerva.rounds import ROUND_TILE, assistant_price
from rules.minerva.state import MinervaState, PlayerState
from rules.minerva.texts import (
    clause_text,
    cost_text,
    effect_text,
    temple_sentence,
    temple_text,
)
from rules.minerva.turns import build_choices, fee_due, tile_cost
from rules.words import counted

RULES_SUMMARY = """Minerva: 6 rounds. On your turn: build a facility (pay its resources; 3 denarii
per missing one only when short), build a residence and activate one direction, place an assistant
on a residence and activate one direction, or pass (take the lowest order tile; later turns give
1 denarius; once anyone passed, other actions cost 1 denarius). A line runs from the residence to
the next gap or residence. Culture points against the top culture tiles; glory tokens win glory
tiles each round; temples score at the end; 1 VP per 3 denarii + resources.
A move is written in words: build and a tile's name or a cell (build markets 1,0), residence 1,0,
assistant 1,0 or pass. When a tile asks you something, answer the same way: activate north,
choose 2 grain, take grain wood, exchange 2, pair stone, buy ore, culture art, use 1,0, move 1,0
then to 2,0, remove 1,0, hire denarii or hire glory, sell grain, and done when you have finished."""


def tile_info(cat: Catalogue, code: str) -> dict[str, Any]:
    """What the picture and text need about one physical tile."""
    if code in cat.temples:
        t = cat.temples[code]
        return {
            "id": code, "key": t.key, "name": t.name, "category": "temple",
            "cost": cost_text(t.cost), "effect": temple_text(t), "area": t.area,
        }
    ttype = cat.code_type(code)
    assert ttype is not None
    return {
        "id": code, "key": ttype.key, "name": ttype.name, "category": ttype.category,
        "cost": cost_text(ttype.cost), "effect": effect_text(ttype), "timing": ttype.timing,
    }


def _offer(cat: Catalogue, s: MinervaState) -> list[dict[str, Any]]:
    grouped: dict[str, dict[str, Any]] = {}
    for code in s.offer:
        info = tile_info(cat, code)
        if info["key"] in grouped:
            grouped[info["key"]]["count"] += 1
        else:
            grouped[info["key"]] = {**info, "count": 1}
    return list(grouped.values())


def _player(cat: Catalogue, s: MinervaState, seat: int, p: PlayerState) -> dict[str, Any]:
    city = []
    for (x, y), code in sorted(p.city.items(), key=lambda i: (i[0][1], i[0][0])):
        city.append({
            "x": x, "y": y, "code": code, "name": tile_name(cat, code),
            "category": category_of(cat, code), "assistant": code == "A",
        })
    price = assistant_price(cat, p)
    return {
        "seat": seat,
        "money": p.money,
        "resources": dict(zip(RESOURCES, p.res, strict=True)),
        "glory": p.glory,
        "assistants": p.reserve,
        "assistants_placed": p.placed(),
        "next_assistant": None if price is None else {"denarii": price[0], "glory": price[1]},
        "residences": p.houses,
        "order": p.order,
        "passed": p.passed,
        "culture_tiles": [{"stack": c, "req": r, "vp": v} for c, r, v in p.culture_tiles],
        "glory_tiles": [{"round": r, "rank": k, "vp": v} for r, k, v in p.glory_tiles],
        "city": city,
    }


def _example(cat: Catalogue, s: MinervaState) -> str:
    """How to write the first decision on offer, e.g. ``'take grain'``."""
    options = [a for a in decisions(cat, s) if a["type"] != "done"] or decisions(cat, s)
    return f"e.g. '{format_action(cat, s, options[0])}'" if options else ""


_ASK = {
    "gain_choice": "choose one of", "gain_any": "take", "exchange": "choose how many times:",
    "exchange_pairs": "pay pairs of alike resources (then done):",
    "buy_any": "buy resources (then done):", "take_culture_tile": "choose a culture stack to",
    "bathhouse": "choose neighbours to", "aqueduct": "choose a tile to", "circus": "choose a",
}


def pending(cat: Catalogue, s: MinervaState) -> dict[str, Any] | None:
    """Who decides what now; ``prompt`` asks the deciding player, with an example."""
    out = _pending(cat, s)
    if out is None or out["kind"] not in ("direction", "effect"):
        return out
    if out["kind"] == "direction":
        out["prompt"] = (f"choose a direction to activate from {format_cell(tuple(out['at']))} "
                         "(e.g. 'activate north')")
        return out
    frame = s.stack[-1]
    clause = cat.types[frame["type"]].effect[frame["i"]]
    ask = next((v for k, v in _ASK.items() if k in clause), "decide:")
    what = clause_text(clause)
    if "gain_any" in clause:
        n = clause["gain_any"]
        what = f"{counted(n, 'resource')} of your choice"
    if "circus" in clause:
        what = "neighbouring residence to remove"
    optional = ", or done to skip" if frame["opt"] else ""
    out["prompt"] = (f"at the {out['tile']} at {format_cell(frame['at'])}, {ask} {what} "
                     f"({_example(cat, s)}{optional})")
    return out


def _pending(cat: Catalogue, s: MinervaState) -> dict[str, Any] | None:
    if s.phase == "over":
        return None
    if s.phase == "hire":
        seat = s.hire_queue[0]
        price = assistant_price(cat, s.players[seat])
        cost = "" if price is None else f" ({counted(price[0], 'denarius')} or {price[1]} glory)"
        return {"seat": seat, "kind": "hire", "text": f"may hire an assistant{cost}"}
    out: dict[str, Any] = {"seat": s.current}
    if not s.stack:
        out.update(kind="turn", text="to act: build, residence, assistant or pass")
        fee = fee_due(cat, s)
        if fee:
            out["text"] += f" (actions cost {counted(fee, 'denarius')} now)"
        return out
    frame = s.stack[-1]
    if frame["k"] == "dir":
        city = s.players[s.current].city
        at = frame["at"]
        out.update(
            kind="direction", at=list(at),
            text=f"chooses a direction to activate from {format_cell(at)}",
            lines={d: [list(c) for c in line(city, at, d)] for d in DIRECTION_NAMES},
        )
        return out
    ttype = cat.types[frame["type"]]
    clause = ttype.effect[frame["i"]]
    text = f"{ttype.name} at {format_cell(frame['at'])}: {clause_text(clause)}"
    if frame["opt"]:
        text += " (optional: done to skip)"
    if "sel" in frame:
        text += f"; moving the tile at {format_cell(frame['sel'])}"
    out.update(kind="effect", at=list(frame["at"]), tile=ttype.name, text=text)
    return out


def public_view(cat: Catalogue, s: MinervaState, result: Outcome | None) -> dict[str, Any]:
    solo_pairs = []
    for first, second in s.pairs:
        b = (
            {"round": True, "coins": int(cat.const("solo_round_tile_coins"))}
            if second == ROUND_TILE else tile_info(cat, second)
        )
        solo_pairs.append([tile_info(cat, first), b])
    return {
        "game": "minerva",
        "players": s.n,
        "round": s.round,
        "rounds": int(cat.const("rounds")),
        "phase": s.phase,
        "active": sorted(
            [s.current] if s.phase == "main" else s.hire_queue[:1] if s.phase == "hire" else []
        ),
        "first": s.first,
        "fee": fee_due(cat, s) if s.phase == "main" else 0,
        "offer": _offer(cat, s),
        "pairs": solo_pairs,
        "temples": [tile_info(cat, code) for code in s.temples],
        "temple_stack": len(s.temple_stack),
        "deck": len(s.deck),
        "round_tiles_left": s.deck.count(ROUND_TILE),
        "culture": {
            c: [{"req": r, "vp": v} for r, v in s.culture[c]] for c in CULTURE
        },
        "points": dict(zip(CULTURE, s.points, strict=True)),
        # Only the tiles that can be won: with 2 players (and in solitaire, 1st or 2nd only)
        # the 3rd tile is always removed (spec §9.6, §11).
        "glory_tiles": [
            {"rank": rank, "vp": vp}
            for rank, vp in cat.glory_tiles.get(s.round, ())
            if rank <= max(2, s.n)
        ],
        "removed": s.removed,
        "seats": [_player(cat, s, seat, p) for seat, p in enumerate(s.players)],
        "pending": pending(cat, s),
        "outcome": None if result is None else result.to_json(),
    }


# --------------------------------------------------------------------------------------------
# Plain text.


def describe(view: Mapping[str, Any]) -> str:
    """Players and scores first, then the market: the start is what matters most."""
    lines = [f"Minerva, round {view['round']} of {view['rounds']} ({view['phase']})."]
    pending = view.get("pending")
    if pending:
        verb = "resolves " if pending["kind"] == "effect" else ""
        lines.append(f"{{p{pending['seat']}}} {verb}{pending['text']}.")
        if pending.get("prompt"):
            lines.append(f"To decide: {pending['prompt']}.")
    result = view.get("outcome")
    if result:
        lines.append("Scores: " + ", ".join(
            f"{{p{seat}}} {score}" for seat, score in enumerate(result["scores"])
        ) + ".")
        lines.extend(result["notes"])
    for seat in view["seats"]:
        res = ", ".join(f"{n} {r}" for r, n in seat["resources"].items() if n) or "no resources"
        order = f", order tile {seat['order']}" if seat["order"] else ""
        lines.append(
            f"{{p{seat['seat']}}}: {counted(seat['money'], 'denarius')}, {res}, "
            f"{seat['glory']} glory, {counted(seat['assistants'], 'assistant')}, "
            f"{counted(seat['residences'], 'residence')} left{order}; "
            f"city of {counted(len(seat['city']), 'tile')}."
        )
    lines.append("Culture tiles: " + "; ".join(
        f"the top {c} tile ({tiles[0]['vp']} VP) goes to whoever makes "
        f"{counted(tiles[0]['req'], 'culture point')} of {c} in one turn" if tiles
        else f"no {c} tile is left"
        for c, tiles in view["culture"].items()
    ) + ".")
    lines.append("Glory tiles this round: " + ", ".join(
        f"#{g['rank']} {g['vp']} VP" for g in view["glory_tiles"]
    ) + ".")
    temples = catalogue().temples
    lines.extend(temple_sentence(temples[t["id"]]) + "." if t["id"] in temples
                 else f"{t['name']} costs {t['cost']}: {t['effect']}." for t in view["temples"])
    for a, b in view.get("pairs", []):
        other = (f"round tile with {counted(b['coins'], 'denarius')}" if b.get("round")
                 else b["name"])
        lines.append(f"Pair: {a['name']} ({a['cost']}) or {other}.")
    if view["offer"]:
        lines.append("Offer: " + "; ".join(
            f"{t['name']}{' x' + str(t['count']) if t['count'] > 1 else ''} ({t['cost']})"
            for t in view["offer"]
        ) + ".")
    return "\n".join(lines)


def refusal(cat: Catalogue, s: MinervaState, seat: int, action: Action) -> str:
    """Why an action is not legal now, written for the player."""
    kind = action["type"]
    if kind == "sell":
        return "You have none of that resource to sell."
    if s.phase == "hire":
        return "Now hire an assistant (hire denarii or hire glory), or done to hire nobody."
    if s.stack:
        options = ", ".join(format_action(cat, s, a) for a in decisions(cat, s)[:8])
        return f"Finish the current step first. Options: {options}."
    p = s.players[seat]
    fee = fee_due(cat, s)
    cell = (action.get("x"), action.get("y"))
    if kind in ("build", "residence") and cell not in frontier(p.city):
        return "Build on an empty cell that shares an edge with your city."
    if kind == "build":
        for key, code, drop in build_choices(cat, s):
            if key == action.get("tile") and drop == action.get("drop"):
                if not can_pay(cat, p, tile_cost(cat, code), fee):
                    cost = cost_text(tile_cost(cat, code))
                    return f"You cannot pay for {tile_name(cat, code)} ({cost})."
        if s.solo:
            return "Choose a tile of a pair on offer and name its partner with drop."
        return "That tile is not on offer."
    if kind in ("residence", "assistant") and not can_pay(cat, p, (0, 0, 0, 0), fee):
        return f"You cannot pay the {fee} denarius fee: you can only pass."
    if kind == "residence":
        return "You have no residences left."
    if kind == "assistant":
        if p.reserve == 0:
            return "You have no assistant in reserve."
        return "Place an assistant on one of your residences that has none."
    if kind == "coins":
        return "No pair with a round tile holds that tile."
    return "That move is not possible now: build, residence, assistant, sell or pass."
