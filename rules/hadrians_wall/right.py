"""Right-sheet actions (spec section 4) other than the neighbour trades: Citizen Tracks, Theatre
performances, Gladiators (training and battles), Temple boxes, Baths bribes, Courthouse rulings
and Diplomats. Same pattern as ``left.py``: ``cands_*``, ``check_*``, ``run_*``.
"""

from __future__ import annotations

from rules.core import Action, InvalidAction
from rules.hadrians_wall.common import pick, year_uses
from rules.hadrians_wall.components import (
    BATHS_BOXES,
    BATHS_PER_YEAR,
    BATTLE_BOXES,
    BATTLE_MIN_STRENGTH,
    CITIZEN_BOXES,
    CITIZENS,
    COHORTS,
    COURTHOUSE_COLUMNS,
    DEATH_REWARD,
    DIPLOMAT_COST,
    DIPLOMAT_REQUIRES,
    DIPLOMAT_REWARD,
    FATE_CARDS,
    GLADIATOR_BOXES,
    GLADIATOR_COLUMN_PERFORMERS,
    GLADIATOR_TRAIN_PAY,
    GLADIATORS,
    SURVIVE_REWARD,
    TEMPLE_BOX_REQUIRES,
    TEMPLE_BOX_REWARD,
    TEMPLE_BOX_TEMPLE,
    TEMPLE_TOTAL_BOXES,
    THEATRE_BOXES,
    THEATRE_COST,
    THEATRE_PER_YEAR,
    WORKERS,
)
from rules.hadrians_wall.decks import can_draw, draw_fate
from rules.hadrians_wall.left import next_box
from rules.hadrians_wall.rewards import (
    advance_citizen,
    can_afford,
    cost_text,
    final_disdain,
    gain,
    note,
    pay,
)
from rules.hadrians_wall.state import Sheet, State, Work

# --------------------------------------------------------------------------------------------
# Citizen Tracks: 1 civilian fills the next box of a track.


