"""The text notation players type in ``/move`` (see README.md): one verb and its arguments.

Parsing is forgiving of case and spacing and accepts tile names with spaces
(``build wheat field 1,0``) as well as keys (``build wheat_field 1,0``) and temple ids.
"""

from __future__ import annotations

import re

from rules.core import Action, InvalidAction, quote
from rules.minerva.city import DIRECTION_NAMES, format_cell, parse_cell
from rules.minerva.components import CULTURE, RESOURCES, Catalogue, slug
from rules.minerva.state import MinervaState
from rules.minerva.texts import amounts_text
from rules.validation import read_number

VERBS = (
    "build, residence, assistant, pass, sell, activate, choose, take, exchange, pair, buy, "
    "culture, use, move, to, remove, hire, coins, done"
)
_CELL_VERBS = ("residence", "assistant", "use", "move", "to", "remove")
_RESOURCE_VERBS = ("sell", "pair", "buy")
_DIRS = {**{d: d for d in DIRECTION_NAMES}, **{v: k for k, v in DIRECTION_NAMES.items()}}
_COORD = re.compile(r"(-?\d+)\s*,\s*(-?\d+)$")


def _choice_options(cat: Catalogue, state: MinervaState) -> list[str]:
    """Texts of the options of a pending slash choice, or [] when none is pending."""
    if not state.stack or state.stack[-1]["k"] != "eff":
        return []
    frame = state.stack[-1]
    effect = cat.types[frame["type"]].effect
    if frame["i"] >= len(effect) or "gain_choice" not in effect[frame["i"]]:
        return []
    return [amounts_text(o) for o in effect[frame["i"]]["gain_choice"]]


def format_action(cat: Catalogue, state: MinervaState, action: Action) -> str:
    kind = action["type"]
    if kind == "build":
        text = f"build {action['tile']} {action['x']},{action['y']}"
        return text + (f" drop {action['drop']}" if "drop" in action else "")
    if kind == "coins":
        return f"coins drop {action['drop']}"
    if kind in _CELL_VERBS:
        return f"{kind} {format_cell((action['x'], action['y']))}"
    if kind in _RESOURCE_VERBS:
        return f"{kind} {action['resource']}"
    if kind == "direction":
        return f"activate {DIRECTION_NAMES[action['dir']]}"
    if kind == "choose":
        options = _choice_options(cat, state)
        j = action["option"]
        return f"choose {options[j]}" if j < len(options) else f"choose #{j + 1}"
    if kind == "take":
        return "take " + " ".join(action["resources"])
    if kind == "exchange":
        return f"exchange {action['times']}"
    if kind == "culture":
        return f"culture {action['stack']}"
    if kind == "hire":
        return f"hire {action['pay']}"
    return str(kind)


def _tile(cat: Catalogue, text: str) -> str:
    key = slug(text)
    if key in cat.types or key in cat.temple_keys:
        return key
    for tid, temple in cat.temples.items():
        if key in (tid.lower(), temple.key.removeprefix("temple_of_")):
            return temple.key
    for ttype in cat.types.values():
        if slug(ttype.name) == key:
            return ttype.key
    raise InvalidAction(
        f"Unknown tile {quote(text)}: write its name as shown, e.g. build markets 1,0."
    )


def _cell(text: str, verb: str) -> tuple[int, int]:
    cell = parse_cell(text)
    if cell is None:
        raise InvalidAction(f"Write a cell as x,y, e.g. {verb} 1,0.")
    return cell


def _resource(text: str, verb: str) -> str:
    if text not in RESOURCES:
        raise InvalidAction(f"Write one of {', '.join(RESOURCES)}, e.g. {verb} grain.")
    return text


def parse_action(cat: Catalogue, state: MinervaState, seat: int, text: str) -> Action:
    words = " ".join(text.lower().replace("_", " ").split())
    if not words:
        raise InvalidAction(f"Write a move, starting with one of: {VERBS}.")
    verb, _, rest = words.partition(" ")
    if verb in _DIRS and not rest:
        return {"type": "direction", "dir": _DIRS[verb]}
    if verb in ("pass", "done"):
        return {"type": verb}
    if verb == "build":
        return _parse_build(cat, rest)
    if verb == "coins":
        return {"type": "coins", "drop": _tile(cat, rest.removeprefix("drop ").strip())}
    if verb in _CELL_VERBS:
        x, y = _cell(rest, verb)
        return {"type": verb, "x": x, "y": y}
    if verb in _RESOURCE_VERBS:
        return {"type": verb, "resource": _resource(rest, verb)}
    if verb in ("activate", "direction", "dir", "go"):
        if rest not in _DIRS:
            raise InvalidAction("Write a direction: north, east, south or west.")
        return {"type": "direction", "dir": _DIRS[rest]}
    if verb == "choose":
        return {"type": "choose", "option": _parse_choice(cat, state, rest)}
    if verb == "take":
        picked = rest.replace(",", " ").split()
        for r in picked:
            _resource(r, "take")
        return {"type": "take", "resources": sorted(picked, key=RESOURCES.index)}
    if verb == "exchange":
        if not rest.isdigit():
            raise InvalidAction("Write how many times, e.g. exchange 2 (exchange 0 to skip).")
        return {"type": "exchange", "times": read_number(rest)}
    if verb == "culture":
        if rest not in CULTURE:
            raise InvalidAction(f"Write a culture stack: {', '.join(CULTURE)}.")
        return {"type": "culture", "stack": rest}
    if verb == "hire":
        if rest not in ("denarii", "glory"):
            raise InvalidAction("Write hire denarii or hire glory (or done to hire nobody).")
        return {"type": "hire", "pay": rest}
    raise InvalidAction(f"Unknown move {quote(verb)}. Moves: {VERBS}.")


def _parse_build(cat: Catalogue, rest: str) -> Action:
    body, _, drop = rest.partition(" drop ")
    match = _COORD.search(body)
    if match is None:
        raise InvalidAction("Write build, the tile and a cell, e.g. build markets 1,0.")
    name = body[: match.start()].strip()
    action: Action = {
        "type": "build", "tile": _tile(cat, name), "x": read_number(match[1]),
        "y": read_number(match[2]),
    }
    if drop:
        action["drop"] = "round" if drop.strip() == "round" else _tile(cat, drop)
    return action


def _parse_choice(cat: Catalogue, state: MinervaState, rest: str) -> int:
    if rest.startswith("#") and rest[1:].isdigit():
        return read_number(rest[1:]) - 1
    options = [o.lower() for o in _choice_options(cat, state)]
    if rest in options:
        return options.index(rest)
    if rest.isdigit() and 1 <= read_number(rest) <= len(options):
        return read_number(rest) - 1
    for j, option in enumerate(options):
        if option.endswith(" " + rest):  # "choose art" for "1 art"
            return j
    if not options:
        raise InvalidAction("No choice is pending now.")
    raise InvalidAction(f"Choose one of: {', '.join(options)}.")
