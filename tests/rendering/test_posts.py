"""One legible image per post, and the detail images one click away, for every game.

Seeded games at the fewest and the most players, at the start, half way and the end; the
public view and the first and last seat's views (with names, one of them long), each as a
channel post and as a DM after a move. Every posted image is one image at most twice as tall
as wide; every label drawn into it (each ``ImageDraw.text`` call, measured) reads at 11 px or
more once the image is shown 550 px wide, and no two labels overlap. The detail images the
view offers are held to the same rules."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from PIL import Image

import rendering
from rules import GAMES
from tests.rendering.legibility import label_problems
from tests.rendering.seeded import start_middle_end
from tests.rendering.textboxes import record_texts

NAMES = ("Ada", "Maximiliana Ottoline", "Bo", "Cyrus", "Dorothea", "Eli")
GAME_IDS = sorted(g for g in GAMES if rendering.has_renderer(g))
STAGES = ("start", "middle", "end")
# Palermo's one image holds its whole view (board, players, cards): it offers no detail.
NO_DETAILS = {"palermo"}


def _views(game_id: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    game = GAMES[game_id]
    for players in sorted({game.min_players, game.max_players}):
        for stage, state in zip(STAGES, start_middle_end(game_id, players, "posts"), strict=True):
            for seat in sorted({None, 0, players - 1}, key=lambda s: -1 if s is None else s):
                view = dict(game.view(state, seat))
                view["names"] = list(NAMES[:players])
                yield f"{players} players, {stage}, seat {seat}", view


def _shape(image: Image.Image) -> str | None:
    if image.height > 2 * image.width:
        return f"{image.width}x{image.height} is more than twice as tall as wide"
    return None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_post_is_one_image_at_most_twice_as_tall_as_wide(game_id: str) -> None:
    found: list[str] = []
    for where, view in _views(game_id):
        for update in (False, True):
            posted = rendering.described(game_id, view, update=update)
            assert len(posted) == 1, f"{where}: {len(posted)} images"
            (image, alt), = posted
            assert alt and not alt.startswith("{"), where
            problem = _shape(image)
            if problem:
                found.append(f"{where}{' (DM)' if update else ''}: {problem}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_label_of_a_post_reads_at_550_px_and_overlaps_none(game_id: str) -> None:
    found: dict[str, str] = {}  # problem -> the first view that shows it
    for where, view in _views(game_id):
        for update in (False, True):
            with record_texts(fresh=True) as texts:
                [image] = rendering.render_all(game_id, view, update=update)
            assert texts, f"{where}: no text measured"
            for problem in label_problems(texts, image.width):
                found.setdefault(problem, f"{where}{' (DM)' if update else ''}")
    assert not found, f"{len(found)} problems:\n" + "\n".join(
        f"{where}: {problem}" for problem, where in list(found.items())[:40])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_detail_image_reads_at_550_px(game_id: str) -> None:
    found: dict[str, str] = {}
    offered = 0
    for where, view in _views(game_id):
        parts = rendering.detail_parts(game_id, view)
        keys = [key for key, _ in parts]
        assert len(set(keys)) == len(keys), where
        for key, label in parts:
            assert 0 < len(label) <= 40, f"{where}: label {label!r}"
            with record_texts(fresh=True) as texts:
                image, alt = rendering.render_detail(game_id, view, key)
            offered += 1
            assert alt.strip() and len(alt) <= 1000, f"{where} {key}"
            problems = label_problems(texts, image.width)
            shape = _shape(image)
            for problem in [*problems, *([shape] if shape else [])]:
                found.setdefault(f"{key}: {problem}", where)
        with pytest.raises(KeyError):
            rendering.render_detail(game_id, view, "no such part")
    if game_id in NO_DETAILS:
        assert not offered, f"{game_id} offers {offered} detail images"
    else:
        assert offered, "no view offers a detail image"
    assert not found, f"{len(found)} problems:\n" + "\n".join(
        f"{where}: {problem}" for problem, where in list(found.items())[:40])


# The engines' short forms ("A4 P1 M", "ren 0 pie 2", "cohorts 0/1/0") say nothing to a
# screen reader's listener.
CODES = re.compile(r"\b[A-G]\d P\d\b|\b(ren|pie|val|dis|trad|perf|prie|appa|patr) \d|"
                   r"cohorts \d/\d/\d")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_description_is_in_words(game_id: str) -> None:
    for where, view in _views(game_id):
        [(_, alt)] = rendering.described(game_id, view)
        found = CODES.search(alt)
        assert found is None, f"{where}: {found and found[0]!r} in {alt[:300]!r}"
        assert len(alt) <= 1000
