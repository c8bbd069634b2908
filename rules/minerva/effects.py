"""Resolving tile effects as a stack of pending frames (spec §3, §10.3 to §10.5).

An activation or a [when built] effect is a sequence of decisions of the same player. Frames:

* ``{"k": "dir", "at": cell}``: choose the direction of an activation from a residence;
* ``{"k": "line", "cells": (...)}``: the tiles of the line still to resolve, nearest first;
* ``{"k": "eff", "type": key, "at": cell, "i": n, "opt": bool}``: the effect of one tile, at
  clause ``n``; ``opt`` marks a [when built] effect, which the player may decline clause by
  clause with ``done``. An Aqueduct frame also keeps the chosen tile under ``"sel"`` and a
  Bathhouse frame the tiles already used under ``"picked"``.

``advance`` resolves whatever needs no decision and stops at the first decision;
``decisions`` lists the decisions the top frame offers; ``decide`` applies one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations_with_replacement
from typing import Any

from rules.core import Action
from rules.minerva.city import (
    DIRECTION_NAMES,
    RESIDENCES,
    connected,
    format_cell,
    frontier,
    line,
    ring8,
)
from rules.minerva.components import CULTURE, RESOURCES, Catalogue
from rules.minerva.economy import gain, gain_all, holding, take
from rules.minerva.state import Cell, Frame, MinervaState, PlayerState
from rules.words import counted

DONE: Action = {"type": "done"}


def category_of(cat: Catalogue, code: str) -> str:
    if code in cat.temples:
        return "temple"
    ttype = cat.code_type(code)
    return ttype.category if ttype else "special"


def tile_name(cat: Catalogue, code: str) -> str:
    if code in cat.temples:
        return cat.temples[code].name
    ttype = cat.code_type(code)
    return ttype.name if ttype else code


def _activated(cat: Catalogue, code: str | None) -> bool:
    ttype = cat.code_type(code) if code else None
    return ttype is not None and ttype.timing == "activated"


# --------------------------------------------------------------------------------------------
# Candidates of the special facilities.


def bath_choices(cat: Catalogue, p: PlayerState, frame: Frame) -> list[Cell]:
    picked = frame.get("picked", ())
    return [c for c in ring8(frame["at"]) if _activated(cat, p.city.get(c)) and c not in picked]


def aqueduct_sources(cat: Catalogue, s: MinervaState, p: PlayerState, at: Cell) -> list[Cell]:
    return list(_aqueduct_sources(s, p, at))


def _aqueduct_sources(s: MinervaState, p: PlayerState, at: Cell) -> Iterator[Cell]:
    # Lazily, and each source's first target is enough: often only whether there is one matters
    # (each step of a searched move asks), and every target is a connectivity check.
    for c in ring8(at):
        if c in p.city and p.city[c] not in RESIDENCES and (
                next(_aqueduct_targets(s, p, c), None) is not None):
            yield c


def aqueduct_targets(s: MinervaState, p: PlayerState, source: Cell) -> list[Cell]:
    """Empty cells next to another tile where the tile may go with the city still connected."""
    return list(_aqueduct_targets(s, p, source))


def _aqueduct_targets(s: MinervaState, p: PlayerState, source: Cell) -> Iterator[Cell]:
    rest = {c: code for c, code in p.city.items() if c != source}
    whole = s.options.get("aqueduct_connectivity", "city") == "city"
    for dest in frontier(rest):
        if dest == source:
            continue
        cells = [*rest, dest] if whole else [
            c for c, code in rest.items() if code not in RESIDENCES
        ] + [dest]
        if connected(cells):
            yield dest


def circus_choices(s: MinervaState, p: PlayerState, at: Cell) -> list[Cell]:
    keep = bool(s.options.get("circus_keeps_city_connected", True))
    return [
        c for c in ring8(at)
        if p.city.get(c) == "R" and (not keep or connected(x for x in p.city if x != c))
    ]


def exchange_max(p: PlayerState, pay: Mapping[str, int]) -> int:
    return min(holding(p, key) // n for key, n in pay.items())


# --------------------------------------------------------------------------------------------
# Automatic resolution.


def advance(cat: Catalogue, s: MinervaState, log: list[str]) -> None:
    """Resolve frames until one needs a decision or the stack is empty."""
    p = s.players[s.current]
    while s.stack:
        frame = s.stack[-1]
        kind = frame["k"]
        if kind == "dir":
            return
        if kind == "line":
            cells = frame["cells"]
            if not cells:
                s.stack.pop()
                continue
            s.stack[-1] = {**frame, "cells": cells[1:]}
            code = p.city.get(cells[0])
            if code is not None and _activated(cat, code):
                ttype = cat.code_type(code)
                assert ttype is not None
                log.append(f"{ttype.name} at {format_cell(cells[0])}")
                s.stack.append(
                    {"k": "eff", "type": ttype.key, "at": cells[0], "i": 0, "opt": False}
                )
            continue
        effect = cat.types[frame["type"]].effect
        if frame["i"] >= len(effect):
            s.stack.pop()
            continue
        if not _resolve_alone(cat, s, p, frame, effect[frame["i"]], log):
            return
        s.stack[-1] = _next_clause(frame)


def _next_clause(frame: Frame) -> Frame:
    out = {k: v for k, v in frame.items() if k not in ("sel", "picked")}
    out["i"] = frame["i"] + 1
    return out


def _resolve_alone(
    cat: Catalogue, s: MinervaState, p: PlayerState, frame: Frame,
    clause: Mapping[str, Any], log: list[str],
) -> bool:
    """Apply a clause that needs no decision and return True; return False if one is needed."""
    if "per_held" in clause:
        times = holding(p, clause["per_held"])
        gain_all(cat, p, s.points, clause["gain"], times, log)
        return True
    if "per_city" in clause:
        times = sum(1 for code in p.city.values() if category_of(cat, code) == clause["per_city"])
        gain_all(cat, p, s.points, clause["gain"], times, log)
        return True
    if "gain" in clause:
        gain_all(cat, p, s.points, clause["gain"], 1, log)
        return True
    if "gain_choice" in clause or "gain_any" in clause:
        return False
    if "exchange" in clause:
        return _skipped(exchange_max(p, clause["exchange"]["pay"]) == 0, log)
    if "exchange_pairs" in clause:
        size = clause["exchange_pairs"]["size"]
        return _skipped(all(n < size for n in p.res), log)
    if "buy_any" in clause:
        return _skipped(p.money < int(clause["buy_any"]["pay"]["denarii"]), log)
    if "take_culture_tile" in clause:
        return not any(s.culture[c] for c in CULTURE)
    if "bathhouse" in clause:
        used = len(frame.get("picked", ()))
        return used >= clause["bathhouse"]["picks"] or not bath_choices(cat, p, frame)
    if "aqueduct" in clause:
        return "sel" not in frame and next(_aqueduct_sources(s, p, frame["at"]), None) is None
    if "circus" in clause:
        return not circus_choices(s, p, frame["at"])
    raise AssertionError(f"unknown clause {clause}")


def _skipped(skip: bool, log: list[str]) -> bool:
    """A trade the player cannot pay for resolves as nothing; the log says so."""
    if skip:
        log.append("nothing to pay with")
    return skip


# --------------------------------------------------------------------------------------------
# Decisions.


def _cell_actions(kind: str, cells: list[Cell]) -> list[Action]:
    return [{"type": kind, "x": x, "y": y} for x, y in cells]


def decisions(cat: Catalogue, s: MinervaState) -> list[Action]:
    """The decisions the top frame offers (selling is added by the engine)."""
    p = s.players[s.current]
    frame = s.stack[-1]
    if frame["k"] == "dir":
        return [{"type": "direction", "dir": d} for d in DIRECTION_NAMES]
    clause = cat.types[frame["type"]].effect[frame["i"]]
    out: list[Action]
    if "gain_choice" in clause:
        out = [{"type": "choose", "option": j} for j in range(len(clause["gain_choice"]))]
    elif "gain_any" in clause:
        combos = combinations_with_replacement(RESOURCES, clause["gain_any"])
        out = [{"type": "take", "resources": list(c)} for c in combos]
    elif "exchange" in clause:
        top = exchange_max(p, clause["exchange"]["pay"])
        out = [{"type": "exchange", "times": k} for k in range(top + 1)]
    elif "exchange_pairs" in clause:
        size = clause["exchange_pairs"]["size"]
        out = [{"type": "pair", "resource": r} for i, r in enumerate(RESOURCES) if p.res[i] >= size]
        out.append(DONE)
    elif "buy_any" in clause:
        out = [{"type": "buy", "resource": r} for r in RESOURCES]
        out.append(DONE)
    elif "take_culture_tile" in clause:
        out = [{"type": "culture", "stack": c} for c in CULTURE if s.culture[c]]
    elif "bathhouse" in clause:
        out = [*_cell_actions("use", bath_choices(cat, p, frame)), DONE]
    elif "aqueduct" in clause:
        if "sel" in frame:
            out = _cell_actions("to", aqueduct_targets(s, p, frame["sel"]))
        else:
            out = _cell_actions("move", aqueduct_sources(cat, s, p, frame["at"]))
    else:  # circus
        out = _cell_actions("remove", circus_choices(s, p, frame["at"]))
    if frame["opt"] and DONE not in out:
        out.append(DONE)
    return out


def decide(cat: Catalogue, s: MinervaState, action: Action, log: list[str]) -> None:
    """Apply a decision already checked against ``decisions``, then resolve what follows."""
    p = s.players[s.current]
    frame = s.stack[-1]
    kind = action["type"]
    if kind == "direction":
        s.stack.pop()
        cells = tuple(line(p.city, frame["at"], action["dir"]))
        log.append(f"activates {DIRECTION_NAMES[action['dir']]} from {format_cell(frame['at'])}")
        if not any(_activated(cat, p.city.get(c)) for c in cells):
            log.append("no facility to activate on that line")
        s.stack.append({"k": "line", "cells": cells})
        advance(cat, s, log)
        return
    clause = cat.types[frame["type"]].effect[frame["i"]]
    following = _next_clause(frame)
    start = len(log)
    log.append(f"resolves {cat.types[frame['type']].name} at {format_cell(frame['at'])}")
    if kind == "choose":
        gain_all(cat, p, s.points, clause["gain_choice"][action["option"]], 1, log)
    elif kind == "take":
        counts = {r: action["resources"].count(r) for r in RESOURCES if r in action["resources"]}
        gain_all(cat, p, s.points, counts, 1, log)
    elif kind == "exchange":
        body = clause["exchange"]
        for key, n in body["pay"].items():
            take(p, key, n * action["times"])
        if action["times"]:
            log.append(f"exchanged {counted(action['times'], 'time')}")
        else:
            log.append("exchanged nothing")
        gain_all(cat, p, s.points, body["gain"], action["times"], log)
    elif kind == "pair":
        body = clause["exchange_pairs"]
        take(p, action["resource"], body["size"])
        log.append(f"paid {body['size']} {action['resource']}")
        gain_all(cat, p, s.points, body["gain"], 1, log)
        following = frame
    elif kind == "buy":
        take(p, "denarii", clause["buy_any"]["pay"]["denarii"])
        log.append(f"bought 1 {action['resource']}")
        gain(cat, p, s.points, action["resource"], 1, log)
        following = frame
    elif kind == "culture":
        req, vp = s.culture[action["stack"]][0]
        s.culture[action["stack"]] = s.culture[action["stack"]][1:]
        p.culture_tiles.append((action["stack"], req, vp))
        log.append(f"took the {vp} VP {action['stack']} tile")
    elif kind == "use":
        cell = (action["x"], action["y"])
        following = {**frame, "picked": (*frame.get("picked", ()), cell)}
        s.stack[-1] = following
        ttype = cat.code_type(p.city[cell])
        assert ttype is not None
        log.append(f"uses {ttype.name} at {format_cell(cell)}")
        merge_from(log, start)
        s.stack.append({"k": "eff", "type": ttype.key, "at": cell, "i": 0, "opt": False})
        advance(cat, s, log)
        return
    elif kind == "move":
        following = {**frame, "sel": (action["x"], action["y"])}
        log.append(f"picked {tile_name(cat, p.city[following['sel']])} to move")
    elif kind == "to":
        source, dest = frame["sel"], (action["x"], action["y"])
        p.city[dest] = p.city.pop(source)
        log.append(f"moved {tile_name(cat, p.city[dest])} to {format_cell(dest)}")
    elif kind == "remove":
        del p.city[(action["x"], action["y"])]
        log.append(f"removed the residence at {action['x']},{action['y']}")
    merge_from(log, start)
    s.stack[-1] = following
    advance(cat, s, log)


def merge_from(log: list[str], start: int) -> None:
    """Join the entries from ``start`` into one: ``Label: what, what``."""
    if len(log) > start + 1:
        log[start:] = [log[start] + ": " + ", ".join(log[start + 1:])]


def culture_check(s: MinervaState, p: PlayerState, log: list[str]) -> None:
    """At most one tile per stack whose top requirement the turn's points meet; points reset."""
    for i, stack in enumerate(CULTURE):
        tiles = s.culture[stack]
        if tiles and s.points[i] >= tiles[0][0]:
            p.culture_tiles.append((stack, *tiles[0]))
            s.culture[stack] = tiles[1:]
            log.append(f"gained the {tiles[0][1]} VP {stack} tile")
    s.points = [0, 0, 0]
