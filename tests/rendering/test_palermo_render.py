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


def test_the_builders_own_image_shows_where_they_may_build() -> None:
    from PIL import ImageChops

    state = play_until(4, mid_build)
    view = GAME.view(state, state.turn)
    builds = [a for a in GAME.legal_actions(state, state.turn) if a["type"] == "build"]
    spaces = {a["space"] for a in builds}
    assert {s["space"] for s in view["may_build"]} == spaces
    for space in view["may_build"]:
        doors = {a["door"] for a in builds if a["space"] == space["space"]}
        assert set(space["doors"]) == doors
    assert "may_build" not in GAME.view(state, None)
    others = [s for s in range(4) if s != state.turn]
    assert "may_build" not in GAME.view(state, others[0])
    private, public = render("palermo", view), render("palermo", GAME.view(state, None))
    assert ImageChops.difference(private.convert("RGB"),
                                 public.convert("RGB")).getbbox() is not None


def test_a_pawn_is_unlike_a_chip_at_preview_size() -> None:
    from PIL import Image, ImageDraw

    from rendering.palermo.pieces import draw_chip, draw_pawn

    def footprint(draw_piece: Callable[[ImageDraw.ImageDraw], None]) -> tuple[int, int]:
        image = Image.new("RGB", (80, 80), (240, 233, 214))
        draw_piece(ImageDraw.Draw(image))
        small = image.resize((66, 66))  # the board's scale in a 550 px preview
        box = small.convert("L").point(lambda v: 255 if v < 200 else 0).getbbox()
        assert box is not None
        return box[2] - box[0], box[3] - box[1]

    for seat in range(5):
        pawn = footprint(lambda d, s=seat: draw_pawn(d, 40, 40, 11, s))  # type: ignore[misc]
        chip = footprint(lambda d, s=seat: draw_chip(d, 40, 40, 10, s, True))  # type: ignore[misc]
        # A pawn stands: much taller than wide, and much taller than a chip.
        assert pawn[1] >= 1.5 * chip[1] and pawn[1] > pawn[0]


@pytest.mark.parametrize("players", [3, 5])
def test_the_board_fills_most_of_the_image(players: int) -> None:
    for stop in (mid_build, collecting):
        state = play_until(players, stop)
        image = render("palermo", GAME.view(state, state.turn))
        board = image.width  # the board is square and as wide as the image
        assert board / image.height >= 0.55, (players, image.size)
