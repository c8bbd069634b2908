"""Views (what each seat may see) and the plain-text account of a view.

The sheets are public, as at the table; what stays hidden is each player's Player-card deck
order, the two cards drawn this Year and the Path chosen among them until everyone has chosen,
the Fate draw pile and the Neutral deck order. A seat's own view adds its drawn cards, its
choice and the (sorted) cards left in its deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action
from rules.hadrians_wall.actions import active, legal
from rules.hadrians_wall.components import (
    ATTACK_CARDS,
    ATTRIBUTES,
    CITIZENS,
    COHORTS,
    FATE_CARDS,
    GLADIATORS,
    GREY_FLAG,
    PLAYER_CARDS,
    YEARS,
)
from rules.hadrians_wall.notation import format_action
from rules.hadrians_wall.rewards import final_disdain, granary_level, infrastructure
from rules.hadrians_wall.right import is_dead
from rules.hadrians_wall.scoring import breakdown, outcome
from rules.hadrians_wall.state import Sheet, State, clone
from rules.hadrians_wall.year import temple_favours
from rules.words import counted, listed

PUBLIC_KEYS = (
    "hand", "cohorts", "mining", "guard", "fort", "wall", "cippi", "production", "training",
    "forum", "landmarks", "attributes", "disdain", "disdain_removed", "citizens", "built",
    "market", "theatre", "temple_boxes", "baths", "courthouse", "diplomats", "scouts", "map",
    "paths", "prospects", "passed", "road_pending", "decided", "ignored",
)


def fate_card_view(card_id: str) -> dict[str, Any]:
    c = FATE_CARDS[card_id]
    return {"id": c.id, "attack": c.attack, "gladiator_damage": c.gladiator_damage,
            "trade_good": c.trade_good, "gains": dict(c.gains)}


def player_card_view(card_id: str) -> dict[str, Any]:
    c = PLAYER_CARDS[card_id]
    return {"id": c.id, "pattern": c.pattern, "trade_good": c.trade_good,
            "prospect_gain": dict(c.prospect_gain)}


def _status(st: State, sheet: Sheet) -> str:
    if st.phase == "choose":
        return "chosen" if sheet["chosen"] else "choosing"
    if st.phase == "actions":
        return "passed" if sheet["passed"] else "acting"
    if st.phase == "attack":
        return "resolved" if sheet["decided"] else "using favours"
    return "finished"


def sheet_view(st: State, seat: int) -> dict[str, Any]:
    sheet = st.sheets[seat]
    out: dict[str, Any] = {k: clone(sheet[k]) for k in PUBLIC_KEYS}
    out["seat"] = seat
    out["status"] = _status(st, sheet)
    out["granary"] = granary_level(sheet)
    out["infrastructure"] = infrastructure(sheet)
    out["final_disdain"] = final_disdain(sheet)
    out["gladiators"] = [
        {"name": GLADIATORS[i], **clone(g), "dead": is_dead(g)}
        for i, g in enumerate(sheet["gladiators"])
    ]
    out["temple_favours"] = temple_favours(sheet)
    out["temple_favours_gained"] = int(sheet["favours"])
    current = st.phase != "choose" and sheet["prospects"]
    out["prospect"] = sheet["prospects"][-1] if current else None
    out["deck_left"] = len(sheet["deck"])
    out["score"] = breakdown(sheet, st.options)
    return out


def fate_drawn(st: State) -> list[str]:
    """The Fate cards drawn this Year for a Market purchase or a gladiator battle. Each is
    drawn, used and discarded face up (spec 2.6, 4.5), so the table sees it: they are the
    cards on the discard pile above the Year's own card (all of it after a reshuffle), with
    the last attack's cards left out once they are discarded too (spec 2.4)."""
    pile = list(st.fate_discard)
    if st.year_card in pile:
        pile = pile[len(pile) - pile[::-1].index(st.year_card):]
    if st.phase == "over" and st.last_attack is not None:
        attack = {*st.last_attack["cards"], *(c for e in st.last_attack["extra"] for c in e)}
        pile = [c for c in pile if c not in attack]
    return pile


