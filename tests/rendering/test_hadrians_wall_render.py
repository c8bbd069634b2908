"""Hadrian's Wall images: a player's sheets after several Years and the public Year summary
before and after an attack (golden images), plus size checks."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from PIL import Image

import rendering
from rendering.common import encode_png
from rules.core import Rng
from rules.hadrians_wall import GAME
from rules.hadrians_wall.state import State
from tests.rendering.golden import assert_matches_golden
from tests.rendering.legibility import PREVIEW_WIDTH, SMALLEST, assert_legible, label_problems
from tests.rendering.textboxes import DrawnText, record_texts
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


def _post_and_details(view: dict[str, Any]) -> list[Image.Image]:
    """The posted image, then each detail image the view offers, in order."""
    return [*rendering.render_all("hadrians-wall", view),
            *(rendering.render_detail("hadrians-wall", view, key)[0]
              for key, _ in rendering.detail_parts("hadrians-wall", view))]


def test_player_sheets_after_several_years() -> None:
    from rendering.hadrians_wall.sheets import render_sheets

    state = chosen(_play(3, "golden", (5, "choose")))
    view = GAME.view(state, 1)
    image = render_sheets(view)
    assert image.size == (1800, 900)
    assert len(encode_png(image)) < 1_000_000
    assert_matches_golden(image, "hadrians_wall_sheets_year5")


def test_public_summary_before_the_first_attack() -> None:
    state = chosen(GAME.setup(2, "summary", pinned(2)))
    view = GAME.view(state, None)
    assert view["attack"] is None
    image, _ = rendering.render_detail("hadrians-wall", view, "summary")
    assert len(encode_png(image)) < 1_000_000
    assert_matches_golden(image, "hadrians_wall_summary_before_attack")


def test_public_summary_after_an_attack() -> None:
    state = _play(4, "attack", (3, "actions"))
    view = GAME.view(state, None)
    assert view["attack"]["year"] == 2 and all(view["attack"]["results"])
    image, _ = rendering.render_detail("hadrians-wall", view, "summary")
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
    image, _ = rendering.render_detail("hadrians-wall", view, "summary")
    assert_matches_golden(image, "hadrians_wall_summary_during_attack")


def test_score_table_headings_never_overlap() -> None:
    from rendering.common import font
    from rendering.scoretable import fit

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
    images = _post_and_details(view)
    assert [im.width for im in images] == [760, 928, 980, 924, 900]
    assert all(im.height * 550 / im.width <= 1100 for im in images)
    assert view["private"]["next"] and "pass" in view["private"]["next"]
    assert GAME.view(state, None).get("private") is None
    names = ("overview", "left_1", "left_2", "right_1", "right_2")
    for name, image in zip(names, images, strict=True):
        assert len(encode_png(image)) < 1_000_000
        assert_matches_golden(image, f"hadrians_wall_private_{name}")


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
    assert len(images) == 1 and images[0].width == 760
    assert_matches_golden(images[0], "hadrians_wall_final_scores")


def test_sheet_parts_read_at_preview_size() -> None:
    """Each part of the sheets is drawn at twice the layout size; the smallest printed text is
    10 layout units (9 in the right sheet's narrow building boxes, on its second part), so
    each part may be 500 layout units wide (that one 450). Each text is measured in
    ``test_every_label_reads_at_preview_width_and_none_overlap``."""
    from rendering.hadrians_wall import PARTS
    from rendering.hadrians_wall.public import render_public

    widths = [x1 - x0 for _, x0, x1 in PARTS]
    assert all(10 * PREVIEW_WIDTH / w >= SMALLEST for w in widths), widths
    assert 9 * PREVIEW_WIDTH / widths[3] >= SMALLEST, widths
    # The public view's first image reads at preview size; the full summary follows it.
    state = _play(3, "golden", (5, "actions"))
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
    public = GAME.view(state, None)
    images = rendering.render_all("hadrians-wall", public)
    assert [im.width for im in images] == [760]
    assert rendering.detail_parts("hadrians-wall", public) == [("summary", "Year summary")]
    assert rendering.render_detail("hadrians-wall", public, "summary")[0].width == 760
    assert_matches_golden(images[0], "hadrians_wall_public_overview")


def test_private_images_at_game_end() -> None:
    state = _play(3, "end-3", (7, "none"))
    assert state.phase == "over"
    view = GAME.view(state, 1)
    images = _post_and_details(view)
    assert len(images) == 5 and not view["private"]["boxes"]
    for name, image in zip(("overview", "left_1", "right_2"), (images[0], images[1], images[4]),
                           strict=True):
        assert len(encode_png(image)) < 1_000_000
        assert_matches_golden(image, f"hadrians_wall_private_end_{name}")


def test_a_dm_is_the_overview_and_the_sheets_are_four_detail_parts() -> None:
    from rendering.hadrians_wall import PARTS

    state = _play(3, "golden", (5, "actions"))
    seat = sorted(GAME.active_seats(state))[0]
    view = GAME.view(state, seat)
    [(overview, alt)] = rendering.described("hadrians-wall", view, update=True, previous=view)
    assert overview.width == 760 and alt == rendering.alt_text("hadrians-wall", view)
    parts = rendering.detail_parts("hadrians-wall", view)
    assert [label for _, label in parts] == [
        "Left sheet, part 1 of 2", "Left sheet, part 2 of 2",
        "Right sheet, part 1 of 2", "Right sheet, part 2 of 2"]
    assert len(parts) == len(PARTS)
    alts = [rendering.render_detail("hadrians-wall", view, key)[1] for key, _ in parts]
    assert all(a.startswith("Ada's") or "sheet" in a for a in alts)
    assert any("you can fill now" in a and "no box" not in a for a in alts)
    with pytest.raises(KeyError):
        rendering.render_detail("hadrians-wall", view, "summary")  # public only
    with pytest.raises(KeyError):
        rendering.render_detail("hadrians-wall", GAME.view(state, None), "sheet:0")


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
    with_draws = _post_and_details(drawn)
    without = _post_and_details({**view, "fate_drawn": []})
    assert [im.width for im in with_draws] == [im.width for im in without]
    assert with_draws[0].height > without[0].height  # the overview's line of draws
    assert with_draws[1].tobytes() != without[1].tobytes()  # the summary's Fate deck line
    assert f"Drawn from the Fate deck this Year: {card['id']}" in GAME.describe(drawn)


# Hostile names: each 32 characters, wide letters, markup-like, spaces where a wrap may fall.
HOSTILE = ("W" * 32, "<@everyone> **bold** " + "M" * 11, "x" * 32,
           "Bartholomew Quentin Fitzwilliams", "Maximiliana Ottoline Pemberton-Q",
           "Augusta Ada King-Noel of Lovelac")


def _overlaps(texts: list[DrawnText]) -> list[str]:
    found = []
    for a, b in itertools.combinations(texts, 2):
        # A mark drawn twice (a tick with its shadow) is one label; a later label on a ground
        # of its own (a filled box, a banner) covers the printed one under it.
        named = any(t.text.startswith(name[:6]) for t in (a, b) for name in HOSTILE)
        if a.text == b.text or (a.under != b.under and not named):
            continue
        # A pixel of anti-aliasing on each side is no overlap.
        if (min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > 2
                and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > 2):
            found.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}")
    return found


def _image_problems(name: str, image: Image.Image, texts: list[DrawnText]) -> list[str]:
    """Size at preview width, inside the image, overlaps, for the texts drawn on ``image``."""
    found = []
    if image.height * PREVIEW_WIDTH / image.width > 1100:
        found.append(f"{name} is {image.height * PREVIEW_WIDTH / image.width:.0f} px tall")
    for t in texts:
        reads = t.size * PREVIEW_WIDTH / image.width
        # The seat number in a marker is fine print: the marker's shape and colour say it.
        if reads < SMALLEST and not (len(t.text) == 1 and t.text.isdigit() and t.size < 16):
            found.append(f"{name}: {t.text!r} reads at {reads:.1f} px")
        if t.box[0] < -1 or t.box[2] > image.width + 1 or t.box[1] < -1:
            found.append(f"{name}: {t.text!r} at {t.box} leaves the image")
    return found + [f"{name}: {o}" for o in _overlaps(texts)]


def _sheet_problems(images: list[Image.Image], texts: list[DrawnText]) -> list[str]:
    """The sheets are drawn whole, twice the layout size, then cut in parts (``PARTS``): each
    text printed on them must lie wholly inside a part and read at that part's width."""
    from rendering.hadrians_wall import PART_SCALE, PARTS

    found = []
    k = PART_SCALE
    for t in texts:
        homes = [i for i, (_, x0, x1) in enumerate(PARTS)
                 if x0 * k - 1 <= t.box[0] and t.box[2] <= x1 * k + 1]
        if not homes:
            found.append(f"sheet text {t.text!r} at {t.box} is cut between two parts")
            continue
        width = max(images[i].width for i in homes)
        if t.size * PREVIEW_WIDTH / width < SMALLEST:
            found.append(f"sheet text {t.text!r} reads at {t.size * PREVIEW_WIDTH / width:.1f} px")
    return found + _overlaps(texts)


def _label_views(players: int) -> list[dict[str, Any]]:
    middle = _play(players, f"labels-{players}", (3, "actions"))
    end = _play(players, f"labels-{players}", (7, "none"))
    names = list(HOSTILE[:players])
    return [{**GAME.view(state, seat), "names": names}
            for state in (middle, end) for seat in (None, 0)]


@pytest.mark.parametrize("players", [1, 3, 6])
def test_every_label_reads_at_preview_width_and_none_overlap(players: int) -> None:
    """Overview, sheet parts, Year summary and final scores: every text at least 11 px when the
    image is shown 550 px wide, inside its image, touching no other, and each image at most
    1,100 px tall there; no text of a sheet is cut where the sheet is cut in parts."""
    from rendering.common import seat_names
    from rendering.hadrians_wall import final_table, sheet_parts
    from rendering.hadrians_wall.layout import SHEET_TOP
    from rendering.hadrians_wall.overview import render_overview
    from rendering.hadrians_wall.printed import printed
    from rendering.hadrians_wall.public import render_public
    from rendering.hadrians_wall.summary import render_summary

    found: dict[str, str] = {}
    for n, view in enumerate(_label_views(players)):
        rendering.render_all("hadrians-wall", view)  # the icon keys are measured once, here
        printed.cache_clear()  # the printed sheet is drawn (and measured) again
        problems: list[str] = []
        with seat_names(view["names"]):
            if view.get("seat") is None:
                first = final_table if view.get("outcome") else render_public
                for name, draw in (("overview", first), ("summary", render_summary)):
                    with record_texts() as texts:
                        image = draw(view)
                    problems += _image_problems(name, image, [t for t in texts if t.text.strip()])
            else:
                # The overview pastes cut-outs of the sheets (drawn on a picture of their
                # own): texts are measured on the picture they were drawn on.
                with record_texts() as texts:
                    image = render_overview(view)
                problems += [f"overview: {p}" for p in label_problems(texts, image.width)]
                with record_texts() as texts:
                    parts = sheet_parts(view)
                drawn = [t for t in texts if t.text.strip()]
                for i, part in enumerate(parts):
                    own = [t for t in drawn if t.bounds[2] == part.width]
                    problems += _image_problems(f"part {i + 1}", part, own)
                # The sheets' own header is above the parts' cut.
                sheet = [t for t in drawn if t.bounds[2] > 2000 and t.box[1] > SHEET_TOP * 2]
                problems += _sheet_problems(parts, sheet)
        for problem in problems:
            found.setdefault(problem, f"{players} players, view {n}")
    assert not found, "\n".join(f"{where}: {problem}" for problem, where in found.items())


def test_each_sheet_part_ends_between_boxes() -> None:
    """The cut between a sheet's two parts steps round every box: each box lies whole in one
    part, and what lies past the cut is painted out there."""
    from rendering.hadrians_wall import PARTS
    from rendering.hadrians_wall.layout import boxes
    from rendering.hadrians_wall.parts import bands, part_of

    for key, rect in boxes().items():
        i = part_of(rect)
        _, x0, x1 = PARTS[i]
        assert x0 <= rect[0] and rect[2] <= x1, (key, rect, PARTS[i])
        cy = (rect[1] + rect[3]) / 2
        cut = next(x for y0, y1, x in bands(i // 2) if y0 <= cy < y1)
        assert not rect[0] < cut < rect[2], (key, rect, cut)


def test_the_overview_cuts_out_the_boxes_the_seat_can_fill_now() -> None:
    from rendering.hadrians_wall.guides import fillable_boxes
    from rendering.hadrians_wall.strip import AREAS, cuts

    state = _play(3, "golden", (5, "actions"))
    seat = sorted(GAME.active_seats(state))[0]
    view = GAME.view(state, seat)
    found = cuts(view, 724)
    assert found and all(name in AREAS.values() for name, _ in found)
    # Every box a legal move fills lies whole in one cut-out.
    for r in fillable_boxes(view, view["sheets"][seat]):
        assert any(c[0] <= r[0] and r[2] <= c[2] and c[1] <= r[1] and r[3] <= c[3]
                   for _, c in found), r
    with record_texts() as texts:
        image = rendering.render("hadrians-wall", view)
    words = [t.text for t in texts]
    assert "Boxes you can fill now, outlined in orange" in words and found[0][0] in words
    assert image.height <= 2 * image.width
    # At the end nothing can be filled: no cut-outs.
    end = GAME.view(_play(3, "end-3", (7, "none")), seat)
    with record_texts() as texts:
        rendering.render("hadrians-wall", end)
    assert not cuts(end, 724)
    assert "Boxes you can fill now, outlined in orange" not in [t.text for t in texts]
