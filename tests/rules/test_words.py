"""The one counting helper every text uses (rules.words)."""

from __future__ import annotations

import pytest

from rules.words import (
    article,
    counted,
    listed,
    option_text,
    options_changed,
    placed,
    plural,
    signed,
)


@pytest.mark.parametrize(("count", "noun", "said"), [
    (1, "soldier", "1 soldier"), (2, "soldier", "2 soldiers"), (0, "point", "0 points"),
    (1, "denarius", "1 denarius"), (3, "denarius", "3 denarii"), (2, "box", "2 boxes"),
    (1, "patricians", "1 patrician"), (4, "patricians", "4 patricians"),
    (3, "wall guard", "3 wall guards"), (2, "facility", "2 facilities"),
    (2, "glory", "2 glory"), (1, "movement point", "1 movement point"),
])
def test_a_count_agrees_with_its_noun(count: int, noun: str, said: str) -> None:
    assert counted(count, noun) == said


def test_gains_and_losses_are_signed() -> None:
    assert signed(1, "soldier") == "+1 soldier"
    assert signed(-2, "point") == "-2 points"
    assert plural("table") == "tables"


@pytest.mark.parametrize(("word", "said"), [
    ("H2", "an"), ("SF", "an"), ("M", "an"), ("B3", "a"), ("tile", "a"), ("attack", "an"),
    ("8", "an"), ("11", "an"), ("3", "a"), ("18th", "an"),
])
def test_the_article_follows_the_sound(word: str, said: str) -> None:
    assert article(word) == said


def test_options_are_told_in_words_never_json() -> None:
    assert listed(["a", "b", "c"]) == "a, b and c"
    assert option_text(None) == "the default"
    assert option_text(True) == "yes" and option_text(False) == "no"
    assert option_text("first_home") == "first home"
    assert option_text({"H1": {"roof": ["NW", "NE"], "count": 3}, "H2": {"count": 1}}) == (
        "H1 (roof NW and NE, count 3); H2 (count 1)")
    defaults = {"tie_break": "shared", "laurels": [1, 2], "first": None}
    chosen = {"tie_break": "first_home", "laurels": [1, 2], "first": 2}
    assert options_changed(defaults, chosen) == ["first: 2", "tie break: first home"]
    for line in options_changed(defaults, chosen):
        assert not any(mark in line for mark in ('"', "{", "[", "null", "true", "false"))


def test_a_final_ranking_reads_as_a_sentence() -> None:
    assert placed([(["bob"], "with 42 points"), (["carol"], "with 30 points"),
                   (["alice", "ren"], "with 12 points")]) == (
        "bob wins with 42 points; carol is second with 30 points; "
        "alice and ren share third place with 12 points")
    assert placed([(["ann", "ben"], "")]) == "ann and ben share first place"
