"""Hadrian's Wall as a whole: playouts at every difficulty, simultaneous play, hidden
information, setup options and the text notation (spec 2, 9 and the engine contract)."""

from __future__ import annotations

import json

import pytest

from rules.conformance import check_determinism, check_playout
from rules.core import IllegalAction, InvalidAction, NotYourTurn
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import FATE_IDS, PLAYER_CARD_IDS
from tests.rules.test_hadrians_wall_kit import act, chosen, edit, hand, pinned, start


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_playout_at_each_difficulty(difficulty: str, players: int) -> None:
    # Spec 7: the attack counts per difficulty; the playout checks the engine contract.
    options = {"difficulty": difficulty}
    playout = check_playout(GAME, players, f"{difficulty}-{players}", options,
                            deep_every=GAME.conformance_deep_every)
    check_determinism(GAME, players, f"{difficulty}-{players}", playout.actions, options)
    result = GAME.outcome(playout.final)
    assert result is not None and len(result.scores) == players


@pytest.mark.parametrize("options", [
    {"neutral_extra_attacks": "per_player", "favour_prompt": "always"},
    {"fate_reshuffle": False, "favours_persist": False, "forum_gain": "other_type",
     "training_when_guard_locked": True, "market_from_own_card": True},
])
def test_random_playout_with_other_options(options: dict[str, object]) -> None:
    check_playout(GAME, 2, "options", options, deep_every=GAME.conformance_deep_every)


def test_action_phase_is_simultaneous() -> None:
    # Spec 2.3: everyone who has not passed is active at once.
    state = chosen(start(4))
    assert GAME.active_seats(state) == {0, 1, 2, 3}
    state, _ = act(state, 2, "pass")
    assert GAME.active_seats(state) == {0, 1, 3}
    assert GAME.legal_actions(state, 2) == []
    with pytest.raises(NotYourTurn):
        act(state, 2, "pass")
    state, _ = act(state, 3, {"type": "fort", "box": 1, "pay": "builder"})
    state, _ = act(state, 0, {"type": "fort", "box": 1, "pay": "builder"})
    assert state.sheets[0]["fort"] == state.sheets[3]["fort"] == 1


def test_the_year_ends_when_everyone_has_passed() -> None:
    state = chosen(start(2))
    state, _ = act(state, 0, "pass")
    assert state.phase == "actions"
    state, events = act(state, 1, "pass")
    assert state.year == 2 and state.phase == "choose"
    kinds = [e.kind for e in events]
    assert kinds.index("attack") < kinds.index("year")


def test_path_choice_stays_secret_until_everyone_has_chosen() -> None:
    # Spec 2.2 step 2: face down until all have chosen.
    state = start(3)
    drawn = state.sheets[1]["drawn"]
    state, events = act(state, 1, {"type": "choose", "path": drawn[1]})
    private = [e for e in events if e.to == frozenset({1})]
    public = [e for e in events if e.to is None]
    assert private and drawn[1] in private[0].text
    assert [e.text for e in public] == ["{p1} has chosen."]
    # Whichever card seat 1 chose, nobody else's view differs, and no view names the choice.
    other, _ = act(start(3), 1, {"type": "choose", "path": drawn[0]})
    for observer in (None, 0, 2):
        assert GAME.view(state, observer) == GAME.view(other, observer)
    assert drawn[1] not in json.dumps(GAME.view(state, None))
    mine = GAME.view(state, 1)
    assert mine["private"]["chosen"] == drawn[1]
    assert [c["id"] for c in mine["private"]["drawn"]] == drawn
    assert GAME.view(state, None)["sheets"][1]["status"] == "chosen"
    assert GAME.view(state, None)["progress"]["label"] == "1 of 3 chosen"
    state, _ = act(state, 0, {"type": "choose", "path": state.sheets[0]["drawn"][0]})
    t = GAME.apply(state, 2, {"type": "choose", "path": state.sheets[2]["drawn"][0]})
    assert t.irreversible
    assert t.state.sheets[1]["paths"] == [drawn[1]]
    assert t.state.sheets[1]["prospects"] == [drawn[0]]
    assert any(e.kind == "reveal" and e.to is None for e in t.events)


def test_draws_are_irreversible_and_plain_actions_are_not() -> None:
    state = chosen(start(1))
    state = edit(state, 0, lambda s: (s["built"].append("market"),
                                      s["citizens"].update(traders=4)))
    state = edit(state, 0, hand(resource=2, builder=1))
    assert not GAME.apply(state, 0, {"type": "fort", "box": 1, "pay": "builder"}).irreversible
    assert GAME.apply(state, 0, {"type": "market", "box": 1, "from": "deck"}).irreversible


