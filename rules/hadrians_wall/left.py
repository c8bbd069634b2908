"""Left-sheet actions (spec section 3): Mining & Foresting, Wall Guard, Training Grounds, Fort,
Wall, Cippi, every building (both sheets share the build rules), the Forum and the Landmarks.

Each action has ``cands_*`` (what may be legal), ``check_*`` (None when legal, else why not) and
``run_*`` (the effect on a ``Work``); ``legal_actions`` keeps the candidates that pass the check,
so the legal list and ``apply`` can never disagree.
"""

from __future__ import annotations

from rules.core import Action, InvalidAction
from rules.hadrians_wall.common import (
    BUILDING_LABELS,
    TRACK_LABELS,
    cohort_check,
    pick,
    with_cohorts,
    year_uses,
)
from rules.hadrians_wall.components import (
    BUILDINGS,
    CIPPI_LINKS,
    FORUM_BOXES,
    FORUM_PER_YEAR,
    FORUM_WORKERS,
    GUARD,
    LANDMARK_COST,
    LANDMARKS,
    TRACKS,
    TRAINING_BOXES,
    TRAINING_PER_YEAR,
)
from rules.hadrians_wall.rewards import (
    add_attribute,
    can_afford,
    cost_text,
    gain,
    granary_level,
    infrastructure,
    pay,
)
from rules.hadrians_wall.state import Sheet, State, Work

TRACK_PAY = {
    "mining": ("servant",),
    "guard": ("soldier",),
    "fort": ("builder", "soldier"),
    "wall": ("resource",),
    "cippi": ("resource",),
}
GRANARY_NAMES = {2: "medium", 3: "large"}


def track_block(sheet: Sheet, name: str) -> str | None:
    """Why the next box of a track cannot be filled now (granary or chain lock), or None."""
    track = TRACKS[name]
    label = TRACK_LABELS[name]
    box = int(sheet[name]) + 1
    if box > track.length:
        return f"The {label} is full."
    col = track.columns[box]
    if col > granary_level(sheet):
        return f"{label} {box} needs the {GRANARY_NAMES[col]} granary."
    if name == "wall" and sheet["fort"] < box:
        return f"Wall {box} is chained to Fort {box}: fill Fort {box} first."
    if name == "cippi" and sheet["fort"] < CIPPI_LINKS[box]:
        return f"Cippi {box} is chained to Fort {CIPPI_LINKS[box]}: fill that Fort box first."
    return None


def next_box(action: Action, box: int, label: str) -> str | None:
    """Boxes of a track are filled in order: the action names the next one."""
    if not isinstance(action.get("box"), int):
        raise InvalidAction("The box is a number.")
    if action["box"] != box:
        return f"The next {label} box is {box}."
    return None


# --------------------------------------------------------------------------------------------
# Tracks: mine, guard, fort, wall, cippi.


def cands_track(st: State, seat: int, name: str) -> list[Action]:
    sheet = st.sheets[seat]
    if track_block(sheet, name) is not None:
        return []
    box = int(sheet[name]) + 1
    icons = TRACKS[name].rewards[box]
    out: list[Action] = []
    for payment in TRACK_PAY[name]:
        if sheet["hand"][payment] < 1:
            continue
        base: Action = {"type": name, "box": box}
        if len(TRACK_PAY[name]) > 1:
            base["pay"] = payment
        out.extend(with_cohorts(sheet, icons, base))
    return out


def check_track(st: State, seat: int, action: Action) -> str | None:
    name = action["type"]
    multi = len(TRACK_PAY[name]) > 1
    payment = pick(action, "pay", TRACK_PAY[name], "Payment") if multi else TRACK_PAY[name][0]
    sheet = st.sheets[seat]
    block = track_block(sheet, name) or next_box(action, int(sheet[name]) + 1, TRACK_LABELS[name])
    if block:
        return block
    if sheet["hand"][payment] < 1:
        return f"{TRACK_LABELS[name]} costs 1 {payment}; you have none."
    return cohort_check(sheet, TRACKS[name].rewards[int(sheet[name]) + 1], action)


