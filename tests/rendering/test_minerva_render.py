"""Minerva pictures: golden images of an early, a middle and a final position, plus size checks."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from PIL import Image, ImageDraw, ImageFont

from rendering import alt_text, render_png
from rules.core import Action, Rng
from rules.minerva import GAME
from rules.minerva.state import MinervaState
from tests.rendering.golden import assert_matches_golden
from tests.rendering.textboxes import DrawnText, record_texts


def _pick(rng: Rng, legal: list[Action]) -> Action:
    """Mostly builds, some activations, a pass now and then, so that rounds go by."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    roll = rng.randbelow(16)
    if "pass" in kinds and roll < 1:
        wanted = ["pass"]
    elif roll < 5:
        wanted = ["residence", "assistant"]
    else:
        wanted = ["build"]
    pool = [a for kind in wanted for a in kinds.get(kind, [])]
    if not pool:
        pool = [a for a in legal if a["type"] not in ("sell", "pass")] or legal
    return pool[rng.randbelow(len(pool))]


def played(players: int, steps: int, seed: str = "pic", until_direction: bool = False) -> Any:
    """A seeded game played by a building-minded random player for some steps."""
    state: MinervaState = GAME.setup(players, seed, {"start_seat": 0})
    rng = Rng(seed + "-moves")
    for step in range(2000):  # bounded
        active = GAME.active_seats(state)
        if not active:
            break
        pending = state.stack and state.stack[-1]["k"] == "dir"
        if step >= steps and (not until_direction or pending):
            break
        seat = min(active)
        state = GAME.apply(state, seat, _pick(rng, GAME.legal_actions(state, seat))).state
    return state


def render(game_id: str, view: dict[str, Any]) -> Image.Image:
    """The one image a post carries."""
    import rendering

    [image] = rendering.render_all(game_id, view)
    return image


def _details(view: dict[str, Any]) -> dict[str, Image.Image]:
    import rendering

    return {key: rendering.render_detail("minerva", view, key)[0]
            for key, _ in rendering.detail_parts("minerva", view)}


def _check_size(view: dict[str, Any]) -> None:
    image = render("minerva", view)
    assert image.width == 760 and image.height <= 2 * image.width
    assert len(render_png("minerva", view)) < 1_000_000


def test_early_game_picture() -> None:
    view = GAME.view(played(4, 3), None)
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_early")


def test_mid_game_picture_shows_the_activation_preview() -> None:
    import rendering

    state = played(3, 60, until_direction=True)
    view = GAME.view(state, state.current)
    assert view["pending"]["kind"] == "direction"
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_mid")
    # The seat's own city, a click away, draws the lines each direction would reach.
    with record_texts() as texts:
        city, _ = rendering.render_detail("minerva", view, f"city:{state.current}")
    assert city.width >= 300 and city.height >= 200
    assert any(t.text.startswith("Your city") for t in texts)


def test_end_of_game_picture_shows_the_scores() -> None:
    state = played(4, 10_000)
    view = GAME.view(state, None)
    assert view["outcome"] is not None
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_end")


def test_solitaire_picture_shows_pairs() -> None:
    view = GAME.view(played(1, 4, seed="solo"), None)
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_solo")


def test_alt_text_names_players_and_round() -> None:
    text = alt_text("minerva", GAME.view(played(2, 5), None))
    assert "round 1 of 6" in text and "Player 1" in text and "{p" not in text


def test_overview_and_final_table_read_at_preview_width() -> None:
    import rendering
    from rendering.minerva import final_table
    from rendering.minerva.overview import render_overview
    from tests.rendering.legibility import assert_legible

    view = GAME.view(played(3, 40), None)
    assert_legible(lambda: render_overview(view))
    images = rendering.render_all("minerva", view)
    # The overview is posted; the market and each city are a click away.
    assert len(images) == 1 and images[0].width == 760
    details = _details(view)
    assert list(details) == ["market", "city:0", "city:1", "city:2"]
    assert all(image.width <= 600 for image in details.values())
    assert_matches_golden(details["market"], "minerva_market")
    assert_matches_golden(images[0], "minerva_overview")
    end = GAME.view(played(4, 10_000), None)
    table = assert_legible(lambda: final_table(end))
    assert_matches_golden(table, "minerva_final_scores")
    assert "market" not in _details(end)
    board = _details(end)["city:1"]
    assert max(board.size) <= 1600


def _buyer() -> MinervaState:
    from tests.rules.test_minerva_support import fresh, set_city, set_player

    s = fresh(4)
    set_city(s, 0, {(1, 1): "wheat_field", (2, 1): "markets", (1, 0): "R"})
    set_player(s, 0, res={"grain": 2, "wood": 1, "stone": 1}, money=4)
    return s


