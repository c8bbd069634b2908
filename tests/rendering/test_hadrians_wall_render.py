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
from tests.rendering.legibility import assert_legible
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


def test_score_table_headings_never_overlap() -> None:
    from rendering.common import font
    from rendering.hadrians_wall import FINAL_COLUMNS
    from rendering.scoretable import fit

    for head, _ in FINAL_COLUMNS:
        assert font(16, bold=True).getlength(head) < 78 - 4
    assert font(16, bold=True).getlength(fit("W" * 30, font(16, bold=True), 120)) <= 120
    state = _play(2, "end-2", (7, "none"))
    view = {**GAME.view(state, None), "names": ["W" * 30, "M" * 30]}
    rendering.render_all("hadrians-wall", view)


def test_private_images_overview_then_each_sheet() -> None:
    from rendering.hadrians_wall import final_table
    from rendering.hadrians_wall.overview import render_overview

    state = _play(3, "golden", (5, "actions"))
    seat = sorted(GAME.active_seats(state))[0]
    view = GAME.view(state, seat)
    assert_legible(lambda: render_overview(view))
    end = _play(3, "end-3", (7, "none"))
    assert_legible(lambda: final_table(GAME.view(end, None)))
    images = rendering.render_all("hadrians-wall", view)
    assert [im.width for im in images] == [760, 896, 896, 900, 884]
    assert view["private"]["next"] and "pass" in view["private"]["next"]
    assert GAME.view(state, None).get("private") is None
    names = ("overview", "left_1", "left_2", "right_1", "right_2")
    for name, image in zip(names, images, strict=True):
        assert len(encode_png(image)) < 1_000_000
        assert_matches_golden(image, f"hadrians_wall_private_{name}")
    # The full two-sheet image stays what ``render`` returns.
    assert rendering.render("hadrians-wall", view).size == (1800, 900)


def test_path_choice_shows_each_card_with_the_other_cards_prospect() -> None:
    state = _play(3, "golden", (5, "choose"))
    view = GAME.view(state, 0)
    drawn = view["private"]["drawn"]
    assert len(drawn) == 2
    overview = rendering.render_all("hadrians-wall", view)[0]
    assert_matches_golden(overview, "hadrians_wall_private_choose")


def test_final_image_has_the_score_breakdown() -> None:
    state = _play(3, "end-3", (7, "none"))
    images = rendering.render_all("hadrians-wall", GAME.view(state, None))
    assert len(images) == 2 and images[0].width == 760
    assert_matches_golden(images[0], "hadrians_wall_final_scores")


def test_sheet_parts_read_at_preview_size() -> None:
    """Each part of the sheets is drawn at twice the layout size and at most 900 px wide, so
    the smallest text (9 px in layout units) reads at 11 px at 550 px. The printed layer is
    cached, so it is drawn afresh here for its fonts to be counted."""
    from rendering.hadrians_wall import sheet_parts
    from rendering.hadrians_wall.printed import printed
    from rendering.hadrians_wall.public import render_public

    state = _play(3, "golden", (5, "actions"))
    view = GAME.view(state, sorted(GAME.active_seats(state))[0])
    printed.cache_clear()
    for index in range(4):
        assert_legible(lambda i=index: sheet_parts(view)[i])  # type: ignore[misc]
        printed.cache_clear()
    # The public view's first image reads at preview size; the full summary follows it.
    public = GAME.view(state, None)
    assert_legible(lambda: render_public(public))


def test_the_sheets_outline_every_box_a_legal_move_fills() -> None:
    from PIL import ImageDraw

    from rendering.hadrians_wall.guides import box_key, outline_moves
    from rendering.hadrians_wall.layout import boxes
    from rendering.hadrians_wall.printed import printed

    state = _play(3, "golden", (5, "actions"))
    seat = sorted(GAME.active_seats(state))[0]
    view = GAME.view(state, seat)
    moves = view["private"]["boxes"]
    kinds = {m["type"] for m in moves}
    assert {"mining", "build", "citizen"} <= kinds
    sheet = view["sheets"][seat]
    keys = {box_key(m, sheet) for m in moves}
    assert None not in keys and keys <= set(boxes())
    canvas = printed().copy()
    assert outline_moves(ImageDraw.Draw(canvas), view, sheet) == len(keys)
    # The public view outlines nothing: it has no legal moves of a seat.
    assert outline_moves(ImageDraw.Draw(canvas), GAME.view(state, None), sheet) == 0


def test_rewards_still_to_place_are_written_on_the_sheet_parts() -> None:
    from rendering.hadrians_wall.guides import rewards_to_place

    assert rewards_to_place({"road_pending": 0}) == ""
    assert rewards_to_place({"road_pending": 2}).startswith("To place: 2 road incomes")


def test_public_overview_comes_first_and_reads_at_preview_size() -> None:
    state = _play(4, "attack", (3, "actions"))
    images = rendering.render_all("hadrians-wall", GAME.view(state, None))
    assert [im.width for im in images] == [760, 760]
    assert_matches_golden(images[0], "hadrians_wall_public_overview")


