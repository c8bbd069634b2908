"""The fields each action type carries, so a malformed action is told apart from an illegal one."""

from __future__ import annotations

from rules.minerva.notation import VERBS
from rules.validation import TEXT, WHOLE, ActionShapes, Field, list_of

_CELL: dict[str, Field] = {"x": WHOLE, "y": WHOLE}

SHAPES = ActionShapes(
    {
        "build": {"tile": TEXT, **_CELL},
        "coins": {"drop": TEXT},
        "residence": _CELL,
        "assistant": _CELL,
        "use": _CELL,
        "move": _CELL,
        "to": _CELL,
        "remove": _CELL,
        "pass": {},
        "done": {},
        "sell": {"resource": TEXT},
        "pair": {"resource": TEXT},
        "buy": {"resource": TEXT},
        "direction": {"dir": TEXT},
        "choose": {"option": WHOLE},
        "take": {"resources": list_of(TEXT)},
        "exchange": {"times": WHOLE},
        "culture": {"stack": TEXT},
        "hire": {"pay": TEXT},
    },
    optional={"build": {"drop": TEXT}},
    hint=f" Moves: {VERBS}.",
)
