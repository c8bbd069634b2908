"""Palatinus images: golden images for each phase, size limits, and no leak of hidden types."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from PIL import Image, ImageChops

from rendering import alt_text, render, render_png
from rendering.palatinus.tiles import board_layer, tile_key
from rules.palatinus import GAME
from rules.palatinus.components import is_wolf
from rules.palatinus.state import PalatinusState
from tests.rendering.golden import assert_matches_golden
from tests.rendering.legibility import PREVIEW_WIDTH, SMALLEST
from tests.rendering.textboxes import DrawnText, record_texts
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
    words = {"M": "merchant", "F": "farmer", "S": "soldier"}
    # In sentences, hill by hill, each owner's pieces after the owner's name.
    hills = {part.split(" ", 1)[0]: part for part in text.split("Hill ")[1:]}
    for piece in state.pieces:
        what = "wolf piece" if is_wolf(piece.kind) else words[piece.kind]
        sentence = hills[piece.field[0]]
        owner = sentence.index(f"P{piece.owner + 1}'s ")
        at = sentence.index(f"{what} on {piece.field}")
        others = [sentence.find(f"P{n}'s ", owner + 1) for n in range(1, 7)]
        assert owner < at and not any(owner < o < at for o in others if o >= 0), sentence
    assert "wolf merchant" not in text and "wolf farmer" not in text


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


# Hostile names: as long as a name may be, markup-like, and wide letters.
HOSTILE = ("W" * 32, "<@everyone> **bold** " + "M" * 12, "Ada", "x" * 32, "Maximiliana Ottoline")
FIELD_LABEL = re.compile(r"^[A-G][1-6]$")


def _label_states(players: int) -> list[PalatinusState]:
    """A seeded game at the start (laying), half way through placing, and over."""
    seed = f"labels-{players}"
    start = GAME.setup(players, seed)
    placing = play_randomly(start, seed, stop=2 * players + 4)
    return [start, placing, play_randomly(start, seed)]


def _label_problems(view: dict[str, Any], image: Image.Image, texts: list[DrawnText]) -> list[str]:
    found: list[str] = []
    drawn = [t for t in texts if t.text.strip()]
    for t in drawn:
        if t.size * PREVIEW_WIDTH / image.width < SMALLEST:
            found.append(f"{t.text!r} reads at {t.size * PREVIEW_WIDTH / image.width:.1f} px")
        if not t.inside:
            found.append(f"{t.text!r} at {t.box} leaves {t.bounds}")
    for a, b in itertools.combinations(drawn, 2):
        # A pixel of anti-aliasing on each side is no overlap.
        if (min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > 2
                and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > 2):
            found.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}")
    # Nothing drawn after the board (pieces, markers, badges) covers a field label.
    board = board_layer(tuple(tile_key(t) for t in view["tiles"]))
    for t in drawn:
        if FIELD_LABEL.match(t.text):
            # The box less its outer pixel: the label's own outline, where a rim may blend in.
            x0, y0, x1, y1 = (int(v) for v in t.box)
            box = (x0 + 1, y0 + 1, x1 - 1, y1 - 1)
            if ImageChops.difference(board.crop(box), image.convert("RGB").crop(box)).getbbox():
                found.append(f"field label {t.text} is covered")
    return found


@pytest.mark.parametrize("players", [2, 5])
def test_every_label_reads_at_preview_width_and_none_overlap(players: int) -> None:
    found: dict[str, str] = {}
    for n, state in enumerate(_label_states(players)):
        for seat in (None, 0):
            view = {**GAME.view(state, seat), "names": list(HOSTILE[:players])}
            board_layer.cache_clear()  # the board's labels are drawn (and measured) again
            with record_texts() as texts:
                image = render("palatinus", view)
            if view["phase"] == "over":
                assert image.height <= 2 * image.width, image.size
            for problem in _label_problems(view, image, texts):
                found.setdefault(problem, f"{players} players, state {n}, seat {seat}")
    assert not found, "\n".join(f"{where}: {problem}" for problem, where in found.items())


def test_how_each_hill_scored_is_a_detail_image_once_the_game_is_over() -> None:
    import rendering

    end = {**GAME.view(finished(), None), "names": ["Ada", "Bo", "Cy"]}
    assert rendering.detail_parts("palatinus", end) == [("scoring", "Scoring")]
    image, alt = rendering.render_detail("palatinus", end, "scoring")
    assert image.width == 760 and image.height <= 2 * image.width
    hills = sorted({t["letter"] for t in end["tiles"]})
    assert alt.startswith("Palatinus: how each hill scored.")
    assert all(f"Hill {h}:" in alt for h in hills)
    # The post keeps the board and the table, and says where the rest is.
    with record_texts() as texts:
        rendering.render_all("palatinus", end)
    words = [t.text for t in texts]
    assert "How each hill scored: the Scoring button under this image." in words
    assert not any(w.startswith("Scoring, hill by hill") for w in words)
    during = GAME.view(mid_game(), None)
    assert rendering.detail_parts("palatinus", during) == []
    with pytest.raises(KeyError):
        rendering.render_detail("palatinus", during, "scoring")
