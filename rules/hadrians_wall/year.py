"""The Year cycle (spec 2.2, 2.4, 2.5 and 9): Year setup (Fate card, secret Path/Prospect choice,
reveal, Neutral cards, sheet income), Road income choices, passing, the Pict attack with optional
favours, and the end of the Year or of the game.
"""

from __future__ import annotations

from rules.core import Action
from rules.hadrians_wall.common import pick
from rules.hadrians_wall.components import (
    ATTACK_CARDS,
    ATTRIBUTES,
    COHORTS,
    FATE_CARDS,
    GOODS,
    GREY_FLAG,
    NEUTRAL_REVEAL,
    PLAYER_CARDS,
    YEARS,
)
from rules.hadrians_wall.decks import draw_fate
from rules.hadrians_wall.rewards import add_attribute, circle_disdain, gained_text
from rules.hadrians_wall.state import Sheet, State, Work
from rules.words import counted, plural

# --------------------------------------------------------------------------------------------
# Year setup.


def start_year(w: Work, year: int) -> None:
    w.year = year
    w.phase = "choose"
    card_id = draw_fate(w)
    w.year_card = card_id
    if card_id is not None:
        w.fate_discard.append(card_id)
        gains = FATE_CARDS[card_id].gains
    else:
        gains = {}
    for seat in range(w.players):
        sheet = w.sheet(seat)
        for good, n in gains.items():
            sheet["hand"][good] += n
        sheet["drawn"] = sheet["deck"][:2]
        sheet["deck"] = sheet["deck"][2:]
        sheet["chosen"] = None
        sheet["passed"] = False
        sheet["decided"] = True
        sheet["ignored"] = []
        w.emit("draw", f"You draw {' and '.join(sheet['drawn'])}: choose one as your Path.",
               frozenset({seat}), cards=list(sheet["drawn"]))
    what = ", ".join(counted(n, g) for g, n in gains.items() if n)
    # With reshuffling off (spec 2.7 option) the draw pile can be empty: nothing is gained.
    fate = (f"Fate card {card_id}: everyone gains {what}." if card_id is not None
            else "The Fate deck is empty: nobody gains anything.")
    w.emit("year", f"Year {year} begins. {fate} Each player chooses a Path card in secret.",
           year=year, card=card_id)
    w.irreversible = True


def cands_choose(st: State, seat: int) -> list[Action]:
    return [{"type": "choose", "path": c} for c in st.sheets[seat]["drawn"]]


def check_choose(st: State, seat: int, action: Action) -> str | None:
    drawn = st.sheets[seat]["drawn"]
    pick(action, "path", PLAYER_CARDS, "The Path card")
    if action["path"] not in drawn:
        return "Choose one of the cards you drew: " + " or ".join(drawn) + "."
    return None


