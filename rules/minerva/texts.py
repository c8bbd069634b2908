"""Plain-text renderings of tile data: costs, effects and temple conditions (for views,
notation and descriptions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.minerva.components import RESOURCES, Cost, Temple, TileType
from rules.words import counted, listed


def amount(key: str, n: int) -> str:
    """``2 denarii``, ``1 denarius``; resources and glory are counted as they are."""
    return counted(n, "denarius") if key == "denarii" else f"{n} {key}"


def amounts_text(amounts: Mapping[str, int]) -> str:
    return " + ".join(amount(k, n) for k, n in amounts.items())


def cost_text(cost: Cost | None) -> str:
    if cost is None:
        return "not for sale"
    parts = [f"{n} {RESOURCES[i]}" for i, n in enumerate(cost) if n]
    return ", ".join(parts) if parts else "free"


def clause_text(clause: Mapping[str, Any]) -> str:
    if "per_held" in clause:
        return f"+{amounts_text(clause['gain'])} per {clause['per_held']} held"
    if "per_city" in clause:
        return f"+{amounts_text(clause['gain'])} per {clause['per_city']} tile in city"
    if "gain" in clause:
        return "+" + amounts_text(clause["gain"])
    if "gain_choice" in clause:
        return " / ".join("+" + amounts_text(o) for o in clause["gain_choice"])
    if "gain_any" in clause:
        n = clause["gain_any"]
        return f"+{counted(n, 'resource')} of choice"
    if "exchange" in clause:
        body = clause["exchange"]
        return f"{amounts_text(body['pay'])} -> {amounts_text(body['gain'])}, any times"
    if "exchange_pairs" in clause:
        body = clause["exchange_pairs"]
        return f"{body['size']} alike -> {amounts_text(body['gain'])}, any times"
    if "buy_any" in clause:
        return f"{amounts_text(clause['buy_any']['pay'])} -> 1 resource, any times"
    if "take_culture_tile" in clause:
        return "take a top culture tile"
    if "bathhouse" in clause:
        return f"use up to {clause['bathhouse']['picks']} of the 8 neighbours"
    if "aqueduct" in clause:
        return "move a neighbouring tile"
    if "circus" in clause:
        return "remove a neighbouring residence"
    return "?"


def effect_text(ttype: TileType) -> str:
    text = "; ".join(clause_text(c) for c in ttype.effect)
    if ttype.timing == "when_built" and text:
        return "when built: " + text
    return text


def temple_text(temple: Temple) -> str:
    if temple.area == "none":
        return f"{temple.vp_each} VP per {temple.count.removeprefix('resource:')} held"
    area = "8 around" if temple.area == "surround8" else "row+column"
    what = "type" if temple.count == "distinct_types" else temple.count
    return f"{temple.vp_each} VP per {what} {area}"


def temple_sentence(temple: Temple) -> str:
    """A temple in a sentence: what it costs and what it scores at the end."""
    cost = listed([f"{n} {RESOURCES[i]}" for i, n in enumerate(temple.cost) if n]) or "nothing"
    if temple.area == "none":
        held = temple.count.removeprefix("resource:")
        gain = f"for each {held} you hold at the end"
    else:
        what = ("different kind of tile" if temple.count == "distinct_types"
                else f"{temple.count} tile")
        where = "among the 8 tiles around it" if temple.area == "surround8" else (
            "in its row and its column")
        gain = f"for each {what} {where}"
    return f"{temple.name} costs {cost} and scores {temple.vp_each} VP {gain}"
