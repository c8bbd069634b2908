"""Checks on what players and files send before any rule looks at it: the shape of an action
object, the length of a move's text and the numbers in it.

Each game declares its action shapes once (``ActionShapes``) and checks every action with it
first in ``apply``, so an action with an unknown key, a missing key or a wrongly typed value (a
bool where a number belongs: ``True`` is an ``int`` in Python) is an ``InvalidAction``, and only
well-formed actions reach the game's own legality checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, InvalidAction, quote

MOVE_TEXT_LIMIT = 300
"""No move in any notation is longer; longer text is refused before it is parsed."""
NUMBER_DIGITS = 6
"""No number in any notation has more digits (int() refuses over 4300 digits with ValueError)."""
TEXT_VALUE_LIMIT = 100
"""No text value of an action is longer (names, fields, cells)."""
WHOLE_LIMIT = 10**6
"""No number in an action is this large (boxes, positions, costs, coordinates)."""
LIST_LIMIT = 100


def check_move_text(text: object) -> str:
    """The text of a move, or ``InvalidAction`` when it is not text or far too long."""
    if not isinstance(text, str):
        raise InvalidAction("A move is a line of text.")
    if len(text) > MOVE_TEXT_LIMIT:
        raise InvalidAction(f"A move is at most {MOVE_TEXT_LIMIT} characters.")
    return text


def read_number(digits: str) -> int:
    """A number a player typed (digits, perhaps a leading minus), or ``InvalidAction``."""
    body = digits[1:] if digits.startswith("-") else digits
    if len(body) > NUMBER_DIGITS:
        raise InvalidAction(f"Numbers have at most {NUMBER_DIGITS} digits.")
    try:
        return int(digits)
    except ValueError:
        raise InvalidAction(f"{quote(digits)} is not a number: write digits 0-9.") from None


# --------------------------------------------------------------------------------------------
# Action shapes.


@dataclass(frozen=True)
class Field:
    """The kind of value a field holds: ``what`` completes "position is ..."."""

    what: str
    test: Callable[[Any], bool]


def _whole(value: Any) -> bool:
    return type(value) is int and -WHOLE_LIMIT < value < WHOLE_LIMIT


def _text(value: Any) -> bool:
    return type(value) is str and len(value) <= TEXT_VALUE_LIMIT


WHOLE = Field("a whole number", _whole)
TEXT = Field("text", _text)
FLAG = Field("true or false", lambda value: type(value) is bool)


def one_of(*values: str) -> Field:
    """Text from a fixed set."""
    return Field("one of " + ", ".join(values), lambda value: type(value) is str
                 and value in values)


def list_of(item: Field, size: int | None = None) -> Field:
    """A JSON list (never a tuple or a string) of items, of ``size`` items when given."""
    count = f"{size} " if size is not None else ""

    def test(value: Any) -> bool:
        if type(value) is not list:
            return False
        if (size is not None and len(value) != size) or len(value) > LIST_LIMIT:
            return False
        return all(item.test(v) for v in value)

    return Field(f"a list of {count}items, each {item.what}", test)


@dataclass(frozen=True)
class ActionShapes:
    """For each action type, its required fields and its optional ones."""

    required: Mapping[str, Mapping[str, Field]]
    optional: Mapping[str, Mapping[str, Field]] = field(default_factory=dict)
    hint: str = ""
    """Appended to the message for an unknown type, e.g. how to write a move."""

    def check(self, action: object) -> Action:
        """``action`` itself when it has one of the shapes; ``InvalidAction`` saying what is
        wrong and what is allowed otherwise. Legality is the game's to check."""
        types = ", ".join(self.required)
        if not isinstance(action, dict):
            raise InvalidAction(f"An action is an object with a type: {types}.")
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in self.required:
            shown = quote(kind) if isinstance(kind, str) else "missing"
            raise InvalidAction(f"Action type {shown} is unknown; types: {types}.{self.hint}")
        required = self.required[kind]
        optional = self.optional.get(kind, {})
        for key, value in action.items():
            if key == "type":
                continue
            kind_of = (required.get(key) or optional.get(key)) if isinstance(key, str) else None
            if kind_of is None:
                raise InvalidAction(
                    f"A {kind} action has no field {quote(str(key))}; "
                    f"its fields: {_names(required, optional)}."
                )
            if not kind_of.test(value):
                raise InvalidAction(f"In a {kind} action, {key} is {kind_of.what}.")
        for key in required:
            if key not in action:
                raise InvalidAction(
                    f"A {kind} action needs {key}; its fields: {_names(required, optional)}."
                )
        return action


def _names(required: Mapping[str, Field], optional: Mapping[str, Field]) -> str:
    names = [*required, *(f"{k} (optional)" for k in optional)]
    return ", ".join(names) or "none"
