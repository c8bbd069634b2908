"""Scenario tests for the Pict attack, favours, the end of the game and scoring (spec 2.4, 2.5,
8 and 9)."""

from __future__ import annotations

import dataclasses

import pytest

from rules.core import IllegalAction, Rng
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import FATE_IDS, PLAYER_CARD_IDS
from rules.hadrians_wall.scoring import breakdown, path_points, solo_rank
from rules.hadrians_wall.state import Sheet, State, new_sheet
from tests.rules.test_hadrians_wall_kit import act, chosen, edit, pass_all, start

LEFT = ["F04", "F06", "F08"]  # attack arrows of these Fate cards
CENTER = ["F01", "F05"]
RIGHT = ["F02"]


def _at_year(state: State, year: int, attack: list[str]) -> State:
    """The same situation in another Year, with these cards on top of the Fate deck."""
    rest = [c for c in FATE_IDS if c not in attack and c not in state.fate_discard]
    return dataclasses.replace(state, year=year, fate_draw=(*attack, *rest))


def _cohorts(*n: int) -> object:
    return lambda s: s.update(cohorts=list(n))


def test_full_defence_partial_and_total_failure() -> None:
    # Spec 2.4: Year 4, G = 3, six attack cards (normal): 3 left, 2 center, 1 right.
    state = chosen(start(3))
    state = _at_year(state, 4, LEFT + CENTER + RIGHT)
    state = edit(state, 0, _cohorts(3, 2, 1))  # full defence
    state = edit(state, 1, _cohorts(3, 1, 0))  # 2 through: partial
    state = edit(state, 2, _cohorts(0, 0, 0))  # 6 through: total failure
    state = pass_all(state)
    results = state.last_attack["results"]
    assert [(r["through"], r["valour"], r["disdain"]) for r in results] == [
        (0, 3, 0), (2, 1, 2), (6, 0, 3)]
    assert [s["attributes"]["valour"] for s in state.sheets] == [3, 1, 0]
    assert [s["disdain"] for s in state.sheets] == [0, 2, 3]
    # Valour box 3 gives a soldier, kept into the next Year (Year 5 setup follows).
    assert state.year == 5 and state.phase == "choose"
    assert state.sheets[0]["hand"]["soldier"] >= 1


def test_leftovers_are_returned_before_the_attack() -> None:
    # Spec 2.4 step 1.
    state = chosen(start(1, fate=["F01", "F02", *[c for c in FATE_IDS if c not in ("F01", "F02")]]))
    assert sum(state.sheets[0]["hand"].values()) > 0
    state = pass_all(state)
    year2_card = state.year_card
    assert year2_card == "F03"
    from rules.hadrians_wall.components import FATE_CARDS

    # Year 1 attack card F02 (right) got through: 1 Disdain; hand is only Year 2's Fate card.
    assert state.sheets[0]["disdain"] == 1
    assert state.sheets[0]["hand"] == FATE_CARDS["F03"].gains


def test_temple_favours_cancel_attack_cards() -> None:
    # Spec 2.4 and 4.7: a temple favour ignores any one revealed card.
    state = chosen(start(1))
    state = _at_year(state, 2, ["F02", "F01"])  # Year 2: G 2, 2 cards (right, center)
    state = edit(state, 0, lambda s: s.update(favours=2, cohorts=[0, 0, 0]))
    state = pass_all(state)
    assert state.phase == "attack" and GAME.active_seats(state) == {0}
    legal = GAME.legal_actions(state, 0)
    assert {"type": "favour", "cohort": "right", "with": "temple"} in legal
    assert {"type": "favour", "cohort": "left", "with": "temple"} not in legal
    state, _ = act(state, 0, "favour: ignore a right attack with a temple favour")
    assert state.phase == "attack"
    state, _ = act(state, 0, "ignore center temple")
    # Nothing left to stop: resolved at once, full defence, and Year 3 begins.
    result = state.last_attack["results"][0]
    assert (result["through"], result["valour"], result["disdain"]) == (0, 2, 0)
    assert state.sheets[0]["favours_used"] == 2 and state.year == 3


def test_favours_are_optional_and_persist() -> None:
    # Spec 11.13 (design choice): unused favours stay for a later Year.
    state = chosen(start(1))
    state = _at_year(state, 2, ["F02", "F01"])
    state = edit(state, 0, lambda s: s.update(favours=1))
    state = pass_all(state)
    state, _ = act(state, 0, "resolve attack")
    assert state.last_attack["results"][0]["disdain"] == 2
    assert state.sheets[0]["favours"] - state.sheets[0]["favours_used"] == 1


