"""The scanner the whole-game tests run over every text a member read finds what it must."""

from __future__ import annotations

import pytest

from tests.e2e.words import findings


@pytest.mark.parametrize("text", [
    "Replay with `python -m rules replay FILE`.",
    "You can do now (type one of these; 'legal' lists all)",
    "Computer 2 lets 8 attack(s) through.",
    "Alice: 1 denarii, 1 assistants, 9 residences left.",
    "Everyone gains 1 soldier, 2 builder.",
    "Bob built a H2 house on C4.",
    "Setup options in force:\n- `difficulty`: \"normal\"\n- `fate_order`: null",
    "carol moved.\nNext: move the pawn.\nNext: @carol",
    "Alice passes.\nAlice passes.",
    "Since your last turn:\n- carol placed their police stone on c2. Next: move the pawn.",
    "Computer 1 built a residence at 1,1. Next: choose a direction.",
    "Alice passed.\nNext: Computer 1",
    "Preview of **SF A3** (only you see this).",
    "You have 40 legal moves; `/move` searches them all as you type (area names, box numbers).",
])
def test_each_banned_word_is_found(text: str) -> None:
    assert findings(text)


@pytest.mark.parametrize("text", [
    "Alice: 1 denarius, 2 assistants, 1 residence left.",
    "Year 2 attack: left, left.",
    "Bob built an H2 house (2 roof sections) on C4.",
    "Setup: the standard rules, except\n- tie break: first home",
    "Since your last turn:\n- carol placed their police stone on c2.\nNext: @carol",
])
def test_good_words_pass(text: str) -> None:
    assert findings(text) == []
