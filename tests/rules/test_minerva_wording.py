"""Minerva words: counts agree with their nouns."""

from __future__ import annotations

from rules.minerva import GAME
from rules.minerva.state import MinervaState
from tests.rules.test_minerva_support import fresh, set_city, set_player


def test_a_city_of_one_tile_is_singular() -> None:
    view = GAME.view(GAME.setup(2, "words"), None)
    text = GAME.describe(view)
    assert "1 tiles" not in text


def _said(s: MinervaState, seat: int, text: str) -> tuple[MinervaState, list[str]]:
    transition = GAME.apply(s, seat, GAME.parse_action(s, seat, text))
    return transition.state, [e.text for e in transition.events]


def test_the_fountain_prompts_its_resource_choice_and_says_what_it_gave() -> None:
    s = fresh()
    s, said = _said(s, 0, "residence 1,0")
    assert said == ["{p0} built a residence at 1,0."]
    assert ("To decide: choose a direction to activate from 1,0 (e.g. 'activate north')."
            in GAME.describe(GAME.view(s, 0)))
    s, said = _said(s, 0, "activate west")
    assert said[0].startswith("{p0} activates west from 1,0; Fountain at 0,0.")
    assert "Next:" not in said[0]
    asked = GAME.describe(GAME.view(s, 0))
    assert "To decide: at the Fountain at 0,0, take 1 resource of your choice" in asked
    assert "'take grain'" in asked
    s, said = _said(s, 0, "take ore")
    assert said[0] == "{p0} resolves Fountain at 0,0: +1 ore."


def test_an_activation_says_what_each_facility_gained() -> None:
    s = fresh()
    set_city(s, 0, {(1, 1): "wheat_field", (2, 1): "markets", (3, 1): "stall"})
    set_player(s, 0, res={"grain": 1}, money=0)
    s, said = _said(s, 0, "residence 0,1")
    s, said = _said(s, 0, "activate east")
    line = said[0]
    assert "Wheat field at 1,1: +2 grain" in line
    assert "Markets at 2,1: +3 denarii" in line
    assert "Next:" not in line
    assert ("To decide: at the Stall at 3,1, choose how many times:"
            in GAME.describe(GAME.view(s, 0)))
    s, said = _said(s, 0, "exchange 2")
    assert said[0] == "{p0} resolves Stall at 3,1: exchanged 2 times, +2 glory."


def test_other_players_and_round_news_get_lines_of_their_own() -> None:
    s = fresh()
    for seat in range(1, s.n):
        s.players[seat].passed = True
    s.passes = s.n - 1
    s, said = _said(s, 0, "residence 1,0")
    s, said = _said(s, 0, "activate north")
    assert said[0].startswith("{p0} activates north from 1,0")
    others = said[1:]
    assert others and all(text.count("{p") <= 1 for text in said)
    assert all(text.startswith("{p") and "passes again" in text for text in others)


def test_one_denarius_and_one_assistant_are_singular() -> None:
    s = fresh()
    set_player(s, 0, money=1)
    text = GAME.describe(GAME.view(s, None))
    assert "{p0}: 1 denarius," in text
    assert "1 denarii" not in text and "1 assistants" not in text and "1 residences" not in text
