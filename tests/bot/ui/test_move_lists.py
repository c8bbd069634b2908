"""Finding moves by the words a player types, and the shortlist offered when there are many."""

from __future__ import annotations

from bot.cogs.play import matches
from bot.ui.flows import shortlist
from rules import entry_for

WORDS = entry_for("hadrians-wall").finishing_words

MOVES = [
    "wall 3 (1 resource)", "wall guard 2 (1 soldier)", "fort 1 (1 builder)",
    "citizen traders 2 (1 civilian)", "pass",
]


def test_every_typed_word_must_appear_in_any_order_and_case() -> None:
    assert [m for m in MOVES if matches(m, "WALL 3")] == ["wall 3 (1 resource)"]
    assert [m for m in MOVES if matches(m, "soldier wall")] == ["wall guard 2 (1 soldier)"]
    assert [m for m in MOVES if matches(m, "")] == MOVES
    assert [m for m in MOVES if matches(m, "builder")] == ["fort 1 (1 builder)"]


def test_the_shortlist_offers_the_last_area_then_passing() -> None:
    many = [f"wall {n} (1 resource)" for n in range(1, 30)] + ["fort 1 (1 builder)", "pass"]
    short = shortlist(many, "wall 2 (1 resource)", WORDS)
    assert len(short) == 25 and all(m.startswith("wall") for m in short)
    assert shortlist(many, "fort 3 (1 builder)", WORDS) == ["fort 1 (1 builder)", "pass"]
    assert shortlist(many, None, WORDS) == ["pass"]
