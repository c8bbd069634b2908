"""Paying costs and gaining reward icons, with the chained rewards of the attribute tracks.

Reward order (spec 2.3, a design choice): the icons of one box resolve left to right as printed,
each completely (attribute chains depth first) before the next. A reward that cannot apply (a
full track, an attribute above 25, no empty cohort) is wasted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.hadrians_wall.components import (
    ATTRIBUTE_BOXES,
    ATTRIBUTE_CROSS,
    ATTRIBUTE_WORKER,
    ATTRIBUTE_WORKER_BOXES,
    ATTRIBUTES,
    CITIZEN_BOXES,
    CITIZEN_REWARDS,
    COHORT_BOXES,
    COHORT_REWARDS,
    COHORTS,
    DISDAIN_BOXES,
    FORT_INFRA,
    GOODS,
    ICON_TO_CITIZEN,
    PRODUCTION_CIRCLES,
)
from rules.hadrians_wall.state import Sheet
from rules.words import counted, signed

Gained = dict[str, int]


def note(gained: Gained, what: str, n: int = 1) -> None:
    gained[what] = gained.get(what, 0) + n


def can_afford(hand: Mapping[str, int], cost: Mapping[str, int]) -> bool:
    return all(hand.get(k, 0) >= n for k, n in cost.items())


def pay(sheet: Sheet, cost: Mapping[str, int]) -> None:
    hand = sheet["hand"]
    for key, n in cost.items():
        hand[key] -= n


def cost_text(cost: Mapping[str, int]) -> str:
    """``{"servant": 2, "resource": 1}`` -> ``"2 servants, 1 resource"``, in supply order."""
    parts = []
    for key in GOODS:
        n = cost.get(key, 0)
        if n:
            parts.append(counted(n, key))
    return ", ".join(parts) if parts else "free"


def infrastructure(sheet: Sheet) -> int:
    fort = int(sheet["fort"])
    return max((level for box, level in FORT_INFRA.items() if box <= fort), default=0)


def granary_level(sheet: Sheet) -> int:
    built = sheet["built"]
    return 1 + ("granary_medium" in built) + ("granary_large" in built)


def final_disdain(sheet: Sheet) -> int:
    return int(sheet["disdain"]) - int(sheet["disdain_removed"])


def add_attribute(sheet: Sheet, attr: str, gained: Gained) -> None:
    """Fill the next box of an attribute track and resolve what that box shows."""
    attrs = sheet["attributes"]
    n = attrs[attr]
    if n >= ATTRIBUTE_BOXES:
        note(gained, "wasted " + attr)
        return
    n += 1
    attrs[attr] = n
    note(gained, attr)
    if n in ATTRIBUTE_WORKER_BOXES[attr]:
        worker = ATTRIBUTE_WORKER[attr]
        sheet["hand"][worker] += 1
        note(gained, worker)
    cross = ATTRIBUTE_CROSS[attr].get(n)
    if cross is not None:
        add_attribute(sheet, cross, gained)


def fill_cohort(sheet: Sheet, cohort: str | None, gained: Gained) -> None:
    cohorts = sheet["cohorts"]
    if cohort is None:
        note(gained, "wasted cohort")
        return
    i = COHORTS.index(cohort)
    if cohorts[i] >= COHORT_BOXES:
        note(gained, "wasted cohort")
        return
    cohorts[i] += 1
    note(gained, f"{cohort} cohort")
    gain(sheet, COHORT_REWARDS[cohorts[i]], gained)


def open_cohorts(sheet: Sheet) -> list[str]:
    return [c for i, c in enumerate(COHORTS) if sheet["cohorts"][i] < COHORT_BOXES]


def advance_citizen(sheet: Sheet, track: str, gained: Gained) -> None:
    citizens = sheet["citizens"]
    n = citizens[track]
    if n >= CITIZEN_BOXES:
        note(gained, "wasted " + track)
        return
    n += 1
    citizens[track] = n
    note(gained, track)
    gain(sheet, CITIZEN_REWARDS[track][n], gained)


def circle_disdain(sheet: Sheet, n: int, gained: Gained) -> int:
    """Circle up to ``n`` empty Disdain boxes; beyond the last box it is not recorded."""
    room = DISDAIN_BOXES - int(sheet["disdain"])
    taken = max(0, min(n, room))
    sheet["disdain"] += taken
    if taken:
        note(gained, "disdain", taken)
    return taken


def gain(sheet: Sheet, icons: Iterable[str], gained: Gained, cohort: str | None = None) -> None:
    """Resolve reward icons in order. ``cohort`` is the player's choice for a cohort icon."""
    for icon in icons:
        if icon in GOODS:
            sheet["hand"][icon] += 1
            note(gained, icon)
        elif icon in ATTRIBUTES:
            add_attribute(sheet, icon, gained)
        elif icon == "cohort":
            fill_cohort(sheet, cohort, gained)
        elif icon == "production":
            if sheet["production"] < PRODUCTION_CIRCLES:
                sheet["production"] += 1
                note(gained, "production")
            else:
                note(gained, "wasted production")
        elif icon in ICON_TO_CITIZEN:
            advance_citizen(sheet, ICON_TO_CITIZEN[icon], gained)
        elif icon == "favour_any":
            sheet["favours"] += 1
            note(gained, "temple favour")
        elif icon == "remove_disdain":
            if final_disdain(sheet) > 0:
                sheet["disdain_removed"] += 1
                note(gained, "disdain removed")
        elif icon == "favour_cohort":
            pass  # recorded on the diplomat itself by the Diplomat action
        else:  # pragma: no cover - the data files are validated on load
            raise ValueError(f"unknown reward icon {icon!r}")


def gained_text(gained: Gained) -> str:
    if not gained:
        return ""
    parts = [signed(n, what) if not what.startswith("wasted") else f"{what} ({n})"
             for what, n in gained.items()]
    return "; " + ", ".join(parts)
