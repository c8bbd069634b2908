"""Views (what the renderer and the text front ends get) and their plain-text description.

Palermo hides nothing, so every view shows the whole table. The view of the player to act in
phase 2 adds ``reachable``: the destinations of their pawn with the costs and endings on offer;
in phase 1, ``may_build``: the spaces a house may go on now, each with the corners its door may
take. Cell positions are given in city-cell units (the city spans ``0..cells`` on both axes,
the ring lies one unit outside it), so the renderer needs no geometry of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rules.palermo.actions import legal_for
from rules.palermo.city import tile_cells
from rules.palermo.collecting import budget, legal_moves, police_may_move
from rules.palermo.components import CORNERS, Config, house_words, movement
from rules.palermo.geometry import Geometry
from rules.palermo.scoring import breakdown, outcome
from rules.palermo.state import BUILD, COLLECT, OFF, OVER, START_KIND, PalermoState, Tile
from rules.words import counted, listed, placed


def node_rect(geo: Geometry, node: int) -> list[float]:
    if geo.is_ring(node):
        return list(geo.ring_rect(node))
    x, y = geo.xy(node)
    return [float(x), float(y), float(x + 1), float(y + 1)]


def _xy(geo: Geometry, cell: int) -> tuple[int, int]:
    return geo.xy(cell)


@lru_cache(maxsize=256)
def _tile_shape(cfg: Config, geo: Geometry, space: int, kind: str, rotation: int) -> Any:
    """The fixed part of a tile's view (immutable values, shared between views)."""
    cells = tile_cells(cfg, geo, space, Tile(kind, rotation))
    return (
        ("space", geo.space_name(space)),
        ("i", space % geo.grid),
        ("j", space // geo.grid),
        ("kind", kind),
        ("rotation", rotation),
        ("roof", tuple(_xy(geo, c) for c in cells.roof)),
        ("door", _xy(geo, cells.door) if cells.door >= 0 else None),
        ("door_cell", geo.cell_name(cells.door) if cells.door >= 0 else None),
        ("door_roof", _xy(geo, cells.door_roof) if cells.door_roof >= 0 else None),
    )


def _tiles(state: PalermoState) -> list[dict[str, Any]]:
    geo, cfg = state.geo, state.config
    out: list[dict[str, Any]] = []
    for space, tile in enumerate(state.tiles):
        if tile is None:
            continue
        entry = dict(_tile_shape(cfg, geo, space, tile.kind, tile.rotation))
        entry["owner"] = tile.owner if tile.owner >= 0 else None
        entry["chip"] = tile.chip
        entry["last"] = space == state.last_house and state.phase == BUILD
        out.append(entry)
    return out


@lru_cache(maxsize=16)
def _ring(geo: Geometry) -> tuple[tuple[str, tuple[float, ...], bool], ...]:
    return tuple(
        (geo.cell_name(n), tuple(node_rect(geo, n)), geo.is_corner(n))
        for n in range(geo.city_count, geo.node_count)
    )


def _table(state: PalermoState) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    total = state.chips_total()
    for seat in range(state.players):
        home = state.is_home(seat)
        rows.append(
            {
                "seat": seat,
                "chips": total,
                "to_place": state.to_place[seat],
                "collected": state.collected[seat],
                "lost": state.lost[seat],
                "allowance": state.allowance(seat),
                "penalty": state.penalty[seat],
                "score": state.score(seat),
                **{k: v for k, v in breakdown(state, seat).items() if k != "total"},
                "home": home,
                "home_rank": state.home_order.index(seat) + 1 if home else None,
            }
        )
    return rows


def _pieces(state: PalermoState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    geo = state.geo
    pawns: list[dict[str, Any]] = []
    police: list[dict[str, Any]] = []
    in_play = state.phase != BUILD
    for seat in range(state.players):
        p = state.pawns[seat]
        pawns.append(
            {
                "seat": seat,
                "cell": geo.cell_name(p) if p != OFF else None,
                "rect": node_rect(geo, p) if p != OFF else None,
                "home": state.is_home(seat),
                "on_start": in_play and p == OFF,
            }
        )
        s = state.police[seat]
        police.append(
            {
                "seat": seat,
                "cell": geo.cell_name(s) if s != OFF else None,
                "rect": node_rect(geo, s) if s != OFF else None,
                "frozen": state.frozen[seat],
                "may_move": state.phase == COLLECT and police_may_move(state, seat),
            }
        )
    return pawns, police


def _reachable(state: PalermoState, seat: int) -> list[dict[str, Any]]:
    geo = state.geo
    by_cell: dict[int, list[dict[str, Any]]] = {}
    for m in legal_moves(state, seat):
        by_cell.setdefault(m.to, []).append({"cost": m.cost, "end": m.end})
    return [
        {"cell": geo.cell_name(n), "rect": node_rect(geo, n), "moves": moves}
        for n, moves in sorted(by_cell.items())
    ]


def _may_build(state: PalermoState) -> list[dict[str, Any]]:
    """The builder's own view: each space a house may go on now, with the corners its door
    may take there."""
    geo = state.geo
    index = {geo.space_name(i): i for i in range(geo.grid * geo.grid)}
    doors: dict[str, set[str]] = {}
    for action in legal_for(state):
        if action.get("type") == "build" and action.get("door"):
            doors.setdefault(str(action["space"]), set()).add(str(action["door"]))
    return [{"space": name, "i": index[name] % geo.grid, "j": index[name] // geo.grid,
             "doors": sorted(corners)} for name, corners in sorted(doors.items())]


def view(state: PalermoState, seat: int | None) -> dict[str, Any]:
    geo, cfg = state.geo, state.config
    pawns, police = _pieces(state)
    start = next((i for i, t in enumerate(state.tiles) if t and t.kind == START_KIND), None)
    out: dict[str, Any] = {
        "game": "palermo",
        "players": state.players,
        "observer": seat,
        "phase": state.phase,
        "step": state.step,
        "active": [] if state.phase == OVER else [state.turn],
        "first_player": state.first,
        "grid": {"tiles": geo.grid, "cells": geo.cells, "ring_spaces_per_side": geo.ring_side},
        "tiles": _tiles(state),
        "start_space": geo.space_name(start) if start is not None else None,
        "empty_spaces": [geo.space_name(i) for i, t in enumerate(state.tiles) if t is None],
        "ring": [{"name": n, "rect": r, "corner": c} for n, r, c in _ring(geo)],
        "pawns": pawns,
        "police": police,
        "table": _table(state),
        "supply": dict(state.supply),
        "street_tiles": state.streets_left,
        "layouts": {
            k.name: {"roof": [CORNERS[c] for c in k.roof], "door": CORNERS[k.door]}
            for k in cfg.houses
        },
        "waiting_bonus": cfg.bonus(state.players),
        "budget": budget(state, state.turn) if state.phase == COLLECT else None,
        "reachable": None,
        "outcome": None,
    }
    if state.phase == COLLECT and seat == state.turn and not state.is_home(seat):
        out["reachable"] = _reachable(state, seat)
    if state.phase == BUILD and seat == state.turn:
        out["may_build"] = _may_build(state)
    result = outcome(state)
    if result is not None:
        out["outcome"] = result.to_json()
    return out


# -------------------------------------------------------------------------------- text


_TILE_WORDS = {START_KIND: "Start/Finish tile"}
END_WORDS = {"exact": "an exact stop", "business": "a business stop", "home": "home",
             "blocked": "a blocked stop"}


def final_words(outcome: Mapping[str, Any]) -> str:
    """The final ranking in a sentence: "Final: {p1} wins with 42 points; {p0} is second
    with 30 points." (tied seats share their place)."""
    scores = outcome["scores"]
    return "Final: " + placed([([f"{{p{s}}}" for s in group],
                                f"with {counted(scores[group[0]], 'point')}")
                               for group in outcome["ranking"]]) + "."


def cheapest_moves(moves: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The cheapest way to end a move each way: the same ending for more points is never
    better, so the text and the image offer only the cheapest."""
    best: dict[str, Mapping[str, Any]] = {}
    for move in moves:
        kept = best.get(move["end"])
        if kept is None or move["cost"] < kept["cost"]:
            best[move["end"]] = move
    return sorted(best.values(), key=lambda m: m["cost"])


def describe(v: Mapping[str, Any]) -> str:
    lines: list[str] = []
    phase = v["phase"]
    title = {BUILD: "Phase 1, building the city", COLLECT: "Phase 2, collecting income"}
    lines.append("Palermo: " + title.get(phase, "game over"))
    if v["active"]:
        seat = v["active"][0]
        doing = {
            "start_tile": "lays the Start/Finish tile",
            "house": "builds a house",
            "police": "may move their police stone",
            "move": f"moves their pawn ({movement(v['budget'])}: a stop, or 'walk on')",
            "walk": f"walks their pawn on, using all {movement(v['budget'])}",
        }[v["step"]]
        lines.append(f"To play: {{p{seat}}} {doing}.")
    if phase == BUILD:
        supply = ", ".join(
            f"{n} × " + (house_words(k, len(v['layouts'][k]['roof'])) if k in v["layouts"]
                         else _TILE_WORDS.get(k, k))
            for k, n in v["supply"].items())
        lines.append(f"Supply: {supply}. Empty spaces: {len(v['empty_spaces'])}.")
    for row in v["table"]:
        seat = row["seat"]
        if phase == BUILD:
            lines.append(f"{{p{seat}}}: {row['to_place']} of {row['chips']} chips to place.")
            continue
        pawn, stone = v["pawns"][seat], v["police"][seat]
        where = "home" if pawn["home"] else pawn["cell"] or "on Start/Finish"
        police = stone["cell"] or "off the board"
        lines.append(
            f"{{p{seat}}}: score {row['score']}, chips {row['collected']}/{row['chips']}"
            + (f" ({row['lost']} sealed off)" if row["lost"] else "")
            + ", "
            f"{movement(row['allowance'])} a turn"
            + (f" (-{row['penalty']} next turn)" if row["penalty"] else "")
            + f", pawn {where}, police {police}"
            + (" (blocked)" if stone["frozen"] else "")
            + "."
        )
    if v.get("reachable"):
        shown = [
            f"{r['cell']} (" + " or ".join(
                f"{END_WORDS.get(m['end'], m['end'])} for {movement(m['cost'])}"
                for m in cheapest_moves(r["moves"])) + ")"
            for r in v["reachable"][:12]
        ]
        more = len(v["reachable"]) - len(shown)
        lines.append("You can reach " + listed(shown + ([f"{more} more cells"] if more else []))
                     + ".")
    if v.get("outcome"):
        lines.append(final_words(v["outcome"]))
    return "\n".join(lines)