def run_track(w: Work, seat: int, action: Action) -> None:
    name = action["type"]
    sheet = w.sheet(seat)
    payment = action.get("pay", TRACK_PAY[name][0])
    sheet["hand"][payment] -= 1
    sheet[name] += 1
    gain(sheet, TRACKS[name].rewards[sheet[name]], w.gained, action.get("cohort"))


# --------------------------------------------------------------------------------------------
# Training Grounds: a builder becomes a sword that fills the next Wall Guard box.


def training_block(st: State, sheet: Sheet) -> str | None:
    if len(sheet["training"]) >= TRAINING_BOXES:
        return "The Training Grounds are full."
    if year_uses(sheet["training"], st.year) >= TRAINING_PER_YEAR:
        return "You may train only once per Year."
    if sheet["hand"]["builder"] < 1:
        return "Training costs 1 builder."
    if not st.options["training_when_guard_locked"]:
        return track_block(sheet, "guard")
    return None


def _sword_box_icons(sheet: Sheet) -> tuple[str, ...]:
    if track_block(sheet, "guard") is not None:
        return ()
    return GUARD.rewards[int(sheet["guard"]) + 1]


def cands_train(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    if training_block(st, sheet):
        return []
    base: Action = {"type": "train", "box": len(sheet["training"]) + 1}
    return with_cohorts(sheet, _sword_box_icons(sheet), base)


def check_train(st: State, seat: int, action: Action) -> str | None:
    sheet = st.sheets[seat]
    return (
        training_block(st, sheet)
        or next_box(action, len(sheet["training"]) + 1, "Training Grounds")
        or cohort_check(sheet, _sword_box_icons(sheet), action)
    )


def run_train(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["hand"]["builder"] -= 1
    sheet["training"].append(w.year)
    if track_block(sheet, "guard") is None:
        sheet["guard"] += 1
        gain(sheet, GUARD.rewards[sheet["guard"]], w.gained, action.get("cohort"))
    else:
        w.gained["wasted sword"] = 1


# --------------------------------------------------------------------------------------------
# Buildings (both sheets).


def building_block(sheet: Sheet, name: str) -> str | None:
    b = BUILDINGS[name]
    label = BUILDING_LABELS[name]
    if name in sheet["built"]:
        return f"The {label} is already built."
    if b.built is not None and b.built not in sheet["built"]:
        return f"Build the {BUILDING_LABELS[b.built]} before the {label}."
    for key, n in b.requires.items():
        have = infrastructure(sheet) if key == "infrastructure" else sheet["citizens"][key]
        if have < n:
            return f"The {label} needs {n} {key} (you have {have})."
    if not can_afford(sheet["hand"], b.cost):
        return f"The {label} costs {cost_text(b.cost)}."
    return None


def cands_build(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    out: list[Action] = []
    for name, b in BUILDINGS.items():
        if building_block(sheet, name) is None:
            if b.choice:
                out.extend({"type": "build", "building": name, "attribute": a} for a in b.choice)
            else:
                out.append({"type": "build", "building": name})
    return out


def check_build(st: State, seat: int, action: Action) -> str | None:
    name = pick(action, "building", BUILDINGS, "The building")
    b = BUILDINGS[name]
    block = building_block(st.sheets[seat], name)
    if block:
        return block
    if b.choice:
        if action.get("attribute") not in b.choice:
            return f"The {BUILDING_LABELS[name]} gives " + " or ".join(b.choice) + ": choose one."
    elif "attribute" in action:
        return f"The {BUILDING_LABELS[name]} gives no attribute choice."
    return None


def run_build(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    b = BUILDINGS[action["building"]]
    pay(sheet, b.cost)
    sheet["built"].append(b.name)
    gain(sheet, b.reward, w.gained)
    if b.choice:
        add_attribute(sheet, action["attribute"], w.gained)


# --------------------------------------------------------------------------------------------
# Forum: 2 workers (no soldiers) for 1 worker of another type, once per Year.


def forum_gains(rule: str, paid: list[str]) -> list[str]:
    """Workers the Forum may give for ``paid`` (spec 3.10; the reading is an option)."""
    if rule == "unpaid_type":
        return [w for w in FORUM_WORKERS if w not in paid]
    return [w for w in FORUM_WORKERS if not all(p == w for p in paid)]


def forum_block(st: State, sheet: Sheet) -> str | None:
    if len(sheet["forum"]) >= FORUM_BOXES:
        return "The Forum is full."
    if year_uses(sheet["forum"], st.year) >= FORUM_PER_YEAR:
        return "You may use the Forum only once per Year."
    return None


def _pairs() -> list[list[str]]:
    out = []
    for i, a in enumerate(FORUM_WORKERS):
        for b in FORUM_WORKERS[i:]:
            out.append([a, b])
    return out


FORUM_PAIRS = _pairs()


def cands_forum(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    if forum_block(st, sheet):
        return []
    out: list[Action] = []
    box = len(sheet["forum"]) + 1
    for paid in FORUM_PAIRS:
        if _affords_pair(sheet, paid):
            for g in forum_gains(st.options["forum_gain"], paid):
                out.append({"type": "forum", "box": box, "pay": list(paid), "gain": g})
    return out


def _affords_pair(sheet: Sheet, paid: list[str]) -> bool:
    return all(sheet["hand"][w] >= paid.count(w) for w in paid)


def check_forum(st: State, seat: int, action: Action) -> str | None:
    paid = action["pay"]
    if not isinstance(paid, list) or len(paid) != 2 or any(p not in FORUM_WORKERS for p in paid):
        raise InvalidAction("The Forum takes 2 workers: builders, servants or civilians.")
    if paid != sorted(paid, key=FORUM_WORKERS.index):
        raise InvalidAction("List the paid workers in the order builder, servant, civilian.")
    pick(action, "gain", FORUM_WORKERS, "The gained worker")
    sheet = st.sheets[seat]
    block = forum_block(st, sheet) or next_box(action, len(sheet["forum"]) + 1, "Forum")
    if block:
        return block
    if not _affords_pair(sheet, paid):
        return "You do not have those 2 workers."
    allowed = forum_gains(st.options["forum_gain"], paid)
    if action["gain"] not in allowed:
        return "The gained worker must differ from the workers paid: " + " or ".join(allowed) + "."
    return None


def run_forum(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    for p in action["pay"]:
        sheet["hand"][p] -= 1
    sheet["forum"].append(w.year)
    gain(sheet, (action["gain"],), w.gained)


# --------------------------------------------------------------------------------------------
# Landmarks: once each, when the named attribute reaches 15.


def landmark_block(sheet: Sheet, name: str) -> str | None:
    attr, needed, _ = LANDMARKS[name]
    if name in sheet["landmarks"]:
        return f"The {name} is already built."
    if sheet["attributes"][attr] < needed:
        return f"The {name} needs {needed} {attr}."
    if not can_afford(sheet["hand"], LANDMARK_COST):
        return f"A landmark costs {cost_text(LANDMARK_COST)}."
    return None


def cands_landmark(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    return [{"type": "landmark", "landmark": n} for n in LANDMARKS if not landmark_block(sheet, n)]


def check_landmark(st: State, seat: int, action: Action) -> str | None:
    name = pick(action, "landmark", LANDMARKS, "The landmark")
    return landmark_block(st.sheets[seat], name)


def run_landmark(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    pay(sheet, LANDMARK_COST)
    sheet["landmarks"].append(action["landmark"])
    gain(sheet, LANDMARKS[action["landmark"]][2], w.gained)