def test_private_view_marks_where_a_bought_tile_may_go() -> None:
    from rendering import render_all

    state = _buyer()
    view = GAME.view(state, 0)
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"] == "build"]
    assert view["private"]["build_cells"] == sorted(
        [list(c) for c in {(a["x"], a["y"]) for a in legal}])
    assert "private" not in GAME.view(state, None)
    assert GAME.view(state, 1)["private"]["build_cells"] == []  # not seat 1's turn
    assert len(render_all("minerva", view)) == 1
    city = _details(view)["city:0"]
    assert city.width <= 600
    assert_matches_golden(city, "minerva_private_buyer")


def test_private_views_of_each_seat_at_mid_game() -> None:
    from rendering import render_all

    state = played(3, 40)
    for seat in range(3):
        view = GAME.view(state, seat)
        assert len(render_all("minerva", view)) == 1
        city = _details(view)[f"city:{seat}"]
        assert city.width <= 600
        assert_matches_golden(city, f"minerva_private_mid_seat{seat + 1}")


def test_each_seat_gets_its_own_city_that_reads_at_preview_size() -> None:
    import rendering
    from rendering.minerva import CITY_WIDTH, _cell_size
    from tests.rendering.legibility import PREVIEW_WIDTH, assert_legible
    from tests.rendering.textboxes import record_texts

    state = played(4, 60)
    names = ["Ada", "Bo", "Cy", "Di"]
    for seat in range(4):
        view = {**GAME.view(state, seat), "names": names}
        assert rendering.detail_parts("minerva", view)[1] == (f"city:{seat}", "Your city")
        with record_texts() as texts:
            city, _ = rendering.render_detail("minerva", view, f"city:{seat}")
        player = view["seats"][seat]
        cell = _cell_size(player)
        assert cell * PREVIEW_WIDTH / max(city.width, PREVIEW_WIDTH) >= 60
        assert city.width <= CITY_WIDTH + 60
        words = [t.text for t in texts]
        assert any(w.startswith("Your city") for w in words)
        assert not any(w == f"{names[seat]}'s city" for w in words)
        # The seat's own city says what a residence on a free cell would activate.
        assert any("residence there activates" in w for w in words)
        assert_legible(lambda v=view, s=seat: rendering.render_detail(
            "minerva", v, f"city:{s}")[0])
    public = {**GAME.view(state, None), "names": names}
    with record_texts() as texts:
        details = _details(public)
    titles = [t.text for t in texts if t.text.endswith("'s city")]
    assert titles == [f"{n}'s city" for n in names]
    assert list(details) == ["market", "city:0", "city:1", "city:2", "city:3"]
    assert rendering.render_detail("minerva", public, "market")[1].startswith("The market")


def test_reach_counts_tiles_up_to_a_gap_or_a_residence() -> None:
    from rendering.minerva.city import reach

    def tile(category: str) -> dict[str, str]:
        return {"category": category}

    cells = {(0, 0): tile("production"), (1, 0): tile("trade"), (2, 0): tile("residential"),
             (0, 1): tile("culture"), (0, 2): tile("culture")}
    assert reach(cells, (-1, 0)) == {"e": 2}  # stops at the residence on (2, 0)
    assert reach(cells, (0, -1)) == {"s": 3}
    assert reach(cells, (1, 1)) == {"n": 1, "w": 1}


def test_player_table_columns_never_collide_with_passed() -> None:
    from rendering.minerva.overview import render_overview
    from tests.rendering.textboxes import record_texts

    state = played(4, 60)
    view = {**GAME.view(state, None), "names": ["Maximiliana Ottoline"] * 4}
    for seat in view["seats"]:
        seat["passed"] = True
    with record_texts() as texts:
        render_overview(view)
    row_texts = [t for t in texts if t.text == "passed" or t.text.isdigit()]
    boxes = [t.box for t in row_texts]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
    assert sum(t.text == "passed" for t in texts) == 4



# Hostile names: as long as a name may be, wide letters, markup-like.
HOSTILE = ("W" * 32, "<@everyone> **bold** " + "M" * 11, "Maximiliana Ottoline Wolkenstei",
           "x" * 32)


RUN_TOGETHER = 6