def run_choose(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["chosen"] = action["path"]
    other = [c for c in sheet["drawn"] if c != action["path"]]
    w.emit("chosen", f"You chose {action['path']} as your Path and {other[0]} as your Prospect.",
           frozenset({seat}), path=action["path"], prospect=other[0])
    w.emit("chosen", f"{{p{seat}}} has chosen.", seat=seat)


def reveal(w: Work) -> None:
    """Everyone has chosen: reveal, take prospect gains, Neutral cards, then sheet income."""
    for seat in range(w.players):
        sheet = w.sheet(seat)
        path = sheet["chosen"]
        prospect = next(c for c in sheet["drawn"] if c != path)
        sheet["paths"].append(path)
        sheet["prospects"].append(prospect)
        sheet["drawn"] = []
        sheet["chosen"] = None
        gains = PLAYER_CARDS[prospect].prospect_gain
        for good, n in gains.items():
            sheet["hand"][good] += n
        got = ", ".join(counted(n, g) for g, n in gains.items())
        w.emit("reveal", f"{{p{seat}}} reveals Path {path} and Prospect {prospect} (+{got}).",
               seat=seat, path=path, prospect=prospect)
    count = NEUTRAL_REVEAL.get(w.players, 0)
    w.neutral = []
    for _ in range(min(count, len(w.neutral_deck))):
        card = w.neutral_deck.pop(0)
        w.neutral.append({"card": card, "resources": 0, "soldiers": 0, "by": [0] * w.players})
    if w.neutral:
        names = [n["card"] for n in w.neutral]
        w.emit("neutral", f"{plural('Neutral card', len(names))} revealed: {', '.join(names)}.",
               cards=names)
    for seat in range(w.players):
        income(w, seat)
    w.phase = "actions"
    w.irreversible = True


def count_built(sheet: Sheet, kind: str) -> int:
    return sum(1 for b in sheet["built"] if b.startswith(kind + "_"))


def income(w: Work, seat: int) -> None:
    sheet = w.sheet(seat)
    hand = sheet["hand"]
    hand["resource"] += sheet["production"]
    hand["civilian"] += count_built(sheet, "hotel")
    hand["builder"] += count_built(sheet, "workshop")
    sheet["road_pending"] = count_built(sheet, "road")


# --------------------------------------------------------------------------------------------
# Road income and passing.


def cands_road(st: State, seat: int) -> list[Action]:
    return [{"type": "road", "attribute": a} for a in ATTRIBUTES]


def check_road(st: State, seat: int, action: Action) -> str | None:
    pick(action, "attribute", ATTRIBUTES, "The attribute")
    if st.sheets[seat]["road_pending"] < 1:
        return "You have no Road income to take."
    return None


def run_road(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    sheet["road_pending"] -= 1
    add_attribute(sheet, action["attribute"], w.gained)


def check_pass(st: State, seat: int, action: Action) -> str | None:
    if st.sheets[seat]["road_pending"]:
        return "Take your Road income first."
    return None


def run_pass(w: Work, seat: int, action: Action) -> None:
    w.sheet(seat)["passed"] = True


# --------------------------------------------------------------------------------------------
# The Pict attack.


def seat_cards(st: State | Work, seat: int) -> list[str]:
    """The attack cards a seat faces: the shared ones plus its own extra cards (per-player mode)."""
    extra: list[str] = []
    if st.last_attack is not None:
        extra = list(st.last_attack["extra"][seat])
    return [*st.attack, *extra]


def remaining(cards: list[str], sheet: Sheet) -> dict[str, int]:
    out = {c: 0 for c in COHORTS}
    for card in cards:
        out[FATE_CARDS[card].attack] += 1
    for cohort in sheet["ignored"]:
        out[cohort] -= 1
    return out


def diplomat_for(sheet: Sheet, cohort: str) -> dict[str, object] | None:
    for d in sheet["diplomats"]:
        if d["cohort"] == cohort and d["used"] < d["favours"]:
            return dict(d)
    return None


def temple_favours(sheet: Sheet) -> int:
    return int(sheet["favours"]) - int(sheet["favours_used"])


def needs_decision(st: State | Work, seat: int, sheet: Sheet) -> bool:
    left = remaining(seat_cards(st, seat), sheet)
    temple = temple_favours(sheet) > 0
    prompt_always = st.options["favour_prompt"] == "always"
    for i, c in enumerate(COHORTS):
        if left[c] > 0 and (temple or diplomat_for(sheet, c) is not None):
            if prompt_always or left[c] > sheet["cohorts"][i]:
                return True
    return False


def end_actions(w: Work) -> None:
    """Everyone has passed: leftovers go back, the attack cards are drawn."""
    for seat in range(w.players):
        sheet = w.sheet(seat)
        sheet["hand"] = {g: 0 for g in GOODS}
    n = ATTACK_CARDS[str(w.options["difficulty"])][w.year - 1]
    per_player = w.options["neutral_extra_attacks"] == "per_player"
    items = [n_["resources"] + n_["soldiers"] for n_ in w.neutral]
    if not per_player:
        n += sum(items)
    cards = [c for c in (draw_fate(w) for _ in range(n)) if c is not None]
    w.attack = cards
    extra: list[list[str]] = []
    for seat in range(w.players):
        mine = sum(card["by"][seat] for card in w.neutral) if per_player else 0
        extra.append([c for c in (draw_fate(w) for _ in range(mine)) if c is not None])
    w.last_attack = {"year": w.year, "cards": list(cards), "extra": extra,
                     "grey_flag": GREY_FLAG[w.year - 1], "results": [None] * w.players}
    arrows = ", ".join(FATE_CARDS[c].attack for c in cards) or "none"
    w.emit("attack", f"Year {w.year}: the Picts attack with {counted(len(cards), 'card')}: "
           f"{arrows}.", cards=list(cards))
    w.phase = "attack"
    for seat in range(w.players):
        sheet = w.sheet(seat)
        sheet["ignored"] = []
        sheet["decided"] = not needs_decision(w, seat, sheet)
        if sheet["decided"]:
            resolve(w, seat)


def resolve(w: Work, seat: int) -> None:
    sheet = w.sheet(seat)
    left = remaining(seat_cards(w, seat), sheet)
    defence = dict(zip(COHORTS, sheet["cohorts"], strict=True))
    through = sum(max(0, left[c] - defence[c]) for c in COHORTS)
    grey = GREY_FLAG[w.year - 1]
    disdain = min(through, grey)
    valour = grey - disdain
    gained: dict[str, int] = {}
    for _ in range(valour):
        add_attribute(sheet, "valour", gained)
    circle_disdain(sheet, disdain, gained)
    sheet["decided"] = True
    assert w.last_attack is not None
    w.last_attack["results"][seat] = {
        "attacks": left, "defence": defence, "ignored": list(sheet["ignored"]),
        "through": through, "valour": valour, "disdain": disdain,
    }
    if through == 0:
        verdict = "holds every attack"
    elif disdain >= grey:
        verdict = f"lets {counted(through, 'attack')} through"
    else:
        verdict = f"lets {counted(through, 'attack')} through, partly"
    # Valour and Disdain are said once, not again among the other gains.
    others = {k: n for k, n in gained.items() if k not in ("valour", "disdain")}
    w.emit("defence", f"{{p{seat}}} {verdict}: +{valour} valour, +{disdain} disdain"
           f"{gained_text(others)}.", seat=seat, valour=valour, disdain=disdain)


def cands_favour(st: State, seat: int) -> list[Action]:
    sheet = st.sheets[seat]
    left = remaining(seat_cards(st, seat), sheet)
    out: list[Action] = []
    for c in COHORTS:
        if left[c] > 0:
            if temple_favours(sheet) > 0:
                out.append({"type": "favour", "cohort": c, "with": "temple"})
            if diplomat_for(sheet, c) is not None:
                out.append({"type": "favour", "cohort": c, "with": "diplomat"})
    return out


def check_favour(st: State, seat: int, action: Action) -> str | None:
    cohort = pick(action, "cohort", COHORTS, "The cohort")
    source = pick(action, "with", ("temple", "diplomat"), "The favour")
    sheet = st.sheets[seat]
    if remaining(seat_cards(st, seat), sheet)[cohort] < 1:
        return f"No {cohort} attack card is left to ignore."
    if source == "temple" and temple_favours(sheet) < 1:
        return "You have no temple favour left."
    if source == "diplomat" and diplomat_for(sheet, cohort) is None:
        return f"No diplomat favour is left for the {cohort} cohort."
    return None


def run_favour(w: Work, seat: int, action: Action) -> None:
    sheet = w.sheet(seat)
    cohort = action["cohort"]
    if action["with"] == "temple":
        sheet["favours_used"] += 1
    else:
        for d in sheet["diplomats"]:
            if d["cohort"] == cohort and d["used"] < d["favours"]:
                d["used"] += 1
                break
    sheet["ignored"].append(cohort)


def check_defend(st: State, seat: int, action: Action) -> str | None:
    return None


def run_defend(w: Work, seat: int, action: Action) -> None:
    resolve(w, seat)


def finish_year(w: Work) -> None:
    assert w.last_attack is not None
    w.fate_discard.extend(w.attack)
    for extra in w.last_attack["extra"]:
        w.fate_discard.extend(extra)
    w.attack = []
    w.neutral = []
    if not w.options["favours_persist"]:
        for seat in range(w.players):
            sheet = w.sheet(seat)
            sheet["favours_used"] = sheet["favours"]
            for d in sheet["diplomats"]:
                d["used"] = d["favours"]
    if w.year >= YEARS:
        for seat in range(w.players):
            w.sheet(seat)["hand"] = {g: 0 for g in GOODS}
        w.phase = "over"
        w.emit("over", "The game is over after the Year 6 attack.")
        return
    start_year(w, w.year + 1)


# --------------------------------------------------------------------------------------------
# Moving the Year along after an action.


def advance(w: Work) -> None:
    """Run the automatic steps that follow once every active seat is done with a phase."""
    if w.phase == "choose" and all(w.peek(s)["chosen"] for s in range(w.players)):
        reveal(w)
    if w.phase == "actions" and all(w.peek(s)["passed"] for s in range(w.players)):
        end_actions(w)
    if w.phase == "attack" and all(w.peek(s)["decided"] for s in range(w.players)):
        finish_year(w)


def after_favour(w: Work, seat: int) -> None:
    """A player left with no favour worth spending is resolved without another step."""
    sheet = w.peek(seat)
    if not sheet["decided"] and not needs_decision(w, seat, sheet):
        resolve(w, seat)

