"""Palatinus images: golden images for each phase, size limits, and no leak of hidden types."""

from __future__ import annotations

import itertools

from rendering import alt_text, render, render_png
from rules.palatinus import GAME
from rules.palatinus.components import is_wolf
from rules.palatinus.state import PalatinusState
from tests.rendering.golden import assert_matches_golden
from tests.rules.test_palatinus_helpers import board_state, pinned, play_randomly

MAX_PNG = 1_000_000


def laying() -> PalatinusState:
    state = GAME.setup(3, "golden", pinned(start_seat=1))
    for position in (4, 6):
        action = {"type": "lay", "position": position, "rotation": 1}
        state = GAME.apply(state, state.turn, action).state
    return state


def mid_game() -> PalatinusState:
    return play_randomly(board_state(), "golden-mid", stop=17)


def finished() -> PalatinusState:
    return play_randomly(board_state(), "golden-end")


def png_size(view: dict[str, object]) -> int:
    return len(render_png("palatinus", view))


def test_laying_phase_golden() -> None:
    view = GAME.view(laying(), None)
    image = render("palatinus", view)
    assert image.width == 760
    assert png_size(view) < MAX_PNG
    assert_matches_golden(image, "palatinus_laying")


def test_first_outer_tile_shows_all_twelve_positions() -> None:
    view = GAME.view(GAME.setup(4, "golden", pinned()), None)
    assert [p["number"] for p in view["laying"]["positions"]] == list(range(1, 13))
    assert png_size(view) < MAX_PNG


def test_mid_game_public_golden() -> None:
    view = GAME.view(mid_game(), None)
    assert png_size(view) < MAX_PNG
    assert_matches_golden(render("palatinus", view), "palatinus_midgame_public")


def test_mid_game_private_golden_shows_own_wolves() -> None:
    state = mid_game()
    assert any(is_wolf(p.kind) and p.owner == 0 for p in state.pieces)
    view = GAME.view(state, 0)
    assert png_size(view) < MAX_PNG
    private = render("palatinus", view)
    assert private.tobytes() != render("palatinus", GAME.view(state, None)).tobytes()
    assert_matches_golden(private, "palatinus_midgame_private")


def test_final_scoring_golden() -> None:
    state = finished()
    view = GAME.view(state, None)
    assert "scoring" in view and "outcome" in view
    image = render("palatinus", view)
    assert image.width == 760
    assert png_size(view) < MAX_PNG
    assert_matches_golden(image, "palatinus_final_scoring")
    assert "Ranking" in alt_text("palatinus", view)


def test_public_image_does_not_depend_on_hidden_types() -> None:
    # A re-deal of everything the public cannot see draws the same public image.
    state = mid_game()
    base = render("palatinus", GAME.view(state, None)).tobytes()
    for n in range(3):
        other = GAME.determinize(state, None, f"r{n}")
        assert render("palatinus", GAME.view(other, None)).tobytes() == base


def test_public_alt_text_names_no_hidden_type() -> None:
    state = mid_game()
    text = alt_text("palatinus", GAME.view(state, None))
    assert len(text) < 1000
    for piece in state.pieces:
        if is_wolf(piece.kind):
            assert f"{piece.field} P{piece.owner + 1} wolf" in text
        else:
            assert f"{piece.field} P{piece.owner + 1} {piece.kind}" in text


def test_every_image_reads_at_preview_width() -> None:
    from tests.rendering.legibility import render_legibly

    for state in (laying(), mid_game(), finished()):
        for seat in (None, 0, 1):
            render_legibly("palatinus", GAME.view(state, seat))


def test_final_table_columns_never_overlap() -> None:
    # The widest name a table may show, bold, ends before the Laurels column starts.
    from rendering.common import NAME_LIMIT, font
    from rendering.palatinus.scoresheet import COLS

    name = font(17, bold=True).getlength("W" * (NAME_LIMIT - 1) + "…")
    assert COLS[1][1] + 36 + name < COLS[2][1]
    assert font(17, bold=True).getlength("#4") < COLS[1][1]
    for (title, x), (_, nxt) in itertools.pairwise(COLS[2:]):
        assert x + font(16, bold=True).getlength(title) < nxt
    view = GAME.view(finished(), None)
    view["names"] = ["W" * 30] * 3
    render("palatinus", view)


def test_free_fields_are_outlined_for_the_seat_to_place() -> None:
    state = mid_game()
    turn = state.turn
    mine = render("palatinus", GAME.view(state, turn))
    other = render("palatinus", GAME.view(state, (turn + 1) % 3))
    assert mine.tobytes() != other.tobytes()
    assert_matches_golden(mine, "palatinus_midgame_private_to_place")


def test_laying_phase_private_golden() -> None:
    from rendering import render_all
    from tests.rendering.legibility import render_legibly

    state = laying()
    view = GAME.view(state, state.turn)
    images = render_legibly("palatinus", view)
    assert_matches_golden(images[0], "palatinus_laying_private")
    assert render_all("palatinus", view)[0].size == images[0].size


def test_owners_read_without_colour_at_preview_size() -> None:
    """Each piece carries its owner's marker (shape and number) large enough to read in a
    greyscale 550 px preview: at least 16 px across there."""
    from unittest import mock

    import rendering.palatinus.pieces as pieces
    from rendering.palatinus.layout import HEIGHT

    view = GAME.view(mid_game(), None)
    with mock.patch.object(pieces, "draw_marker", wraps=pieces.draw_marker) as marker:
        image = render("palatinus", view)
    on_board = [c.args[2] for c in marker.call_args_list if c.args[1][1] < HEIGHT]
    assert on_board
    assert min(on_board) * 2 * 550 / image.width >= 16


def test_the_last_piece_placed_is_ringed() -> None:
    from rendering.palatinus import _piece_centre
    from rendering.palatinus.layout import LAST

    state = mid_game()
    view = GAME.view(state, None)
    image = render("palatinus", view).convert("RGB")
    x, y = _piece_centre(*view["pieces"][-1]["hex"])
    near = image.crop((int(x - 40), int(y - 40), int(x + 40), int(y + 40)))
    colours = {colour for _, colour in near.getcolors(1 << 16) or []}
    assert LAST in colours
