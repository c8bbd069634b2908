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

    from rendering.palermo.board import CHIP_R
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
        chip = footprint(lambda d, s=seat: draw_chip(d, 40, 40, CHIP_R, s, True))  # type: ignore[misc]
        # A pawn stands: much taller than wide, and much taller than a chip.
        assert pawn[1] >= 1.5 * chip[1] and pawn[1] > pawn[0]


@pytest.mark.parametrize("players", [3, 5])
def test_the_board_fills_most_of_the_image(players: int) -> None:
    for stop in (mid_build, collecting):
        state = play_until(players, stop)
        image = render("palermo", GAME.view(state, state.turn))
        board = image.width  # the board is square and as wide as the image
        assert board / image.height >= 0.55, (players, image.size)


def _overlap(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.5) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack
            and min(a[3], b[3]) - max(a[1], b[1]) > slack)


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] >= b[0] - 1 and a[1] >= b[1] - 1 and a[2] <= b[2] + 1 and a[3] <= b[3] + 1


# A piece's number repeats its colour (and a chip's shape): fine print, held to a lower floor.
PIECE_NUMBER = 6.5


def board_labels(view: dict[str, Any]) -> list[str]:
    """Every label drawn on the board, measured: its size at preview width (11 px or more; a
    piece's own number PIECE_NUMBER px or more), no two label boxes overlap, no piece covers a
    label or another piece, no chip lies wholly under a piece. Returns the faults found."""
    from rendering.common import font
    from rendering.palermo import board
    from rendering.palermo.layout import Frame, badge_box, chip_centre, place_tokens, start_rect
    from tests.rendering.legibility import PREVIEW_WIDTH, SMALLEST
    from tests.rendering.textboxes import record_texts

    board._base.cache_clear()  # the cached ring and coordinates are measured too
    with record_texts() as texts:
        image = board.draw_board(view)
    scale = PREVIEW_WIDTH / image.width
    f = Frame(view["grid"]["cells"])
    # The hint badges as the board places them: the pieces make room for them.
    small = font(board.TEXT, bold=True)
    start = start_rect(view)
    badges = {tuple(e["rect"]): badge_box(f, e["rect"], small.getlength(
        board._mark_text(e["moves"])), start) for e in view.get("reachable") or ()}
    tokens = [t.box for t in place_tokens(view, f, badges, view["phase"] != "build")]
    chips = [chip_centre(f, t["door"], t["door_roof"]) for t in view["tiles"]
             if t.get("door") is not None and t.get("door_roof") is not None]
    found: list[str] = []
    labels = [t for t in texts if t.text.strip()]
    r = board.CHIP_R
    discs = [(cx - r, cy - r, cx + r, cy + r) for cx, cy in chips]
    for t in labels:
        own = any(_inside(t.box, box) for box in tokens + discs)
        floor = PIECE_NUMBER if own else SMALLEST
        if t.size * scale < floor:
            found.append(f"{t.text!r} reads at {t.size * scale:.1f} px")
        if not own and any(_overlap(t.box, box) for box in tokens):
            found.append(f"a piece covers {t.text!r}")
    for k, a in enumerate(labels):
        for b in labels[k + 1:]:
            if _overlap(a.box, b.box):
                found.append(f"{a.text!r} overlaps {b.text!r}")
    for k, box in enumerate(tokens):
        found += [f"pieces overlap at {box}" for other in tokens[k + 1:] if _overlap(box, other)]
    for (cx, cy), disc in zip(chips, discs, strict=True):
        if any(_inside(disc, box) for box in tokens):
            found.append(f"a chip at {(cx, cy)} is hidden")
    return found


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("stop", [mid_build, collecting, over])
def test_every_board_label_is_readable_and_in_sight(
    players: int, stop: Callable[[PalermoState], bool]
) -> None:
    state = play_until(players, stop)
    view: dict[str, Any] = GAME.view(state, state.turn if state.phase != OVER else None)
    if state.phase == COLLECT:
        assert view["reachable"]  # the hints for the seat to act are on the board
    found = board_labels(view)
    assert not found, "\n".join(found)
    image = render("palermo", view)
    assert image.height * 550 / image.width <= 1100


def crowded_view() -> dict[str, Any]:
    """The last board of a five-player game, made crowded: hint badges on Start/Finish where
    four pawns wait, and a pawn on a police stone on the ring (drawing only; no game gets
    here by these moves)."""
    view: dict[str, Any] = dict(GAME.view(play_until(5, over), None))
    start = next(t for t in view["tiles"] if t["kind"] == "SF")
    x, y = 2 * start["i"], 2 * start["j"]
    view["reachable"] = [{"cell": "", "rect": [x + dx, y + dy, x + dx + 1, y + dy + 1],
                          "moves": [{"cost": 3, "end": "home"}]}
                         for dx in (0, 1) for dy in (0, 1)]
    stone = next(s for s in view["police"] if s["rect"] is not None and s["cell"][0] == "r")
    pawn = dict(view["pawns"][0], on_start=False, home=False, rect=stone["rect"])
    view["pawns"] = [pawn, *view["pawns"][1:]]
    return view


def test_a_crowded_board_hides_nothing() -> None:
    assert not board_labels(crowded_view())
