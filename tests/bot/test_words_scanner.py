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
    "Preview: you are about to play `move r13 cost 4 exact`; Confirm plays it.",
    "You can reach (cell, then movement points spent and how the pawn ends there): i1 7.",
    "carol holds F1; bob take a disc.",
    "Culture tops: theatre needs 1 for 2 VP.",
    "You have 124 legal moves; type a space.",
    "Hadrian's Wall - Year 1 of 6 (normal), choose: 0 of 3 chosen.",
    "Final: 1. bob (42); 2. carol (30).",
    "bob stopped at their business on c4 and earned 0 points.",
    "Moves: build markets 1,0 | residence 1,0 | pass",
    "alice (acting): score 3; ren 0 pie 0 val 0 dis 0; cohorts 0/0/0.",
])
def test_each_banned_word_is_found(text: str) -> None:
    assert findings(text)


@pytest.mark.parametrize("text", [
    "Alice: 1 denarius, 2 assistants, 1 residence left.",
    "Year 2 attack: left, left.",
    "Bob built an H2 house (2 roof sections) on C4.",
    "Setup: the standard rules, except\n- tie break: first home",
    "Since your last turn:\n- carol placed their police stone on c2.\nNext: @carol",
    "It is not your turn: it is carol's turn.",
    "Your wolf piece on D6 is a wolf merchant.",
    "carol's soldier on B6 captures 2 farmers (B1, E4).",
    "Final: bob wins with 42 points; carol is second with 30 points.",
    "Ranking: bob wins; carol is second; alice is third.",
    "Hadrian's Wall, Year 1 of 6 (normal difficulty): everyone chooses a Path card. "
    "Nobody has chosen yet.",
])
def test_good_words_pass(text: str) -> None:
    assert findings(text) == []