def test_private_images_at_game_end() -> None:
    state = _play(3, "end-3", (7, "none"))
    assert state.phase == "over"
    view = GAME.view(state, 1)
    images = rendering.render_all("hadrians-wall", view)
    assert len(images) == 5 and not view["private"]["boxes"]
    for name, image in zip(("overview", "left_1", "right_2"), (images[0], images[1], images[4]),
                           strict=True):
        assert len(encode_png(image)) < 1_000_000
        assert_matches_golden(image, f"hadrians_wall_private_end_{name}")


def test_a_dm_update_sends_the_overview_and_at_most_two_sheet_parts() -> None:
    from rendering.hadrians_wall import PARTS, parts_to_send
    from rendering.hadrians_wall.layout import boxes

    state = _play(3, "golden", (5, "actions"))
    seat = sorted(GAME.active_seats(state))[0]
    view = GAME.view(state, seat)
    full = rendering.described("hadrians-wall", view)
    assert len(full) == 1 + len(PARTS)  # /hand: every part
    update = rendering.described("hadrians-wall", view, update=True, previous=view)
    assert 1 <= len(update) <= 3
    # Nothing changed since the view last sent: only parts with a box to fill now go.
    for image, alt in update[1:]:
        assert image.width > 800 and "you can fill now" in alt and "no box" not in alt
        assert alt != update[0][1]
    # After a move, the part that changed goes even with nothing in it to fill.
    legal = GAME.legal_actions(state, seat)
    move = next(a for a in legal if a["type"] == "mining")
    after = GAME.apply(state, seat, move).state
    later = GAME.view(after, seat)
    chosen = parts_to_send(later, view)
    x0, _, x1, _ = boxes()[("mining", move["box"])]
    filled = next(i for i, (_, a, b) in enumerate(PARTS) if a <= (x0 + x1) / 2 < b)
    assert filled in chosen and len(chosen) <= 2
    # Unknown previous view (a restart): parts with boxes to fill only.
    assert all("you can fill now" in alt for _, alt in
               rendering.described("hadrians-wall", later, update=True)[1:])


def test_the_year_summary_reads_at_preview_size_with_six_players() -> None:
    from rendering.hadrians_wall.summary import render_summary
    from tests.rendering.textboxes import record_texts

    state = _play(6, "six", (7, "none"))
    names = ["Maximiliana Ottoline", "Bartholomew Q", "Cy", "Dorothea", "Eli", "Fenella Long"]
    view = {**GAME.view(state, None), "names": names}
    with record_texts() as texts:
        image = assert_legible(lambda: render_summary(view))
    assert image.width <= 800
    final = [t for t in texts if t.text.startswith(("Final", "1.", "2.", "6."))]
    assert final and all(t.inside for t in texts)


def test_sheet_words_are_written_out() -> None:
    import re

    from rendering.hadrians_wall import sheet_parts
    from rendering.hadrians_wall.printed import printed
    from tests.rendering.textboxes import record_texts

    state = _play(3, "golden", (5, "actions"))
    view = GAME.view(state, sorted(GAME.active_seats(state))[0])
    printed.cache_clear()
    with record_texts() as texts:
        sheet_parts(view)
    short = re.compile(r"\b\d*(Sv|Sd|Bd|Rs|Cv|Va|Pa|so|bu|se|ci|re)\b|\binf \d")
    assert texts and not [t.text for t in texts if short.search(t.text)]


def test_the_public_overview_keeps_the_fate_cards_gains_inside() -> None:
    from rendering.hadrians_wall.public import render_public
    from tests.rendering.textboxes import record_texts

    state = _play(4, "attack", (3, "actions"))
    view = GAME.view(state, None)
    view["fate_card"] = {**view["fate_card"], "gains": {g: 2 for g in view["fate_card"]["gains"]}}
    with record_texts() as texts:
        render_public(view)
    gains = [t for t in texts if "gains" in t.text]
    assert gains and "+2 resources" in gains[0].text
    assert all(t.inside for t in texts)


def test_the_public_images_show_the_fate_cards_drawn_this_year() -> None:
    """A card drawn for a Market purchase or a battle is public (spec 2.6, 4.5): the channel's
    images show it (in the overview's own text size) and differ from the same view without it."""
    state = _play(2, "attack", (2, "actions"))
    view = GAME.view(state, None)
    card = view["fate_card"]
    drawn = {**view, "fate_drawn": [card, card, card]}
    with_draws = rendering.render_all("hadrians-wall", drawn)
    without = rendering.render_all("hadrians-wall", {**view, "fate_drawn": []})
    assert [im.width for im in with_draws] == [im.width for im in without]
    assert with_draws[0].height > without[0].height  # the overview's line of draws
    assert with_draws[1].tobytes() != without[1].tobytes()  # the summary's Fate deck line
    assert f"Drawn from the Fate deck this Year: {card['id']}" in GAME.describe(drawn)