def _progress(st: State) -> dict[str, Any]:
    total = st.players
    done = total - len(active(st))
    verb = {"choose": "chosen", "actions": "done", "attack": "resolved"}.get(st.phase, "done")
    return {"done": done, "total": total, "label": f"{done} of {total} {verb}"}


def _attack_view(st: State) -> dict[str, Any] | None:
    last = st.last_attack
    if last is None:
        return None
    return {
        "year": last["year"],
        "grey_flag": last["grey_flag"],
        "cards": [fate_card_view(c) for c in last["cards"]],
        "extra": [[fate_card_view(c) for c in e] for e in last["extra"]],
        "results": clone(last["results"]),
        "resolving": st.phase == "attack",
    }


_AREA_KEYS = ("box", "building", "track", "landmark", "gladiator", "column", "cohort")


def _boxes(actions: list[Action]) -> list[dict[str, Any]]:
    """Each legal move reduced to the area and box it fills (payments and sources dropped),
    once each; moves that fill no box (pass, road income, Path choice, favours) are left out."""
    out: list[dict[str, Any]] = []
    for action in actions:
        if action["type"] in ("pass", "road", "choose", "favour", "defend"):
            continue
        box = {"type": action["type"]}
        box.update({k: action[k] for k in _AREA_KEYS if k in action and k != "cohort"})
        if box not in out:
            out.append(box)
    return out


def view(st: State, seat: int | None) -> dict[str, Any]:
    year_index = max(1, min(st.year, YEARS)) - 1
    out: dict[str, Any] = {
        "game": "hadrians-wall",
        "seat": seat,
        "players": st.players,
        "year": st.year,
        "years": YEARS,
        "phase": st.phase,
        "difficulty": st.options["difficulty"],
        "grey_flag": GREY_FLAG[year_index],
        "attack_count": ATTACK_CARDS[str(st.options["difficulty"])][year_index],
        "fate_card": fate_card_view(st.year_card) if st.year_card else None,
        "fate_deck": {"draw": len(st.fate_draw), "discard": len(st.fate_discard)},
        "fate_drawn": [fate_card_view(c) for c in fate_drawn(st)],
        "neutral": [
            {**player_card_view(n["card"]), "resources": n["resources"], "soldiers": n["soldiers"]}
            for n in st.neutral
        ],
        "neutral_deck": len(st.neutral_deck),
        "attack": _attack_view(st),
        "sheets": [sheet_view(st, s) for s in range(st.players)],
        "progress": _progress(st),
        "active": sorted(active(st)),
        "options": {k: v for k, v in st.options.items() if not isinstance(v, list | dict)},
    }
    if seat is not None:
        sheet = st.sheets[seat]
        moves = legal(st, seat)
        # The seat's own sheets again: its private image is these sheets, so a front end that
        # compares what a seat's view adds to the public one sees when they change (a DM).
        out["own_sheet"] = out["sheets"][seat]
        out["private"] = {
            "drawn": [player_card_view(c) for c in sheet["drawn"]],
            "chosen": sheet["chosen"],
            "deck": sorted(sheet["deck"]),
            # What the seat may do now, in the notation it types: the private image lists it.
            "next": [format_action(a) for a in moves],
            # The same moves as the boxes they fill, so the private image can outline them.
            "boxes": _boxes(moves),
        }
    if st.phase == "over":
        out["outcome"] = outcome(st.sheets, st.options).to_json()
    return out


PHASE_WORDS = {"choose": "everyone chooses a Path card", "actions": "everyone plays their turn",
               "attack": "the attack is resolved", "over": "the game is over"}
STATUS_WORDS = {"chosen": "has chosen", "choosing": "is choosing", "passed": "has passed",
                "acting": "is playing", "resolved": "has resolved the attack",
                "using favours": "is using temple favours"}
