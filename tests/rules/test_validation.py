"""The checks on player and file input before any rule: action shapes, move text, numbers,
quoting typed text in messages, and JSON equality that tells true from 1."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core import InvalidAction, find_legal, quote, same_json
from rules.validation import (
    FLAG,
    MOVE_TEXT_LIMIT,
    TEXT,
    WHOLE,
    ActionShapes,
    check_move_text,
    list_of,
    one_of,
    read_number,
)

SHAPES = ActionShapes(
    {
        "lay": {"position": WHOLE, "rotation": WHOLE},
        "scout": {"cells": list_of(list_of(WHOLE, 2)), "from": one_of("own", "left")},
        "vote": {"yes": FLAG},
        "pass": {},
    },
    optional={"lay": {"note": TEXT}},
    hint=" Write 'lay 3 r2'.",
)


@pytest.mark.parametrize("action", [
    {"type": "lay", "position": 3, "rotation": 2},
    {"type": "lay", "position": 3, "rotation": 2, "note": "x"},
    {"type": "scout", "cells": [[0, 1], [1, 1]], "from": "own"},
    {"type": "vote", "yes": False},
    {"type": "pass"},
])
def test_an_action_of_a_declared_shape_passes_unchanged(action: dict[str, Any]) -> None:
    assert SHAPES.check(action) is action


@pytest.mark.parametrize(("action", "message"), [
    ([], "An action is an object with a type: lay, scout, vote, pass"),
    ({"position": 3}, "Action type missing is unknown"),
    ({"type": "dance"}, "Action type 'dance' is unknown; types: lay, scout, vote, pass. Write"),
    ({"type": 3}, "Action type missing is unknown"),
    ({"type": "lay", "position": 3, "rotation": 2, "junk": 1}, "no field 'junk'; its fields: "
     "position, rotation, note \\(optional\\)"),
    ({"type": "lay", "position": True, "rotation": 2}, "In a lay action, position is a whole"),
    ({"type": "lay", "position": 1.0, "rotation": 2}, "position is a whole number"),
    ({"type": "lay", "position": 10**7, "rotation": 2}, "position is a whole number"),
    ({"type": "lay", "position": "3", "rotation": 2}, "position is a whole number"),
    ({"type": "lay", "position": 3}, "A lay action needs rotation"),
    ({"type": "lay", "position": 3, "rotation": 2, "note": "n" * 101}, "note is text"),
    ({"type": "scout", "cells": [[0, 1], [1]], "from": "own"}, "cells is a list of items, each "
     "a list of 2 items, each a whole number"),
    ({"type": "scout", "cells": ((0, 1),), "from": "own"}, "cells is a list"),
    ({"type": "scout", "cells": [], "from": "right"}, "from is one of own, left"),
    ({"type": "vote", "yes": 1}, "yes is true or false"),
    ({"type": "pass", 1: 2}, "no field '1'"),
])
def test_a_malformed_action_is_an_invalid_action_saying_what_is_allowed(
        action: Any, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        SHAPES.check(action)


def test_an_unknown_key_is_quoted_short() -> None:
    with pytest.raises(InvalidAction) as caught:
        SHAPES.check({"type": "pass", "k" * 5000: 1})
    assert len(str(caught.value)) < 200


def test_move_text_must_be_text_of_a_bounded_length() -> None:
    assert check_move_text("lay 3 r2") == "lay 3 r2"
    with pytest.raises(InvalidAction, match="at most 300 characters"):
        check_move_text("x" * (MOVE_TEXT_LIMIT + 1))
    with pytest.raises(InvalidAction, match="line of text"):
        check_move_text(None)


@pytest.mark.parametrize(("digits", "value"), [("0", 0), ("42", 42), ("-3", -3), ("٣", 3),
                                               ("999999", 999_999)])
def test_read_number_reads_what_int_reads(digits: str, value: int) -> None:
    assert read_number(digits) == value


@pytest.mark.parametrize("digits", ["9" * 5000, "1234567", "²", "", "-", "1.5", "x"])
def test_read_number_refuses_huge_or_odd_numbers_with_invalid_action(digits: str) -> None:
    with pytest.raises(InvalidAction):
        read_number(digits)


@given(st.text(max_size=500))
def test_quote_is_short_and_escaped(text: str) -> None:
    quoted = quote(text)
    assert len(quoted) <= 4 * 10 * 60  # repr escapes at most 10 characters for one
    assert quoted.isprintable()
    assert quoted[0] in "'\"" and quoted[-1] in "'\""


def test_quote_cuts_long_text_and_escapes_invisible_characters() -> None:
    assert quote("a" * 500) == "'" + "a" * 60 + "...'"
    assert quote("x\u202ey\u200b\n") == "'x\\u202ey\\u200b\\n'"
    assert quote("\ud800") == "'\\ud800'"


def test_same_json_tells_true_from_one_and_a_float_from_an_int() -> None:
    assert same_json({"a": [1, "x"]}, {"a": [1, "x"]})
    assert not same_json({"a": True}, {"a": 1})
    assert not same_json({"a": 1.0}, {"a": 1})
    assert not same_json({"a": [1]}, {"a": [True]})
    assert not same_json({"a": 1}, {"a": 1, "b": 2})
    assert find_legal([{"type": "choose", "option": 1}], {"type": "choose", "option": True}) is None