def test_determinize_redeals_hidden_cards_but_keeps_each_view() -> None:
    state = start(3)
    state, _ = act(state, 0, {"type": "choose", "path": state.sheets[0]["drawn"][0]})
    other = GAME.determinize(state, 2, "x")
    for observer in (None, 2):
        assert GAME.view(other, observer) == GAME.view(state, observer)
    assert other.sheets[2]["drawn"] == state.sheets[2]["drawn"]
    changed = [GAME.determinize(state, 2, f"s{i}").fate_draw != state.fate_draw for i in range(5)]
    assert any(changed)


def test_setup_options_pin_every_deck() -> None:
    fate = list(reversed(FATE_IDS))
    cards = [list(reversed(PLAYER_CARD_IDS)), list(PLAYER_CARD_IDS)]
    a = GAME.setup(2, "one", pinned(2, fate=fate, player_cards=cards))
    b = GAME.setup(2, "two", pinned(2, fate=fate, player_cards=cards))
    assert GAME.dump(a)["sheets"] == GAME.dump(b)["sheets"]
    assert a.year_card == "F48" and a.fate_draw == b.fate_draw
    assert a.sheets[0]["drawn"] == ["vanguard", "trainer"]
    assert a.neutral_deck == b.neutral_deck
    with pytest.raises(InvalidAction):
        GAME.setup(2, "x", {"fate_order": ["F01"]})
    with pytest.raises(InvalidAction):
        GAME.setup(7, "x")


def test_notation_round_trips_and_forgives() -> None:
    state = chosen(start(3))
    state = edit(state, 0, hand(soldier=2, builder=2, servant=2, civilian=2, resource=3))
    for action in GAME.legal_actions(state, 0):
        assert GAME.parse_action(state, 0, GAME.format_action(state, action)) == action
    assert GAME.parse_action(state, 0, "FORT 1 with a Soldier") == {
        "type": "fort", "box": 1, "pay": "soldier"}
    assert GAME.parse_action(state, 0, "fort") == {"type": "fort", "box": 1, "pay": "builder"}
    assert GAME.parse_action(state, 0, "Wall Guard, centre") == {
        "type": "guard", "box": 1, "cohort": "center"}
    assert GAME.parse_action(state, 0, "citizen priest") == {
        "type": "citizen", "track": "priests", "box": 1}
    assert GAME.parse_action(state, 0, "forum pay servant builder gain civilian") == {
        "type": "forum", "box": 1, "pay": ["builder", "servant"], "gain": "civilian"}
    assert GAME.parse_action(state, 0, "mine") == {"type": "mining", "box": 1}
    assert GAME.parse_action(state, 0, "Fighter") == {"type": "choose", "path": "fighter"}
    assert GAME.parse_action(state, 0, "valour") == {"type": "road", "attribute": "valour"}
    assert GAME.parse_action(state, 0, "scout a1 b1 c1 d1 from the right neighbour") == {
        "type": "scout", "from": "right", "cells": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    assert GAME.parse_action(state, 0, "buy from deck") == {
        "type": "market", "box": 1, "from": "deck"}
    text = GAME.format_action(state, {"type": "build", "building": "granary_medium"})
    assert text == "build medium granary (1 builder, 1 servant, 1 resource)"
    with pytest.raises(InvalidAction):
        GAME.parse_action(state, 0, "dance a jig")
    with pytest.raises(IllegalAction, match="next Fort box is 1"):
        act(state, 0, "fort 3 (1 builder)")


def test_describe_gives_a_plain_account() -> None:
    state = chosen(start(2))
    text = GAME.describe(GAME.view(state, 0))
    assert "Year 1 of 6" in text and "{p0}" in text and "Fate card, F01," in text
    assert "Neutral card" in text
    # Sentences, not a dump of abbreviations: "ren 0 pie 0", "0 of 2 done".
    assert "Nobody has finished yet." in text and " ren " not in text and "of 2 done" not in text
    assert "{p0} is playing and has 0 points (0 renown, 0 piety" in text
    assert "Hadrian's Wall" in GAME.rules_summary()


def test_wrong_phase_and_malformed_moves_are_refused() -> None:
    state = start(1)
    with pytest.raises(IllegalAction, match="Path"):
        act(state, 0, {"type": "pass"})
    with pytest.raises(InvalidAction):
        act(state, 0, {"type": "choose"})
    with pytest.raises(InvalidAction):
        act(state, 0, {"type": "nonsense"})
    with pytest.raises(IllegalAction, match="cards you drew"):
        act(state, 0, {"type": "choose", "path": "ranger"})
