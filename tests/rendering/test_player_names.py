"""Images and alt text name players by name when the view carries "names"."""

from __future__ import annotations

import pytest
from PIL import ImageChops

import rendering
from rules import GAMES

NAMES = ["Alice", "Bartholomew", "Chiara", "Dmitri", "Eve", "Farah"]


@pytest.mark.parametrize("game_id", sorted(g for g in GAMES if rendering.has_renderer(g)))
def test_names_replace_seat_numbers(game_id: str) -> None:
    game = GAMES[game_id]
    players = max(game.min_players, 3)
    view = game.view(game.setup(players, "names"), None)
    named = {**view, "names": NAMES[:players]}
    plain_image = rendering.render(game_id, view)
    named_image = rendering.render(game_id, named)
    assert plain_image.size == named_image.size
    diff = ImageChops.difference(plain_image.convert("RGB"), named_image.convert("RGB"))
    assert diff.getbbox() is not None, "the names changed nothing in the image"
    alt = rendering.alt_text(game_id, named)
    assert any(name in alt for name in NAMES[:players]), alt
