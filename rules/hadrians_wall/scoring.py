"""Final scoring (spec 8): attributes + Path cards - Disdain penalty, the tie-breaks of 2.5 and
the solo ranks of 8.3."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
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


@cache
def _section_ends(columns: tuple[int, ...]) -> tuple[int, ...]:
    """The last box of each granary column of a track (the same for every sheet)."""
    return tuple(max(i for i, c in enumerate(columns) if c == col) for col in (1, 2, 3))


def _sections(filled: int, columns: tuple[int, ...]) -> int:
    """Granary sections of a track whose every box is filled."""
    return sum(1 for end in _section_ends(columns) if filled >= end)


def _production(sheet: Sheet, options: Mapping[str, Any]) -> int:
    production = int(sheet["production"])
    if not options.get("forager_counts_prefilled", True):
        production -= 1
    return production


def _complete_temples(sheet: Sheet) -> int:
    temples = int(sheet["temple_boxes"])
    return sum(1 for last in TEMPLE_LAST_BOX.values() if temples >= last)


Measure = Callable[[Sheet, Mapping[str, Any]], int]
# One function per measure, so that a score reads only the measures its Path cards use.
MEASURES: dict[str, Measure] = {
    "landmarks": lambda sheet, _: len(sheet["landmarks"]),
    "final_disdain": lambda sheet, _: final_disdain(sheet),
    "wall_sections": lambda sheet, _: _sections(int(sheet["wall"]), WALL.columns),
    "large_buildings": lambda sheet, _: sum(1 for b in LARGE_BUILDINGS if b in sheet["built"]),
    "complete_cohorts": lambda sheet, _: sum(1 for n in sheet["cohorts"] if n >= COHORT_BOXES),
    "production": _production,
    "market_goods": lambda sheet, _: sum(1 for g in sheet["market"] if g),
    "complete_citizen_tracks": lambda sheet, _: sum(
        1 for n in sheet["citizens"].values() if n >= CITIZEN_BOXES),
    "complete_temples": lambda sheet, _: _complete_temples(sheet),
    "complete_map_columns": lambda sheet, _: complete_columns(sheet["map"]),
    "gladiator_strength": lambda sheet, _: sum(int(g["strength"]) for g in sheet["gladiators"]),
    "wall_guard_sections": lambda sheet, _: _sections(int(sheet["guard"]), GUARD.columns),
}


def measures(sheet: Sheet, options: Mapping[str, Any]) -> dict[str, int]:
    return {name: measure(sheet, options) for name, measure in MEASURES.items()}


@cache
def _tier_points(card: str, value: int) -> int:
    _, compare, tiers = PATH_SCORING[card]
    best = 0
    for threshold, points in tiers:
        reached = value <= threshold if compare == "at_most" else value >= threshold
        if reached:
            best = max(best, points)
    return best


def path_points(card: str, values: Mapping[str, int]) -> int:
    return _tier_points(card, values[PATH_SCORING[card][0]])


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


def sheet_total(sheet: Sheet, options: Mapping[str, Any]) -> int:
    """``breakdown(sheet, options)["total"]``, reading only the measures the sheet's Path cards
    use: the computer players score thousands of sheets a move."""
    attributes = sheet["attributes"]
    points = sum(int(attributes[a]) for a in ATTRIBUTES)
    for card in dict.fromkeys(sheet["paths"]):  # each card once, as in ``breakdown``
        points += _tier_points(card, MEASURES[PATH_SCORING[card][0]](sheet, options))
    return points - penalty(final_disdain(sheet))


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
