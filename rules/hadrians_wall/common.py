"""Small helpers shared by the action modules: field checks, labels, per-Year limits."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core import Action, InvalidAction
from rules.hadrians_wall.components import BUILDINGS, COHORTS
from rules.hadrians_wall.rewards import open_cohorts
from rules.hadrians_wall.state import Sheet

TRACK_LABELS = {
    "mining": "Mining & Foresting",
    "guard": "Wall Guard",
    "fort": "Fort",
    "wall": "Wall",
    "cippi": "Cippi",
}

BUILDING_LABELS = {
    "granary_medium": "medium granary",
    "granary_large": "large granary",
    "hotel_small": "small hotel",
    "hotel_large": "large hotel",
    "workshop_small": "small workshop",
    "workshop_large": "large workshop",
    "road_small": "small road",
    "road_large": "large road",
    "precinct_small": "small precinct",
    "precinct_medium": "medium precinct",
    "precinct_large": "large precinct",
    "market": "market",
    "theatre": "theatre",
    "ludus": "ludus gladiatorious",
    "gardens_small": "small gardens",
    "gardens_large": "large gardens",
    "temple_small": "small temple",
    "temple_medium": "medium temple",
    "temple_large": "large temple",
    "baths": "baths",
    "courthouse": "courthouse",
}
if set(BUILDING_LABELS) != set(BUILDINGS):
    raise ValueError("Hadrian's Wall data: every building needs a label")


def pick(action: Action, key: str, allowed: Iterable[Any], what: str) -> Any:
    value = action.get(key)
    options = list(allowed)
    if value not in options:
        raise InvalidAction(f"{what} must be one of: {', '.join(str(o) for o in options)}.")
    return value


def year_uses(boxes: list[int], year: int) -> int:
    """How many '#' boxes carry this Year's number."""
    return sum(1 for y in boxes if y == year)


def cohort_check(sheet: Sheet, icons: tuple[str, ...], action: Action) -> str | None:
    """A box with a cohort icon needs the player's cohort choice when some cohort is open."""
    if "cohort" in icons and open_cohorts(sheet):
        choice = action.get("cohort")
        if choice is None:
            return "Say which cohort gets the shield: " + ", ".join(open_cohorts(sheet)) + "."
        if choice not in COHORTS:
            raise InvalidAction("The cohort is left, center or right.")
        if choice not in open_cohorts(sheet):
            return f"The {choice} cohort is full; choose " + ", ".join(open_cohorts(sheet)) + "."
        return None
    if "cohort" in action:
        return "This box gives no cohort shield (or every cohort is full); leave out the cohort."
    return None


def with_cohorts(sheet: Sheet, icons: tuple[str, ...], base: Action) -> list[Action]:
    if "cohort" in icons and open_cohorts(sheet):
        return [{**base, "cohort": c} for c in open_cohorts(sheet)]
    return [base]
