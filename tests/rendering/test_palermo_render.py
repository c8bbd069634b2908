"""Palermo images: golden images of each phase, PNG size, alt text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rendering import alt_text, render, render_png
from rules.core import Rng
from rules.palermo import GAME
from rules.palermo.state import BUILD, COLLECT, MOVE, OVER, PalermoState
from tests.rendering.golden import assert_matches_golden


def play_until(players: int, stop: Callable[[PalermoState], bool]) -> PalermoState:
    """A seeded random game, played until ``stop`` holds (bounded)."""
    state = GAME.setup(players, "golden", {"first_player": 0})
    pick = Rng(f"golden-choices-{players}")
    for _ in range(20_000):
        if stop(state) or not GAME.active_seats(state):
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, legal[pick.randbelow(len(legal))]).state
    return state


def mid_build(state: PalermoState) -> bool:
    return state.phase == BUILD and sum(state.to_place) <= 16


def collecting(state: PalermoState) -> bool:
    return state.phase == COLLECT and state.turns >= 14 and state.step == MOVE


def over(state: PalermoState) -> bool:
    return state.phase == OVER


CASES: list[tuple[str, Callable[[PalermoState], bool], bool]] = [
    ("palermo_phase1_build", mid_build, False),
    ("palermo_phase1_private", mid_build, True),
    ("palermo_phase2_public", collecting, False),
    ("palermo_phase2_private", collecting, True),
    ("palermo_end", over, False),
]


@pytest.mark.parametrize(("name", "stop", "private"), CASES)
def test_golden_images(name: str, stop: Callable[[PalermoState], bool], private: bool) -> None:
    state = play_until(4, stop)
    assert stop(state)
    view: dict[str, Any] = GAME.view(state, state.turn if private else None)
    if private and state.phase == COLLECT:
        assert view["reachable"]
    image = render("palermo", view)
    assert_matches_golden(image, name)
    assert len(render_png("palermo", view)) < 1_000_000


@pytest.mark.parametrize("players", [3, 5])
def test_every_phase_renders_small_pngs(players: int) -> None:
    for stop in (mid_build, collecting, over):
        state = play_until(players, stop)
        for seat in (None, state.turn if state.phase != OVER else 0):
            png = render_png("palermo", GAME.view(state, seat))
            assert png.startswith(b"\x89PNG") and len(png) < 1_000_000


def test_alt_text_names_the_players_and_the_turn() -> None:
    state = play_until(3, collecting)
    text = alt_text("palermo", GAME.view(state, state.turn))
    assert "Phase 2" in text and "Player 1 (blue)" in text
    assert "{p" not in text and "You can reach" in text


@pytest.mark.parametrize("players", [3, 5])
def test_every_image_reads_at_preview_width(players: int) -> None:
    from tests.rendering.legibility import render_legibly

    for stop in (mid_build, collecting, over):
        state = play_until(players, stop)
        for seat in (None, state.turn):
            [image] = render_legibly("palermo", GAME.view(state, seat))
            assert image.width <= 700


def test_waiting_pawns_on_start_do_not_overlap() -> None:
    # Five pawns waiting on Start/Finish at the start of phase 2: each in its own place.
    state = play_until(5, lambda s: s.phase == COLLECT)
    view = GAME.view(state, None)
    assert sum(p["on_start"] for p in view["pawns"]) == 5
    assert_matches_golden(render("palermo", view), "palermo_phase2_start_five")