@contextmanager
def _texts_by_image() -> Iterator[list[tuple[Image.Image, DrawnText]]]:
    """Every text drawn, with the image it was drawn on: cells and cards are drawn on images
    of their own and pasted, so only texts on one image can overlap."""
    import rendering.palette

    out: list[tuple[Image.Image, DrawnText]] = []
    fine: list[ImageFont.FreeTypeFont] = []  # kept alive: their ids are not reused
    plain = rendering.palette.font

    def font(size: int, bold: bool = False, fine_print: bool = False) -> Any:
        # A marker's number is fine print that repeats its shape and colour: its own copy of
        # the font tells it apart.
        if not fine_print:
            return plain(size, bold)
        fine.append(plain(size, bold, fine=True).font_variant())
        return fine[-1]

    with record_texts() as texts, mock.patch.object(
            rendering.palette, "font", lambda size, bold=False, fine=False: font(size, bold, fine)):
        recording = ImageDraw.ImageDraw.text

        def text(self: ImageDraw.ImageDraw, *args: Any, **kw: Any) -> None:
            recording(self, *args, **kw)
            if not any(kw.get("font") is f for f in fine):
                out.append((self._image, texts[-1]))  # type: ignore[attr-defined]

        ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
        try:
            yield out
        finally:
            ImageDraw.ImageDraw.text = recording  # type: ignore[method-assign]


def _label_problems(sent: list[Image.Image], drawn: list[tuple[Image.Image, DrawnText]]
                    ) -> list[str]:
    """Text under 11 px at 550 px wide, text leaving its box, two labels on one image
    overlapping, an image taller than 1,100 px at 550 px wide (2:1)."""
    from rendering.minerva import CITY_WIDTH
    from tests.rendering.legibility import PREVIEW_WIDTH, SMALLEST

    found = [f"{image.size} is taller than 2:1" for image in sent
             if image.height > 2 * image.width]
    by_image: dict[int, tuple[Image.Image, list[DrawnText]]] = {}
    for image, t in drawn:  # the images are kept alive: their ids are not reused
        if t.text.strip():
            by_image.setdefault(id(image), (image, []))[1].append(t)
    for image, texts in by_image.values():
        # An image is sent cropped to its own width; cells and cards, narrower, are pasted at
        # full size into a city or the market, CITY_WIDTH wide.
        scale = PREVIEW_WIDTH / max(image.width, CITY_WIDTH)
        for t in texts:
            if t.size * scale < SMALLEST:
                found.append(f"{t.text!r} reads at {t.size * scale:.1f} px")
            if not t.inside:
                found.append(f"{t.text!r} at {t.box} leaves {t.bounds}")
        for a, b in itertools.combinations(texts, 2):
            # Labels on one line need a gap that reads as one (6 px: "Temples Money" ran
            # together at 4); a pixel of anti-aliasing on each side is no overlap.
            if (min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > -RUN_TOGETHER
                    and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > 2):
                found.append(f"{a.text!r} {a.box} overlaps or runs into {b.text!r} {b.box}")
    return found


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_image_reads_at_preview_width_and_no_labels_overlap(players: int) -> None:
    """Every image sent (overview or final scores, cities, market) at the start, half way and
    the end, publicly and to the first seat, with hostile names."""
    import rendering
    from rendering.minerva import CITY_WIDTH
    from rendering.minerva.city import _cell

    found: dict[str, str] = {}
    for steps in (0, 30, 10_000):
        state = played(players, steps, seed=f"labels-{players}")
        for seat in (None, 0):
            view = {**GAME.view(state, seat), "names": list(HOSTILE[:players])}
            _cell.cache_clear()  # cached cells are drawn (and measured) again
            with _texts_by_image() as drawn:
                images = rendering.render_all("minerva", view)
                details = list(_details(view).values())
            assert all(image.width == CITY_WIDTH for image in details)
            images += details
            for problem in _label_problems(images, drawn):
                found.setdefault(problem, f"{steps} steps, seat {seat}")
    assert not found, "\n".join(f"{where}: {problem}" for problem, where in found.items())


def test_the_overview_shows_every_city_in_small_and_where_a_tile_may_go() -> None:
    import rendering

    state = _buyer()
    names = ["Ada", "Bo", "Cy", "Di"]
    private = {**GAME.view(state, 0), "names": names}
    public = {**GAME.view(state, None), "names": names}
    with record_texts() as texts:
        [mine] = rendering.render_all("minerva", private)
    words = [t.text for t in texts]
    assert "Cities" in words and "You" in words and all(n in words for n in names[1:])
    assert "where a tile you buy may go" in words
    with record_texts() as texts:
        [theirs] = rendering.render_all("minerva", public)
    words = [t.text for t in texts]
    assert "Cities" in words and "where a tile you buy may go" not in words
    # The same cities, but only the seat's own view frames where its tile may go.
    assert mine.tobytes() != theirs.tobytes()
    # At the end: the final scores above the cities.
    end = {**GAME.view(played(4, 10_000), None), "names": names}
    with record_texts() as texts:
        [image] = rendering.render_all("minerva", end)
    words = [t.text for t in texts]
    assert "Cities" in words and image.height <= 2 * image.width
