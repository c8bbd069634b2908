"""The text notation players type in /move (documented in README.md): formatting and tokens.

``format_action`` writes the area, the box number and the cost, e.g. ``wall 4 (1 resource), left
cohort`` or ``build medium granary (1 servant, 1 builder, 1 resource)``; ``parse_moves`` reads
that text back.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, InvalidAction, quote
from rules.hadrians_wall.common import BUILDING_LABELS, TRACK_LABELS
from rules.hadrians_wall.components import (
    BATHS_BOXES,
    BUILDINGS,
    COURTHOUSE_COLUMNS,
    DIPLOMAT_COST,
    LANDMARK_COST,
    TEMPLE_BOX_TEMPLE,
    TEMPLE_FIRST_BOX,
    THEATRE_COST,
)
from rules.hadrians_wall.rewards import cost_text
from rules.hadrians_wall.scouting import cell_name
from rules.hadrians_wall.trade import SOURCE_LABELS
from rules.words import counted

TRACK_PAYMENT = {"mining": "servant", "guard": "soldier", "wall": "resource", "cippi": "resource"}

# --------------------------------------------------------------------------------------------
# Formatting (needs no seat: every number it prints is in the action itself).


def _cohort(a: Action) -> str:
    return f", {a['cohort']} cohort" if "cohort" in a else ""


def _f_track(a: Action) -> str:
    name = a["type"]
    payment = a.get("pay", TRACK_PAYMENT.get(name))
    return f"{TRACK_LABELS[name].lower()} {a['box']} (1 {payment}){_cohort(a)}"


def _f_build(a: Action) -> str:
    name = a["building"]
    text = f"build {BUILDING_LABELS[name]} ({cost_text(BUILDINGS[name].cost)})"
    return text + (f", +1 {a['attribute']}" if "attribute" in a else "")


def _f_forum(a: Action) -> str:
    paid = a["pay"]
    what = counted(2, paid[0]) if paid[0] == paid[1] else f"{paid[0]} + {paid[1]}"
    return f"forum {a['box']}: pay {what}, gain {a['gain']}"


def _f_market(a: Action) -> str:
    return f"market {a['box']}: trade good from {SOURCE_LABELS[a['from']]} (1 resource)"


def _f_temple(a: Action) -> str:
    temple = TEMPLE_BOX_TEMPLE[a["box"]]
    return f"temple {temple} {a['box'] - TEMPLE_FIRST_BOX[temple] + 1} (1 {a['pay']})"


def _f_bribe(a: Action) -> str:
    cost = BATHS_BOXES[a["box"] - 1][1]
    return f"baths {a['box']} ({counted(cost, 'resource')}): remove 1 disdain"


def _f_ruling(a: Action) -> str:
    cost, got, _ = COURTHOUSE_COLUMNS[a["column"] - 1]
    paid = f"pay {cost_text(cost)}, " if cost else ""
    return f"courthouse {a['column']}: {paid}gain {cost_text(got)}"


def _f_scout(a: Action) -> str:
    cells = " ".join(cell_name((r, c)) for r, c in a["cells"])
    return f"scout {cells} from {SOURCE_LABELS[a['from']]} (1 soldier)"


_FORMATS: dict[str, Callable[[Action], str]] = {
    "choose": lambda a: f"choose path {a['path']}",
    "road": lambda a: f"road income: +1 {a['attribute']}",
    "mining": _f_track,
    "guard": _f_track,
    "fort": _f_track,
    "wall": _f_track,
    "cippi": _f_track,
    "train": lambda a: f"training grounds {a['box']} (1 builder): sword to wall guard{_cohort(a)}",
    "build": _f_build,
    "forum": _f_forum,
    "landmark": lambda a: f"landmark {a['landmark']} ({cost_text(LANDMARK_COST)})",
    "citizen": lambda a: f"citizen {a['track']} {a['box']} (1 civilian)",
    "market": _f_market,
    "perform": lambda a: f"theatre {a['box']} ({cost_text(THEATRE_COST)})",
    "gladiator": lambda a: f"train {a['gladiator']} gladiator (1 {a['pay']})",
    "battle": lambda a: f"battle {a['gladiator']} gladiator",
    "temple": _f_temple,
    "bribe": _f_bribe,
    "ruling": _f_ruling,
    "diplomat": lambda a: f"diplomat for {a['cohort']} cohort ({cost_text(DIPLOMAT_COST)})",
    "scout": _f_scout,
    "pass": lambda a: "pass",
    "favour": lambda a: f"favour: ignore a {a['cohort']} attack with a {a['with']} favour",
    "defend": lambda a: "resolve attack",
}


# How a move reads in a sentence after its player's name: the verb its notation lacks.
_VERBS = {
    "road": "takes", "build": "builds", "landmark": "builds", "gladiator": "trains",
    "scout": "scouts",
}
_SENTENCES: dict[str, Callable[[Action], str]] = {
    "pass": lambda a: "passes",
    "defend": lambda a: "",  # the attack's result, said next, tells it
    "favour": lambda a: f"ignores a {a['cohort']} attack with a {a['with']} favour",
    "battle": lambda a: f"sends their {a['gladiator']} gladiator into battle",
}


def action_sentence(action: Action) -> str:
    """The move as it reads after its player's name ("fills fort 5 (1 builder)"), or empty
    when another line tells what it did."""
    kind = str(action.get("type"))
    if kind in _SENTENCES:
        return _SENTENCES[kind](action)
    text = format_action(action)
    verb = _VERBS.get(kind)
    if verb is None:
        return f"fills {text}"
    first, _, rest = text.partition(" ")
    return f"{verb} {rest}" if first in ("build", "train", "scout") else f"{verb} {text}"


def format_action(action: Action) -> str:
    fmt = _FORMATS.get(str(action.get("type")))
    if fmt is None:
        raise InvalidAction(f"Unknown move type {quote(str(action.get('type')))}.")
    try:
        return fmt(action)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise InvalidAction("That move is malformed.") from exc