def test_a_diplomat_favour_works_on_its_own_cohort_only() -> None:
    # Spec 2.4 and 4.10: a left diplomat cannot ignore a right card.
    state = chosen(start(1))
    state = _at_year(state, 2, ["F02", "F04"])  # right, left
    diplomat = {"cohort": "left", "favours": 2, "used": 0}
    state = edit(state, 0, lambda s: s.update(diplomats=[diplomat]))
    state = pass_all(state)
    assert GAME.legal_actions(state, 0) == [
        {"type": "favour", "cohort": "left", "with": "diplomat"}, {"type": "defend"}]
    with pytest.raises(IllegalAction, match="right cohort"):
        act(state, 0, {"type": "favour", "cohort": "right", "with": "diplomat"})
    state, _ = act(state, 0, "favour left")
    result = state.last_attack["results"][0]
    assert (result["through"], result["valour"], result["disdain"]) == (1, 1, 1)
    assert state.sheets[0]["diplomats"][0]["used"] == 1


def test_a_player_with_no_useful_favour_is_not_asked() -> None:
    # Spec 2.4 (design choice favour_prompt = when_useful): cohorts already hold the attack.
    state = chosen(start(2))
    state = edit(state, 0, lambda s: s.update(favours=1, cohorts=[1, 1, 1]))
    state = pass_all(state)
    assert state.year == 2 and state.phase == "choose"


def test_neutral_cards_add_attack_cards_for_everyone_by_default() -> None:
    # Spec 9: one extra attack card per item on the Neutral cards (shared by default).
    state = chosen(start(2))
    state = edit(state, 0, lambda s: (s["citizens"].update(patricians=2),
                                      s["hand"].update(soldier=1)))
    state, _ = act(state, 0, {"type": "scout", "from": "neutral1",
                              "cells": [[0, 1], [0, 2], [1, 0], [1, 1]]})
    assert state.neutral[0]["soldiers"] == 1
    state = pass_all(state)
    assert len(state.last_attack["cards"]) == 2  # Year 1: 1 card + 1 extra
    assert state.last_attack["extra"] == [[], []]
    assert state.neutral == ()


def test_neutral_extra_attacks_per_player_option() -> None:
    # Spec 9 flag: each player's use adds attack cards only for that player.
    state = chosen(start(2, neutral_extra_attacks="per_player"))
    state = edit(state, 1, lambda s: (s["citizens"].update(patricians=2),
                                      s["hand"].update(soldier=1)))
    state, _ = act(state, 1, {"type": "scout", "from": "neutral1",
                              "cells": [[0, 1], [0, 2], [1, 0], [1, 1]]})
    state = pass_all(state)
    assert len(state.last_attack["cards"]) == 1
    assert [len(e) for e in state.last_attack["extra"]] == [0, 1]


def test_hard_difficulty_draws_more_attack_cards() -> None:
    # Spec 7: Year 2 is 2 cards on normal, 3 on hard.
    for difficulty, count in (("easy", 2), ("normal", 2), ("hard", 3)):
        state = chosen(start(1, difficulty=difficulty))
        state = pass_all(state)
        state = chosen(state)
        state = pass_all(state)
        assert len(state.last_attack["cards"]) == count


def _sheet(**changes: object) -> Sheet:
    sheet = new_sheet([])
    sheet.update(changes)
    return sheet


PATH_CASES = [
    ("architect", {"landmarks": ["archway", "statue"]}, 2),
    ("aristocrat", {"disdain": 5, "disdain_removed": 1}, 1),
    ("aristocrat", {"disdain": 3, "disdain_removed": 3}, 3),
    ("defender", {"wall": 14}, 2),
    ("engineer", {"built": ["granary_medium", "granary_large", "hotel_small", "hotel_large",
                            "temple_large", "road_large"]}, 2),
    ("fighter", {"cohorts": [6, 6, 6]}, 3),
    ("forager", {"production": 6}, 2),
    ("merchant", {"market": [1, 1, 2, 3, 0, 0, 0, 0]}, 1),
    ("planner", {"citizens": {"traders": 9, "performers": 9, "priests": 9, "apparitores": 9,
                              "patricians": 8}}, 2),
    ("pontiff", {"temple_boxes": 8}, 2),
    ("ranger", {"map": [1, 1, 1, 0, 0] * 4}, 2),
    ("trainer", {"gladiators": [{"strength": 6, "damage": 6, "battles": [1]},
                                {"strength": 2, "damage": 0, "battles": []}]}, 2),
    ("vanguard", {"guard": 13}, 2),
]


