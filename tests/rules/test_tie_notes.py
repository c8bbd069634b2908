"""The end of a game says how equal scores got different places (and says nothing when they
share their place)."""

from __future__ import annotations

from typing import Any

from rules.palatinus.scoring import outcome


def tally(laurels: list[int], discs: list[int], captured: int) -> dict[str, Any]:
    return {"laurels": laurels, "discs": discs, "captured": captured}


def test_a_tie_broken_by_the_tie_break_is_named_with_it() -> None:
    # Two players on 6 VP: three items beat two; the third player is alone on 4.
    record = {"tallies": [tally([2], [2, 2], 0), tally([3, 3], [], 0), tally([4], [], 0)]}
    result = outcome(record, "items")
    assert result.ranking == ((0,), (1,), (2,))
    assert result.notes[-1] == (
        "The tie on 6 VP was broken by the most laurels, discs and captured pieces held.")
    assert len(result.notes) == 2


def test_a_shared_place_or_no_tie_adds_no_note() -> None:
    shared = outcome({"tallies": [tally([3, 3], [], 0), tally([2], [2, 2], 0)]}, "shared")
    assert shared.ranking == ((0, 1),) and shared.notes == ("Ties on VP are shared.",)
    apart = outcome({"tallies": [tally([3], [], 0), tally([2], [], 0)]}, "items")
    assert len(apart.notes) == 1