def cands_citizen(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    if sheet["hand"]["civilian"] < 1:
        return []
    return [{"type": "citizen", "track": t, "box": sheet["citizens"][t] + 1} for t in CITIZENS
            if sheet["citizens"][t] < CITIZEN_BOXES]


def check_citizen(st: State, seat: int, action: Action) -> str | None:
    track = pick(action, "track", CITIZENS, "The citizen track")
    sheet = st.sheets[seat]
    if sheet["citizens"][track] >= CITIZEN_BOXES:
        return f"The {track} track is full."
    block = next_box(action, sheet["citizens"][track] + 1, f"{track} track")
    if block:
        return block
    if sheet["hand"]["civilian"] < 1:
        return "A citizen costs 1 civilian."
    return None


def run_citizen(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["hand"]["civilian"] -= 1
    advance_citizen(sheet, action["track"], w.gained)


# --------------------------------------------------------------------------------------------
# Theatre: 1 performance per Year, boxes in any order.


def perform_block(st: State, sheet: Sheet, box: int) -> str | None:
    if "theatre" not in sheet["built"]:
        return "Build the theatre first."
    if sheet["theatre"][box - 1]:
        return f"Theatre box {box} is already filled."
    need = THEATRE_BOXES[box - 1][0]
    if sheet["citizens"]["performers"] < need:
        return f"Theatre box {box} needs {need} performers."
    if year_uses(sheet["theatre"], st.year) >= THEATRE_PER_YEAR:
        return "Only one performance per Year."
    if not can_afford(sheet["hand"], THEATRE_COST):
        return f"A performance costs {cost_text(THEATRE_COST)}."
    return None


def cands_perform(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    return [{"type": "perform", "box": b} for b in range(1, len(THEATRE_BOXES) + 1)
            if perform_block(st, sheet, b) is None]


def check_perform(st: State, seat: int, action: Action) -> str | None:
    box = pick(action, "box", range(1, len(THEATRE_BOXES) + 1), "The theatre box")
    return perform_block(st, st.sheets[seat], box)


def run_perform(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    pay(sheet, THEATRE_COST)
    sheet["theatre"][action["box"] - 1] = w.year
    gain(sheet, THEATRE_BOXES[action["box"] - 1][1], w.gained)


# --------------------------------------------------------------------------------------------
# Ludus Gladiatorious: training and battles.


def is_dead(g: dict[str, int]) -> bool:
    return g["strength"] > 0 and g["damage"] >= g["strength"]


def train_block(sheet: Sheet, idx: int) -> str | None:
    if "ludus" not in sheet["built"]:
        return "Build the ludus gladiatorious first."
    g = sheet["gladiators"][idx]
    name = GLADIATORS[idx]
    if is_dead(g):
        return f"The {name} gladiator is dead."
    if g["strength"] >= GLADIATOR_BOXES:
        return f"The {name} gladiator is fully trained."
    need = GLADIATOR_COLUMN_PERFORMERS[g["strength"]]
    if sheet["citizens"]["performers"] < need:
        return f"Strength {g['strength'] + 1} needs {need} performers."
    return None


def cands_gladiator(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    out: list[Action] = []
    for idx, name in enumerate(GLADIATORS):
        if train_block(sheet, idx) is None:
            out.extend({"type": "gladiator", "gladiator": name, "pay": p}
                       for p in GLADIATOR_TRAIN_PAY if sheet["hand"][p] >= 1)
    return out


def check_gladiator(st: State, seat: int, action: Action) -> str | None:
    name = pick(action, "gladiator", GLADIATORS, "The gladiator")
    payment = pick(action, "pay", GLADIATOR_TRAIN_PAY, "Training payment")
    sheet = st.sheets[seat]
    block = train_block(sheet, GLADIATORS.index(name))
    if block:
        return block
    if sheet["hand"][payment] < 1:
        return "Training a gladiator costs 1 servant or 1 civilian."
    return None


def run_gladiator(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["hand"][action["pay"]] -= 1
    g = sheet["gladiators"][GLADIATORS.index(action["gladiator"])]
    g["strength"] += 1
    note(w.gained, f"{action['gladiator']} gladiator strength")


def battle_block(st: State, sheet: Sheet, idx: int) -> str | None:
    if "ludus" not in sheet["built"]:
        return "Build the ludus gladiatorious first."
    g = sheet["gladiators"][idx]
    name = GLADIATORS[idx]
    if g["strength"] - g["damage"] < BATTLE_MIN_STRENGTH:
        return f"The {name} gladiator has no strength left to battle."
    if st.year in g["battles"] or len(g["battles"]) >= BATTLE_BOXES:
        return f"The {name} gladiator has already battled this Year."
    if not can_draw(st):
        return "The Fate deck is empty."
    return None


def cands_battle(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    return [{"type": "battle", "gladiator": n} for i, n in enumerate(GLADIATORS)
            if battle_block(st, sheet, i) is None]


def check_battle(st: State, seat: int, action: Action) -> str | None:
    name = pick(action, "gladiator", GLADIATORS, "The gladiator")
    return battle_block(st, st.sheets[seat], GLADIATORS.index(name))


def run_battle(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    g = sheet["gladiators"][GLADIATORS.index(action["gladiator"])]
    g["battles"].append(w.year)
    card_id = draw_fate(w)
    assert card_id is not None  # checked by battle_block
    w.fate_discard.append(card_id)
    damage = FATE_CARDS[card_id].gladiator_damage
    g["damage"] = min(g["strength"], g["damage"] + damage)
    strength = g["strength"]
    if g["damage"] >= strength:
        w.notes.append(f"drew {card_id}: {damage} damage, the gladiator dies")
        gain(sheet, DEATH_REWARD[strength], w.gained)
    else:
        w.notes.append(f"drew {card_id}: {damage} damage, the gladiator survives")
        gain(sheet, SURVIVE_REWARD[strength], w.gained)


# --------------------------------------------------------------------------------------------
# Temples: boxes 1..14 across the three temples, filled in order with any worker.


def temple_block(sheet: Sheet) -> str | None:
    box = int(sheet["temple_boxes"]) + 1
    if box > TEMPLE_TOTAL_BOXES:
        return "Every temple is full."
    temple = TEMPLE_BOX_TEMPLE[box]
    if f"temple_{temple}" not in sheet["built"]:
        return f"Build the {temple} temple first."
    need = TEMPLE_BOX_REQUIRES[box]
    if sheet["citizens"]["priests"] < need:
        return f"The next {temple} temple box needs {need} priests."
    return None


def cands_temple(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    if temple_block(sheet):
        return []
    box = sheet["temple_boxes"] + 1
    return [{"type": "temple", "box": box, "pay": w} for w in WORKERS if sheet["hand"][w] >= 1]


def check_temple(st: State, seat: int, action: Action) -> str | None:
    worker = pick(action, "pay", WORKERS, "The temple payment")
    sheet = st.sheets[seat]
    block = temple_block(sheet) or next_box(action, sheet["temple_boxes"] + 1, "temple")
    if block:
        return block
    if sheet["hand"][worker] < 1:
        return f"You have no {worker}."
    return None


def run_temple(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["hand"][action["pay"]] -= 1
    sheet["temple_boxes"] += 1
    gain(sheet, TEMPLE_BOX_REWARD[sheet["temple_boxes"]], w.gained)


# --------------------------------------------------------------------------------------------
# Baths: bribes remove Disdain, 2 per Year, boxes in any order.


def bribe_block(st: State, sheet: Sheet, box: int) -> str | None:
    if "baths" not in sheet["built"]:
        return "Build the baths first."
    if sheet["baths"][box - 1]:
        return f"Baths box {box} is already filled."
    need, cost = BATHS_BOXES[box - 1]
    if sheet["citizens"]["apparitores"] < need:
        return f"Baths box {box} needs {need} apparitores."
    if year_uses(sheet["baths"], st.year) >= BATHS_PER_YEAR:
        return f"Only {BATHS_PER_YEAR} bribes per Year."
    if final_disdain(sheet) < 1:
        return "You have no Disdain to remove."
    if sheet["hand"]["resource"] < cost:
        return f"Baths box {box} costs {cost} resources."
    return None


def cands_bribe(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    return [{"type": "bribe", "box": b} for b in range(1, len(BATHS_BOXES) + 1)
            if bribe_block(st, sheet, b) is None]


def check_bribe(st: State, seat: int, action: Action) -> str | None:
    box = pick(action, "box", range(1, len(BATHS_BOXES) + 1), "The baths box")
    return bribe_block(st, st.sheets[seat], box)


def run_bribe(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["hand"]["resource"] -= BATHS_BOXES[action["box"] - 1][1]
    sheet["baths"][action["box"] - 1] = w.year
    gain(sheet, ("remove_disdain",), w.gained)


# --------------------------------------------------------------------------------------------
# Courthouse: one ruling per column per Year, boxes top to bottom.


def ruling_block(st: State, sheet: Sheet, col: int) -> str | None:
    if "courthouse" not in sheet["built"]:
        return "Build the courthouse first."
    cost, _, reqs = COURTHOUSE_COLUMNS[col - 1]
    used = sheet["courthouse"][col - 1]
    if len(used) >= len(reqs):
        return f"Courthouse column {col} is full."
    if st.year in used:
        return f"Only one ruling in column {col} per Year."
    need = reqs[len(used)]
    if sheet["citizens"]["apparitores"] < need:
        return f"The next ruling in column {col} needs {need} apparitores."
    if not can_afford(sheet["hand"], cost):
        return f"This ruling costs {cost_text(cost)}."
    return None


def cands_ruling(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    return [{"type": "ruling", "column": c} for c in range(1, len(COURTHOUSE_COLUMNS) + 1)
            if ruling_block(st, sheet, c) is None]


def check_ruling(st: State, seat: int, action: Action) -> str | None:
    col = pick(action, "column", range(1, len(COURTHOUSE_COLUMNS) + 1), "The courthouse column")
    return ruling_block(st, st.sheets[seat], col)


def run_ruling(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    cost, got, _ = COURTHOUSE_COLUMNS[action["column"] - 1]
    pay(sheet, cost)
    sheet["courthouse"][action["column"] - 1].append(w.year)
    for key, n in got.items():
        gain(sheet, (key,) * n, w.gained)


# --------------------------------------------------------------------------------------------
# Diplomats: Valour and 2 favours for one cohort, each diplomat a different cohort.

DIPLOMAT_FAVOURS = DIPLOMAT_REWARD.count("favour_cohort")


def diplomat_block(sheet: Sheet) -> str | None:
    k = len(sheet["diplomats"])
    if k >= len(DIPLOMAT_REQUIRES):
        return "All three diplomats are out."
    if sheet["citizens"]["patricians"] < DIPLOMAT_REQUIRES[k]:
        return f"Diplomat {k + 1} needs {DIPLOMAT_REQUIRES[k]} patricians."
    if not can_afford(sheet["hand"], DIPLOMAT_COST):
        return f"A diplomat costs {cost_text(DIPLOMAT_COST)}."
    return None


def free_cohorts(sheet: Sheet) -> list[str]:
    taken = {d["cohort"] for d in sheet["diplomats"]}
    return [c for c in COHORTS if c not in taken]


def cands_diplomat(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    if diplomat_block(sheet):
        return []
    return [{"type": "diplomat", "cohort": c} for c in free_cohorts(sheet)]


def check_diplomat(st: State, seat: int, action: Action) -> str | None:
    if action["cohort"] not in COHORTS:
        raise InvalidAction("A diplomat serves the left, center or right cohort.")
    sheet = st.sheets[seat]
    block = diplomat_block(sheet)
    if block:
        return block
    if action["cohort"] not in free_cohorts(sheet):
        return "Each diplomat serves a different cohort: " + ", ".join(free_cohorts(sheet)) + "."
    return None


def run_diplomat(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    pay(sheet, DIPLOMAT_COST)
    sheet["diplomats"].append({"cohort": action["cohort"], "favours": DIPLOMAT_FAVOURS, "used": 0})
    gain(sheet, DIPLOMAT_REWARD, w.gained)
    note(w.gained, f"{action['cohort']} cohort favour", DIPLOMAT_FAVOURS)
