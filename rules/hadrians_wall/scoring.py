"""Final scoring (spec 8): attributes + Path cards - Disdain penalty, the tie-breaks of 2.5 and
the solo ranks of 8.3."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Outcome, rank_by, tie_notes
from rules.hadrians_wall.components import (
    ATTRIBUTES,
    CITIZEN_BOXES,
    COHORT_BOXES,
    DISDAIN_PENALTY,
    GUARD,
    LARGE_BUILDINGS,
    PATH_SCORING,
    TEMPLE_LAST_BOX,
    WALL,
)
from rules.hadrians_wall.components import SOLO_RANKS as RANKS
from rules.hadrians_wall.rewards import final_disdain
from rules.hadrians_wall.scouting import complete_columns
from rules.hadrians_wall.state import Sheet


def _sections(filled: int, columns: tuple[int, ...]) -> int:
    """Granary sections of a track whose every box is filled."""
    ends = [max(i for i, c in enumerate(columns) if c == col) for col in (1, 2, 3)]
    return sum(1 for end in ends if filled >= end)


def measures(sheet: Sheet, options: Mapping[str, Any]) -> dict[str, int]:
    production = int(sheet["production"])
    if not options.get("forager_counts_prefilled", True):
        production -= 1
    temples = int(sheet["temple_boxes"])
    return {
        "landmarks": len(sheet["landmarks"]),
        "final_disdain": final_disdain(sheet),
        "wall_sections": _sections(int(sheet["wall"]), WALL.columns),
        "large_buildings": sum(1 for b in LARGE_BUILDINGS if b in sheet["built"]),
        "complete_cohorts": sum(1 for n in sheet["cohorts"] if n >= COHORT_BOXES),
        "production": production,
        "market_goods": sum(1 for g in sheet["market"] if g),
        "complete_citizen_tracks": sum(1 for n in sheet["citizens"].values() if n >= CITIZEN_BOXES),
        "complete_temples": sum(1 for last in TEMPLE_LAST_BOX.values() if temples >= last),
        "complete_map_columns": complete_columns(sheet["map"]),
        "gladiator_strength": sum(int(g["strength"]) for g in sheet["gladiators"]),
        "wall_guard_sections": _sections(int(sheet["guard"]), GUARD.columns),
    }


def path_points(card: str, values: Mapping[str, int]) -> int:
    measure, compare, tiers = PATH_SCORING[card]
    value = values[measure]
    best = 0
    for threshold, points in tiers:
        reached = value <= threshold if compare == "at_most" else value >= threshold
        if reached:
            best = max(best, points)
    return best


def penalty(disdain: int) -> int:
    return DISDAIN_PENALTY[min(disdain, len(DISDAIN_PENALTY) - 1)]


def breakdown(sheet: Sheet, options: Mapping[str, Any]) -> dict[str, int]:
    values = measures(sheet, options)
    out = {a: int(sheet["attributes"][a]) for a in ATTRIBUTES}
    paths = {card: path_points(card, values) for card in sheet["paths"]}
    out["paths"] = sum(paths.values())
    for card, pts in paths.items():
        out["path " + card] = pts
    out["disdain"] = values["final_disdain"]
    out["disdain_penalty"] = -penalty(values["final_disdain"])
    out["total"] = sum(out[a] for a in ATTRIBUTES) + out["paths"] + out["disdain_penalty"]
    return out


def solo_rank(score: int) -> str:
    name = RANKS[0][1]
    for threshold, rank in RANKS:
        if score >= threshold:
            name = rank
    return name


def outcome(sheets: tuple[Sheet, ...], options: Mapping[str, Any]) -> Outcome:
    parts = [breakdown(s, options) for s in sheets]
    scores = tuple(p["total"] for p in parts)
    # Tie-breaks (spec 2.5): less final Disdain, then more Path VP; otherwise shared.
    keys = [(p["total"], -p["disdain"], p["paths"]) for p in parts]
    notes: list[str] = []
    if len(sheets) == 1:
        notes.append(f"Solo rank: {solo_rank(scores[0])} ({scores[0]} points).")
    notes.extend(tie_notes(keys, ("less final Disdain", "more Path card points")))
    return Outcome(scores=scores, ranking=rank_by(keys), breakdown=tuple(parts),
                   notes=tuple(notes))
