"""Neighbour interaction (spec 2.6, 4.3, 4.11 and 9): Market purchases and Scouting.

A source is a card whose trade good or pattern is used: ``own`` (your current Prospect card),
``left`` / ``right`` (a neighbour's; with two players the one opponent is ``neighbour``),
``neutral1`` / ``neutral2`` (revealed Neutral cards in 1-2 player games) or ``deck`` (the top
Fate card, Market only). The left neighbour is the previous seat, the right one the next seat.
Payment goes to the supply (own card, deck), to the neighbour, or onto the Neutral card.
"""

from __future__ import annotations

from rules.core import Action, InvalidAction
from rules.hadrians_wall.common import pick
from rules.hadrians_wall.components import (
    FATE_CARDS,
    MAP_CELL_REWARD,
    MAP_COLS,
    MAP_ROW_REWARD,
    MARKET_BOXES,
    MARKET_COST,
    PLAYER_CARDS,
    SCOUT_COST,
    SCOUT_REQUIRES,
    UNIQUE_GOODS_RENOWN,
)
from rules.hadrians_wall.decks import can_draw, draw_fate
from rules.hadrians_wall.rewards import add_attribute, can_afford, gain, note, pay
from rules.hadrians_wall.scouting import complete_rows, fits, free_placements, map_mask
from rules.hadrians_wall.state import Sheet, State, Work

SOURCE_LABELS = {
    "own": "own card",
    "left": "left neighbour",
    "right": "right neighbour",
    "neighbour": "neighbour",
    "neutral1": "neutral card 1",
    "neutral2": "neutral card 2",
    "deck": "fate deck",
}


def sources(st: State, kind: str) -> list[str]:
    """The sources a player may use now for ``kind`` ("market" or "scout")."""
    out: list[str] = []
    if kind == "scout" or st.options["market_from_own_card"]:
        out.append("own")
    if st.players == 2:
        out.append("neighbour")
    elif st.players >= 3:
        out.extend(("left", "right"))
    out.extend(f"neutral{i + 1}" for i in range(len(st.neutral)))
    if kind == "market":
        out.append("deck")
    return out


def source_seat(players: int, seat: int, source: str) -> int | None:
    if source == "own":
        return seat
    if source == "left":
        return (seat - 1) % players
    if source in ("right", "neighbour"):
        return (seat + 1) % players
    return None


def source_card(st: State, seat: int, source: str) -> str | None:
    """The Player card behind a source (None for the Fate deck)."""
    owner = source_seat(st.players, seat, source)
    if owner is not None:
        prospects = st.sheets[owner]["prospects"]
        return str(prospects[-1]) if prospects else None
    if source.startswith("neutral"):
        return str(st.neutral[int(source[7:]) - 1]["card"])
    return None


def _receive(w: Work, seat: int, payer: int, source: str, good: str) -> None:
    """Put the payment where the source says: the supply, a neighbour, or a Neutral card."""
    owner = source_seat(w.players, payer, source)
    if source.startswith("neutral"):
        card = w.neutral[int(source[7:]) - 1]
        card[good + "s"] += 1
        card["by"][payer] += 1
        w.notes.append(f"the {good} goes onto {SOURCE_LABELS[source]}")
    elif owner is not None and owner != payer:
        sheet = w.sheet(owner)
        sheet["hand"][good] += 1
        text = f"{{p{owner}}} receives 1 {good}"
        if sheet["passed"] and w.options["gift_reactivates"]:
            sheet["passed"] = False
            text += " and may act again"
        w.notes.append(text)


# --------------------------------------------------------------------------------------------
# Market.


def market_block(st: State, sheet: Sheet, box: int) -> str | None:
    if "market" not in sheet["built"]:
        return "Build the market first."
    if sheet["market"][box - 1]:
        return f"Market box {box} is already filled."
    need = MARKET_BOXES[box - 1][0]
    if sheet["citizens"]["traders"] < need:
        return f"Market box {box} needs {need} traders."
    if not can_afford(sheet["hand"], MARKET_COST):
        return "A trade good costs 1 resource."
    return None


def _source_block(st: State, seat: int, source: str) -> str | None:
    if source == "deck":
        return None if can_draw(st) else "The Fate deck is empty."
    if source_card(st, seat, source) is None:
        return "That card is not available."
    return None