PROGRESS_VERBS = {"choose": "chosen", "actions": "finished", "attack": "resolved"}


def progress_sentence(v: Mapping[str, Any]) -> str:
    """How far the table is: "Nobody has chosen yet.", "2 of 3 players have chosen."."""
    progress, phase = v["progress"], v["phase"]
    verb = PROGRESS_VERBS.get(phase)
    if verb is None:
        return ""
    done, total = progress["done"], progress["total"]
    if done == 0:
        return f"Nobody has {verb} yet."
    if done == total:
        return f"Everyone has {verb}."
    return f"{done} of {counted(total, 'player')} {'has' if done == 1 else 'have'} {verb}."


def sheet_sentence(s: Mapping[str, Any]) -> str:
    """One player's sheet in a sentence: score, attributes, defences, citizens, hand."""
    hand = listed([counted(n, g) for g, n in s["hand"].items() if n]) or "nothing"
    attrs = listed([f"{s['attributes'][a]} {a}" for a in ATTRIBUTES])
    cits = listed([counted(s["citizens"][c], c) for c in CITIZENS if s["citizens"][c]])
    cohorts = listed([f"{n} {side}" for n, side in zip(s["cohorts"], COHORTS, strict=False)])
    doing = STATUS_WORDS.get(s["status"], "")
    return (f"{{p{s['seat']}}} {doing + ' and ' if doing else ''}has "
            f"{counted(s['score']['total'], 'point')} ({attrs}; {s['final_disdain']} disdain "
            f"at the end). Cohorts: {cohorts}. Fort at "
            f"{s['fort']}, wall at {s['wall']}, wall guard at {s['guard']}. "
            + (f"Citizens: {cits}. " if cits else "") + f"In hand: {hand}.")


def describe(v: Mapping[str, Any]) -> str:
    """A plain-text account of a view: the Year, the Fate card, each player's state."""
    phase = PHASE_WORDS.get(v["phase"], v["phase"])
    lines = [f"Hadrian's Wall, Year {v['year']} of {v['years']} ({v['difficulty']} "
             f"difficulty): {phase}. {progress_sentence(v)}".rstrip()]
    card = v.get("fate_card")
    if card:
        gains = listed([counted(n, g) for g, n in card["gains"].items() if n])
        lines.append(f"This Year's Fate card, {card['id']}, brings an attack "
                     f"({card['attack']}) and gives everyone {gains}.")
    drawn = v.get("fate_drawn")
    if drawn:
        lines.append("Drawn from the Fate deck this Year: " + listed([
            f"{c['id']} (trade good {c['trade_good']}, gladiator damage "
            f"{c['gladiator_damage']})" for c in drawn]) + ".")
    for n in v.get("neutral", []):
        lines.append(f"Neutral card {n['id']}: trade good {n['trade_good']}, pattern "
                     f"{n['pattern']}, {counted(n['resources'], 'resource')}, "
                     f"{counted(n['soldiers'], 'soldier')}.")
    lines.extend(sheet_sentence(s) for s in v["sheets"])
    attack = v.get("attack")
    if attack:
        arrows = ", ".join(c["attack"] for c in attack["cards"]) or "none"
        lines.append(f"Year {attack['year']} attack: {arrows}.")
        for seat, res in enumerate(attack["results"]):
            if res:
                lines.append(f"{{p{seat}}}: {res['through']} through, +{res['valour']} valour, "
                             f"+{res['disdain']} disdain.")
    private = v.get("private")
    if private and private["drawn"]:
        names = " and ".join(c["id"] for c in private["drawn"])
        chosen = private["chosen"]
        lines.append(f"Your cards: {names}" + (f"; Path chosen: {chosen}." if chosen else "."))
    outcome_ = v.get("outcome")
    if outcome_:
        lines.append("Final scores: " + listed([
            f"{{p{i}}} {counted(sc, 'point')}" for i, sc in enumerate(outcome_["scores"])]) + ".")
        lines.extend(outcome_["notes"])
    return "\n".join(lines)
