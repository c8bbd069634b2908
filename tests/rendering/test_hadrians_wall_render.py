"""Hadrian's Wall images: a player's sheets after several Years and the public Year summary
before and after an attack (golden images), plus size checks."""

from __future__ import annotations

import pytest

import rendering
from rendering.common import encode_png
from rules.core import Rng
from rules.hadrians_wall import GAME
from rules.hadrians_wall.state import State
from tests.rendering.golden import assert_matches_golden
from tests.rules.test_hadrians_wall_kit import chosen, pinned


def _play(players: int, seed: str, until: tuple[int, str]) -> State:
    """A seeded game whose players act while they can, stopped at (Year, phase)."""
    state = GAME.setup(players, seed, pinned(players))
    rng = Rng(seed)
    for _ in range(5000):
        if (state.year, state.phase) == until or not GAME.active_seats(state):
            return state
        seats = sorted(GAME.active_seats(state))
        seat = seats[rng.randbelow(len(seats))]
        legal = GAME.legal_actions(state, seat)
        busy = [a for a in legal if a["type"] not in ("pass", "defend")] or legal
        kinds = sorted({a["type"] for a in busy})
        kind = kinds[rng.randbelow(len(kinds))]
        options = [a for a in busy if a["type"] == kind]
        state = GAME.apply(state, seat, options[rng.randbelow(len(options))]).state
    raise AssertionError("the game did not reach the wanted phase")


def test_player_sheets_after_several_years() -> None:
    state = chosen(_play(3, "golden", (5, "choose")))
    view = GAME.view(state, 1)
    image = rendering.render("hadrians-wall", view)
    assert image.size == (1800, 900)
    assert len(encode_png(image)) < 1_000_000
    assert_matches_golden(image, "hadrians_wall_sheets_year5")


def test_public_summary_before_the_first_attack() -> None:
    state = chosen(GAME.setup(2, "summary", pinned(2)))
    view = GAME.view(state, None)
    assert view["attack"] is None
    image = rendering.render("hadrians-wall", view)
    assert len(encode_png(image)) < 1_000_000
    assert_matches_golden(image, "hadrians_wall_summary_before_attack")


def test_public_summary_after_an_attack() -> None:
    state = _play(4, "attack", (3, "actions"))
    view = GAME.view(state, None)
    assert view["attack"]["year"] == 2 and all(view["attack"]["results"])
    image = rendering.render("hadrians-wall", view)
    assert len(encode_png(image)) < 1_000_000
    assert_matches_golden(image, "hadrians_wall_summary_after_attack")


@pytest.mark.parametrize("players", [1, 6])
def test_end_of_game_images_and_alt_text(players: int) -> None:
    state = _play(players, f"end-{players}", (7, "none"))
    assert state.phase == "over"
    public = GAME.view(state, None)
    assert "outcome" in public
    for view in (public, GAME.view(state, 0)):
        png = rendering.render_png("hadrians-wall", view)
        assert 10_000 < len(png) < 1_000_000
    text = rendering.alt_text("hadrians-wall", public)
    assert "Final scores" in text or "Year 6" in text
    if players == 1:
        assert "Solo rank" in GAME.describe(public)


def test_public_summary_while_a_player_decides_on_favours() -> None:
    from tests.rules.test_hadrians_wall_kit import edit, pass_all, start

    state = chosen(start(3))
    state = edit(state, 1, lambda s: s.update(favours=1))
    state = pass_all(state)
    assert state.phase == "attack"
    view = GAME.view(state, None)
    assert view["attack"]["resolving"] and view["attack"]["results"][1] is None
    image = rendering.render("hadrians-wall", view)
    assert_matches_golden(image, "hadrians_wall_summary_during_attack")
