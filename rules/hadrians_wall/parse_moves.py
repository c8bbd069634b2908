"""Reading a move typed in /move back into an action (the inverse of ``notation.format_action``).

Forgiving by design: case, punctuation, plurals and the cost in brackets do not matter; a box
number may be left out (the next box, or the first one open, is taken); a payment or cohort that
can only be one thing may be left out. Numbers are read right after the word they belong to, so
the numbers inside a cost never pass for a box.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rules.core import Action, IllegalAction, InvalidAction, quote
from rules.hadrians_wall.components import (
    ATTRIBUTES,
    BATHS_BOXES,
    BUILDINGS,
    CITIZENS,
    COHORTS,
    FORUM_WORKERS,
    GLADIATORS,
    LANDMARKS,
    MARKET_BOXES,
    PLAYER_CARDS,
    TEMPLE_BOX_TEMPLE,
    TEMPLE_FIRST_BOX,
    TEMPLES,
    THEATRE_BOXES,
    TRACKS,
    WORKERS,
)
from rules.hadrians_wall.rewards import open_cohorts
from rules.hadrians_wall.right import bribe_block, perform_block, temple_block
from rules.hadrians_wall.state import Sheet, State
from rules.hadrians_wall.trade import market_block
from rules.hadrians_wall.year import diplomat_for
from rules.validation import read_number

_SYNONYMS = {
    "centre": "center", "middle": "center", "neighbor": "neighbour", "favor": "favour",
    "theater": "theatre", "soldiers": "soldier", "builders": "builder", "servants": "servant",
    "civilians": "civilian", "resources": "resource", "stone": "resource", "stones": "resource",
    "trader": "traders", "performer": "performers", "priest": "priests",
    "apparitor": "apparitores", "apparitors": "apparitores", "patrician": "patricians",
    "garden": "gardens", "bath": "baths", "gladiatorius": "gladiatorious", "mine": "mining",
    "foresting": "mining", "forest": "mining", "landmarks": "landmark", "citizens": "citizen",
    "scouting": "scout", "diplomats": "diplomat", "temples": "temple", "rulings": "ruling",
}
FORUM_HELP = "Write the Forum as 'forum: pay builder + servant, gain civilian'."
_CELL = re.compile(r"\b([a-d])([1-5])\b")
_SIZED = ("granary", "hotel", "workshop", "road", "precinct", "gardens", "temple")
_PLAIN = {"market": "market", "theatre": "theatre", "ludus": "ludus",
          "gladiatorious": "ludus", "baths": "baths", "courthouse": "courthouse"}


class Words:
    """The tokens of a move: lower-case words and numbers, synonyms folded."""

    def __init__(self, text: str) -> None:
        self.text = text.lower()
        raw = re.findall(r"[a-z]+|\d+", self.text)
        self.tokens = [_SYNONYMS.get(t, t) for t in raw]
        self.words = [t for t in self.tokens if not t.isdigit()]

    def has(self, *words: str) -> bool:
        return any(w in self.words for w in words)

    def first(self, options: tuple[str, ...] | list[str] | dict[str, object]) -> str | None:
        for w in self.words:
            if w in options:
                return str(w)
        return None

    def num_after(self, *words: str) -> int | None:
        """The number right after the first of ``words`` that is followed by one."""
        for i, t in enumerate(self.tokens[:-1]):
            if t in words and self.tokens[i + 1].isdigit():
                return read_number(self.tokens[i + 1])
        return None


def _source(w: Words, players: int, deck: bool) -> str:
    if deck and w.has("deck", "fate"):
        return "deck"
    if w.has("neutral"):
        return f"neutral{w.num_after('neutral', 'card') or 1}"
    if w.has("own", "my"):
        return "own"
    side = w.first(("left", "right"))
    if players == 2 and (side or w.has("neighbour", "opponent")):
        return "neighbour"
    if side:
        return side
    raise InvalidAction("Say where from: own card, left or right neighbour, neutral card"
                        + (" or fate deck." if deck else "."))


def _cohort_for(sheet: Sheet, icons: tuple[str, ...], w: Words, action: Action) -> Action:
    if "cohort" not in icons or not open_cohorts(sheet):
        return action
    choice = w.first(COHORTS)
    if choice is None:
        if len(open_cohorts(sheet)) > 1:
            raise InvalidAction("Say which cohort gets the shield: "
                                + ", ".join(open_cohorts(sheet)) + ".")
        choice = open_cohorts(sheet)[0]
    return {**action, "cohort": choice}


def _track(name: str, *keys: str) -> Callable[[State, int, Words], Action]:
    def parse(st: State, seat: int, w: Words) -> Action:
        sheet = st.sheets[seat]
        box = w.num_after(*keys)
        nxt = int(sheet[name]) + 1
        action: Action = {"type": name, "box": nxt if box is None else box}
        if name == "fort":
            pay = w.first(("builder", "soldier"))
            action["pay"] = pay or ("builder" if sheet["hand"]["builder"] else "soldier")
        icons = TRACKS[name].rewards[nxt] if nxt <= TRACKS[name].length else ()
        return _cohort_for(sheet, icons, w, action)

    return parse


def _train(st: State, seat: int, w: Words) -> Action:
    sheet = st.sheets[seat]
    box = w.num_after("grounds", "training")
    action: Action = {"type": "train", "box": box or len(sheet["training"]) + 1}
    guard = int(sheet["guard"]) + 1
    icons = TRACKS["guard"].rewards[guard] if guard <= TRACKS["guard"].length else ()
    return _cohort_for(sheet, icons, w, action)


def _build(st: State, seat: int, w: Words) -> Action:
    sheet = st.sheets[seat]
    kind = w.first((*_SIZED, *_PLAIN))
    if kind is None:
        raise InvalidAction("Build what? For example 'build medium granary' or 'build market'.")
    if kind in _PLAIN:
        name = _PLAIN[kind]
    else:
        size = w.first(("small", "medium", "large"))
        if size is None:
            sizes = [b for b in BUILDINGS if b.startswith(kind + "_") and b not in sheet["built"]]
            name = sizes[0] if sizes else f"{kind}_large"
        else:
            name = f"{kind}_{size}"
    if name not in BUILDINGS:
        raise InvalidAction(f"There is no {name.replace('_', ' ')} to build.")
    action: Action = {"type": "build", "building": name}
    choice = BUILDINGS[name].choice
    if choice:
        attr = w.first(choice)
        if attr is None:
            raise InvalidAction("Say which attribute: " + " or ".join(choice) + ".")
        action["attribute"] = attr
    return action


def _forum(st: State, seat: int, w: Words) -> Action:
    tokens = w.tokens
    cut = tokens.index("gain") if "gain" in tokens else None
    before = tokens[:cut] if cut is not None else tokens
    after = tokens[cut + 1:] if cut is not None else []
    paid: list[str] = []
    for i, t in enumerate(before):
        if t in FORUM_WORKERS:
            times = read_number(before[i - 1]) if i > 0 and before[i - 1].isdigit() else 1
            if times > 3:  # refused below anyway; never build a list of a million workers
                raise InvalidAction(FORUM_HELP)
            paid.extend([t] * times)
    gained = [t for t in after if t in FORUM_WORKERS]
    if cut is None and len(paid) == 3:
        gained = [paid.pop()]
    if len(paid) != 2 or len(gained) != 1:
        raise InvalidAction(FORUM_HELP)
    box = w.num_after("forum") or len(st.sheets[seat]["forum"]) + 1
    return {"type": "forum", "box": box, "pay": sorted(paid, key=FORUM_WORKERS.index),
            "gain": gained[0]}


def _named(kind: str, field: str, options: tuple[str, ...] | dict[str, object],
           what: str) -> Callable[[State, int, Words], Action]:
    def parse(st: State, seat: int, w: Words) -> Action:
        value = w.first(options)
        if value is None:
            raise InvalidAction(f"Say which {what}: " + ", ".join(options) + ".")
        return {"type": kind, field: value}

    return parse


def _choose(st: State, seat: int, w: Words) -> Action:
    """A Path card. Asked which, the seat hears only the two cards it drew (and only while
    Paths are chosen); a card it does not hold is refused by ``apply``, naming the two."""
    value = w.first(tuple(PLAYER_CARDS))
    if value is not None:
        return {"type": "choose", "path": value}
    drawn = [str(c) for c in st.sheets[seat]["drawn"]]
    if st.phase != "choose" or not drawn:
        raise IllegalAction("Path cards are chosen at the start of each Year, not now.")
    raise InvalidAction("Say which Path card: " + " or ".join(drawn) + ".")


def _citizen(st: State, seat: int, w: Words) -> Action:
    track = w.first(CITIZENS)
    if track is None:
        raise InvalidAction("Say which citizen track: " + ", ".join(CITIZENS) + ".")
    box = w.num_after(track) or int(st.sheets[seat]["citizens"][track]) + 1
    return {"type": "citizen", "track": track, "box": box}


def _first_open(count: int, blocked: Callable[[int], str | None]) -> int:
    for box in range(1, count + 1):
        if blocked(box) is None:
            return box
    return 1


def _market(st: State, seat: int, w: Words) -> Action:
    sheet = st.sheets[seat]
    box = w.num_after("market", "box") or _first_open(
        len(MARKET_BOXES), lambda b: market_block(st, sheet, b))
    return {"type": "market", "box": box, "from": _source(w, st.players, deck=True)}


def _perform(st: State, seat: int, w: Words) -> Action:
    sheet = st.sheets[seat]
    box = w.num_after("theatre", "perform", "performance", "box") or _first_open(
        len(THEATRE_BOXES), lambda b: perform_block(st, sheet, b))
    return {"type": "perform", "box": box}


def _gladiator_name(st: State, seat: int, w: Words) -> str:
    name = w.first(GLADIATORS)
    if name is None:
        raise InvalidAction("Say which gladiator: red or blue.")
    return name


def _gladiator(st: State, seat: int, w: Words) -> Action:
    name = _gladiator_name(st, seat, w)
    pay = w.first(("servant", "civilian"))
    if pay is None:
        pay = "servant" if st.sheets[seat]["hand"]["servant"] else "civilian"
    return {"type": "gladiator", "gladiator": name, "pay": pay}


def _temple(st: State, seat: int, w: Words) -> Action:
    sheet = st.sheets[seat]
    size = w.first(TEMPLES)
    n = w.num_after(size) if size else None
    box = TEMPLE_FIRST_BOX[size] + n - 1 if size and n else int(sheet["temple_boxes"]) + 1
    if not 1 <= box < len(TEMPLE_BOX_TEMPLE):
        raise InvalidAction("There is no such temple box.")
    pay = w.first(WORKERS)
    if pay is None:
        block = temple_block(sheet)
        if block:  # nothing to fill: say why, not which worker
            temple = TEMPLE_BOX_TEMPLE[min(int(sheet["temple_boxes"]) + 1,
                                           len(TEMPLE_BOX_TEMPLE) - 1)]
            example = f" ('build {temple} temple')" if block.startswith("Build") else ""
            raise IllegalAction(f"There is no temple box to fill now. {block[:-1]}{example}.")
        raise InvalidAction("Say which worker fills the temple box: " + ", ".join(WORKERS) + ".")
    return {"type": "temple", "box": box, "pay": pay}


def _bribe(st: State, seat: int, w: Words) -> Action:
    sheet = st.sheets[seat]
    box = w.num_after("baths", "bribe", "box") or _first_open(
        len(BATHS_BOXES), lambda b: bribe_block(st, sheet, b))
    return {"type": "bribe", "box": box}


def _ruling(st: State, seat: int, w: Words) -> Action:
    col = w.num_after("courthouse", "ruling", "court", "column")
    if col is None:
        raise InvalidAction("Say which courthouse column: 1, 2 or 3.")
    return {"type": "ruling", "column": col}


def _scout(st: State, seat: int, w: Words) -> Action:
    cells = sorted({(ord(a) - ord("a"), read_number(b) - 1) for a, b in _CELL.findall(w.text)})
    if len(cells) != 4:
        raise InvalidAction("Name the 4 map cells, rows A-D and columns 1-5, e.g. 'A1 A2 B1 B2'.")
    return {"type": "scout", "from": _source(w, st.players, deck=False),
            "cells": [[r, c] for r, c in cells]}


def _favour(st: State, seat: int, w: Words) -> Action:
    cohort = w.first(COHORTS)
    if cohort is None:
        raise InvalidAction("Say which cohort's attack to ignore: left, center or right.")
    source = w.first(("temple", "diplomat"))
    if source is None:
        source = "diplomat" if diplomat_for(st.sheets[seat], cohort) else "temple"
    return {"type": "favour", "cohort": cohort, "with": source}


_FIRST: dict[str, Callable[[State, int, Words], Action]] = {
    "pass": lambda st, seat, w: {"type": "pass"},
    "resolve": lambda st, seat, w: {"type": "defend"},
    "defend": lambda st, seat, w: {"type": "defend"},
    "done": lambda st, seat, w: {"type": "defend"},
    "favour": _favour,
    "ignore": _favour,
    "choose": _choose,
    "path": _choose,
    "build": _build,
    "mining": _track("mining", "mining"),
    "guard": _track("guard", "guard"),
    "fort": _track("fort", "fort"),
    "cippi": _track("cippi", "cippi"),
    "training": _train,
    "sword": _train,
    "forum": _forum,
    "landmark": _named("landmark", "landmark", tuple(LANDMARKS), "landmark"),
    "citizen": _citizen,
    "market": _market,
    "buy": _market,
    "theatre": _perform,
    "perform": _perform,
    "performance": _perform,
    "gladiator": _gladiator,
    "battle": lambda st, seat, w: {"type": "battle", "gladiator": _gladiator_name(st, seat, w)},
    "fight": lambda st, seat, w: {"type": "battle", "gladiator": _gladiator_name(st, seat, w)},
    "temple": _temple,
    "baths": _bribe,
    "bribe": _bribe,
    "courthouse": _ruling,
    "ruling": _ruling,
    "court": _ruling,
    "diplomat": _named("diplomat", "cohort", COHORTS, "cohort"),
    "scout": _scout,
}
for _name in LANDMARKS:
    _FIRST[_name] = _FIRST["landmark"]
for _name in CITIZENS:
    _FIRST[_name] = _citizen
for _name in PLAYER_CARDS:  # "fighter" alone chooses that Path card
    _FIRST[_name] = _FIRST["choose"]
for _name in ATTRIBUTES:  # "renown" alone takes Road income
    _FIRST[_name] = _named("road", "attribute", ATTRIBUTES, "attribute")


def parse_action(st: State, seat: int, text: str) -> Action:
    w = Words(text)
    if not w.words:
        raise InvalidAction("Type a move, for example 'wall 3 (1 resource)' or 'pass'.")
    first = w.words[0]
    if first == "wall":
        name = "guard" if w.has("guard") else "wall"
        return _track(name, name)(st, seat, w)
    if first in ("road", "income"):
        return _named("road", "attribute", ATTRIBUTES, "attribute")(st, seat, w)
    if first == "train":
        if w.has("gladiator", *GLADIATORS):
            return _gladiator(st, seat, w)
        return _train(st, seat, w)
    if first in GLADIATORS:
        return (_gladiator if w.has("train") else _FIRST["battle"])(st, seat, w)
    parser = _FIRST.get(first)
    if parser is None:
        # Quoted as typed: the word list splits "Z9" into "z" and 9.
        typed = next((t for t in text.split() if re.search("[A-Za-z]", t)), first)
        raise InvalidAction(
            f"Unknown move {quote(typed)}. Moves start with: build, mining, wall, wall guard, "
            "fort, cippi, training, forum, landmark, citizen, market, theatre, train, battle, "
            "temple, baths, courthouse, diplomat, scout, road, choose, favour, resolve or pass."
        )
    return parser(st, seat, w)
