"""Every view of every game, as players see it: seeded games at the fewest and the most players,
at the start, half way and the end, the public view and two seats' views (with names, one of
them long), each sent as a post and as a DM update, with every detail image the view offers.

Each image is also looked at at Discord's preview width (550 px): a post's image is at most
800 px wide, no text leaves the image or the box it was placed in, text has a contrast of 4.5:1
or more with what lies under it. (``test_posts`` checks that every label reads at 11 px or more
in the preview and that none overlaps another.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from PIL import Image

import rendering
from rules import GAMES
from tests.rendering.legibility import PREVIEW_WIDTH
from tests.rendering.seeded import start_middle_end
from tests.rendering.textboxes import DrawnText, record_texts

FIRST_WIDTH = 800
CONTRAST = 4.5
NAMES = ("Ada", "Maximiliana Ottoline", "Bo", "Cyrus", "Dorothea", "Eli")
GAME_IDS = sorted(g for g in GAMES if rendering.has_renderer(g))


def _counts(game_id: str) -> list[int]:
    game = GAMES[game_id]
    return sorted({game.min_players, game.max_players})


def _problems(images: list[Image.Image], texts: list[DrawnText]) -> list[str]:
    found: list[str] = []
    if images[0].width > FIRST_WIDTH:
        found.append(f"posted image {images[0].width} px wide")
    for image in images:
        small = image.resize((PREVIEW_WIDTH, max(1, image.height * PREVIEW_WIDTH // image.width)))
        assert small.width == PREVIEW_WIDTH
    for text in texts:
        if not text.text.strip():
            continue
        if not text.inside:
            found.append(f"text {text.text!r} at {text.box} outside {text.bounds}")
        if text.contrast < CONTRAST:
            found.append(f"text {text.text!r}: contrast {text.contrast:.1f} "
                         f"({text.fill} on {text.under})")
    return found


def _check(game_id: str, view: Mapping[str, Any], update: bool) -> list[str]:
    """The post's image, then (for a post, not a DM update) each detail image."""
    with record_texts() as texts:
        images = [image for image, _ in rendering.described(game_id, view, update=update)]
        if not update:
            images += [rendering.render_detail(game_id, view, key)[0]
                       for key, _ in rendering.detail_parts(game_id, view)]
    return _problems(images, texts)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_view_reads_at_preview_size(game_id: str) -> None:
    game = GAMES[game_id]
    found: dict[str, str] = {}  # problem -> the first view that shows it
    for players in _counts(game_id):
        for n, state in enumerate(start_middle_end(game_id, players, "every")):
            for seat in (None, 0, players - 1) if players > 1 else (None, 0):
                view = dict(game.view(state, seat))
                view["names"] = list(NAMES[:players])
                where = f"{players} players, state {n}, seat {seat}"
                for problem in _check(game_id, view, update=seat is not None):
                    found.setdefault(problem, where)
                if seat == 0:
                    for problem in _check(game_id, view, update=False):
                        found.setdefault(problem, f"{where} (post and details)")
    assert not found, f"{len(found)} problems:\n" + "\n".join(
        f"{where}: {problem}" for problem, where in list(found.items())[:60])
