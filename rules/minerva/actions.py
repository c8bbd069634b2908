"""The fields each action type carries, so a malformed action is told apart from an illegal one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import Action


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str(value: Any) -> bool:
    return isinstance(value, str)


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


Check = Callable[[Any], bool]
_CELL: dict[str, Check] = {"x": _int, "y": _int}

FIELDS: dict[str, dict[str, Check]] = {
    "build": {"tile": _str, **_CELL},
    "coins": {"drop": _str},
    "residence": _CELL,
    "assistant": _CELL,
    "use": _CELL,
    "move": _CELL,
    "to": _CELL,
    "remove": _CELL,
    "pass": {},
    "done": {},
    "sell": {"resource": _str},
    "pair": {"resource": _str},
    "buy": {"resource": _str},
    "direction": {"dir": _str},
    "choose": {"option": _int},
    "take": {"resources": _names},
    "exchange": {"times": _int},
    "culture": {"stack": _str},
    "hire": {"pay": _str},
}
OPTIONAL: dict[str, dict[str, Check]] = {"build": {"drop": _str}}


def well_formed(action: Action) -> bool:
    """Every required field present with the right kind of value, and nothing unknown."""
    fields = FIELDS[action["type"]]
    optional = OPTIONAL.get(action["type"], {})
    for key, value in action.items():
        if key == "type":
            continue
        check = fields.get(key) or optional.get(key)
        if check is None or not check(value):
            return False
    return all(key in action for key in fields)