@pytest.mark.parametrize(("card", "changes", "points"), PATH_CASES)
def test_each_path_card_scores_its_measure(card: str, changes: dict[str, object],
                                           points: int) -> None:
    # Spec 8.2: the highest tier reached, 0 to 3 VP.
    sheet = _sheet(paths=[card], **changes)
    assert breakdown(sheet, GAME.options())["path " + card] == points
    assert breakdown(_sheet(paths=[card]), GAME.options())["path " + card] == (
        3 if card == "aristocrat" else 0)


def test_forager_counts_the_printed_circle_unless_the_option_says_not() -> None:
    # Spec 8.2 design choice 11.
    sheet = _sheet(paths=["forager"], production=9)
    assert breakdown(sheet, GAME.options())["paths"] == 3
    assert breakdown(sheet, GAME.options({"forager_counts_prefilled": False}))["paths"] == 2
    assert path_points("forager", {"production": 2}) == 0


def test_final_score_column_and_disdain_penalty() -> None:
    # Spec 8.1: attributes + Path VP - penalty (9+ Disdain costs 22).
    sheet = _sheet(attributes={"renown": 10, "piety": 5, "valour": 7, "discipline": 3},
                   paths=["fighter"], cohorts=[6, 0, 0], disdain=12, disdain_removed=2)
    score = breakdown(sheet, GAME.options())
    assert score["disdain"] == 10 and score["disdain_penalty"] == -22
    assert score["total"] == 10 + 5 + 7 + 3 + 1 - 22


def test_tie_breaks_less_disdain_then_more_path_points() -> None:
    # Spec 2.5.
    from rules.hadrians_wall.scoring import outcome

    a = _sheet(attributes={"renown": 10, "piety": 0, "valour": 0, "discipline": 0})
    b = _sheet(attributes={"renown": 13, "piety": 0, "valour": 0, "discipline": 0}, disdain=2)
    c = _sheet(attributes={"renown": 9, "piety": 0, "valour": 0, "discipline": 0},
               paths=["fighter"], cohorts=[6, 0, 0])
    result = outcome((a, b, c), GAME.options())
    assert result.scores == (10, 10, 10)
    # b has 2 Disdain: last. a and c have none: c's Path point wins.
    assert result.ranking == ((2,), (0,), (1,))
    d = _sheet(attributes={"renown": 10, "piety": 0, "valour": 0, "discipline": 0})
    assert outcome((a, d), GAME.options()).ranking == ((0, 1),)


def test_solo_ranks() -> None:
    # Spec 8.3.
    assert [solo_rank(s) for s in (-5, 39, 40, 55, 69, 70, 99)] == [
        "Miles", "Miles", "Centurion", "Primus Pilus", "Praefectus castrorum",
        "Legatus legionis", "Legatus legionis"]


def _play_solo(seed: str) -> State:
    """A whole solo game: a seeded player that acts while it can and passes last."""
    state = GAME.setup(1, seed, {"difficulty": "easy"})
    rng = Rng(seed)
    for _ in range(3000):
        if not GAME.active_seats(state):
            return state
        legal = GAME.legal_actions(state, 0)
        busy = [a for a in legal if a["type"] not in ("pass", "defend")]
        pool = busy or legal
        kinds = sorted({a["type"] for a in pool})
        kind = kinds[rng.randbelow(len(kinds))]
        options = [a for a in pool if a["type"] == kind]
        state = GAME.apply(state, 0, options[rng.randbelow(len(options))]).state
    raise AssertionError("the solo game did not end")


def test_a_full_six_year_solo_game_is_scored_with_its_rank() -> None:
    # Spec 2.5, 8 and 8.3; 9: two Neutral cards a Year use the whole Neutral deck.
    state = _play_solo("solo-1")
    assert state.phase == "over" and state.year == 6
    sheet = state.sheets[0]
    assert len(sheet["paths"]) == 6 and len(sheet["prospects"]) == 6
    assert sorted(sheet["paths"] + sheet["prospects"]) == sorted(PLAYER_CARD_IDS)
    assert sum(sheet["hand"].values()) == 0  # Year 6 Valour workers are wasted
    result = GAME.outcome(state)
    assert result is not None
    parts = result.breakdown[0]
    assert result.scores[0] == parts["total"] == (
        sum(sheet["attributes"].values()) + parts["paths"] + parts["disdain_penalty"])
    score = int(result.scores[0])
    assert result.notes == (f"Solo rank: {solo_rank(score)} ({score} points).",)
    view = GAME.view(state, None)
    assert view["outcome"]["notes"] == list(result.notes)
    assert state.neutral_deck == ()