def cands_market(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    srcs = [s for s in sources(st, "market") if _source_block(st, seat, s) is None]
    return [{"type": "market", "box": b, "from": s}
            for b in range(1, len(MARKET_BOXES) + 1) if market_block(st, sheet, b) is None
            for s in srcs]


def check_market(st: State, seat: int, action: Action) -> str | None:
    box = pick(action, "box", range(1, len(MARKET_BOXES) + 1), "The market box")
    source = action["from"]
    allowed = sources(st, "market")
    if source not in allowed:
        if source in SOURCE_LABELS:
            return "Buy from: " + ", ".join(SOURCE_LABELS[s] for s in allowed) + "."
        raise InvalidAction("Buy from: " + ", ".join(allowed) + ".")
    return market_block(st, st.sheets[seat], box) or _source_block(st, seat, source)


def run_market(w: Work, seat: int, action: Action) -> None:
    st = w.base
    sheet = w.sheet(seat)
    pay(sheet, MARKET_COST)
    source = action["from"]
    if source == "deck":
        card_id = draw_fate(w)
        assert card_id is not None  # checked by _source_block
        w.fate_discard.append(card_id)
        good = FATE_CARDS[card_id].trade_good
        w.notes.append(f"drew {card_id}: trade good {good}")
    else:
        card = source_card(st, seat, source)
        assert card is not None
        good = PLAYER_CARDS[card].trade_good
        _receive(w, seat, seat, source, "resource")
    box = action["box"]
    before = {g for g in sheet["market"] if g}
    sheet["market"][box - 1] = good
    note(w.gained, f"trade good {good}")
    if good not in before:
        for _ in range(UNIQUE_GOODS_RENOWN[len(before)]):
            add_attribute(sheet, "renown", w.gained)
    gain(sheet, MARKET_BOXES[box - 1][1], w.gained)


# --------------------------------------------------------------------------------------------
# Scouting.


def scout_block(sheet: Sheet) -> str | None:
    k = int(sheet["scouts"])
    if k >= len(SCOUT_REQUIRES):
        return "All five scouts are used."
    if sheet["citizens"]["patricians"] < SCOUT_REQUIRES[k]:
        return f"Scout {k + 1} needs {SCOUT_REQUIRES[k]} patricians."
    if not can_afford(sheet["hand"], SCOUT_COST):
        return "Scouting costs 1 soldier."
    return None


def cands_scout(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    if scout_block(sheet):
        return []
    filled = map_mask(sheet["map"])
    out: list[Action] = []
    for source in sources(st, "scout"):
        card = source_card(st, seat, source)
        if card is None:
            continue
        for cells in free_placements(PLAYER_CARDS[card].pattern, filled):
            out.append({"type": "scout", "from": source, "cells": [[r, c] for r, c in cells]})
    return out


def _cells(action: Action) -> list[tuple[int, int]]:
    raw = action["cells"]
    if not isinstance(raw, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c) for c in raw
    ):
        raise InvalidAction("Cells are a list of [row, col] pairs.")
    cells = [(int(r), int(c)) for r, c in raw]
    if [list(c) for c in sorted(cells)] != raw:
        raise InvalidAction("List the cells in order, row by row.")
    return cells


def check_scout(st: State, seat: int, action: Action) -> str | None:
    source = action["from"]
    allowed = sources(st, "scout")
    if source not in allowed:
        if source in SOURCE_LABELS:
            return "Scout with a pattern from: " + ", ".join(SOURCE_LABELS[s] for s in allowed)
        raise InvalidAction("Scout from: " + ", ".join(allowed) + ".")
    cells = _cells(action)
    sheet = st.sheets[seat]
    block = scout_block(sheet)
    if block:
        return block
    card = source_card(st, seat, source)
    if card is None:
        return "That card is not available."
    why = fits(PLAYER_CARDS[card].pattern, cells)
    if why:
        return why
    if any(sheet["map"][r * MAP_COLS + c] for r, c in cells):
        return "A pattern may not cover a filled map cell."
    return None


def run_scout(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    pay(sheet, SCOUT_COST)
    _receive(w, seat, seat, action["from"], "soldier")
    rows_before = complete_rows(sheet["map"])
    sheet["scouts"] += 1
    for r, c in action["cells"]:
        i = r * MAP_COLS + c
        sheet["map"][i] = sheet["scouts"]
        reward = MAP_CELL_REWARD.get(i)
        if reward:
            gain(sheet, (reward,), w.gained)
    for _ in range(complete_rows(sheet["map"]) - rows_before):
        gain(sheet, MAP_ROW_REWARD, w.gained)

