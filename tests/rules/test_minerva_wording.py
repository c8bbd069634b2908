"""Minerva words: counts agree with their nouns."""

from __future__ import annotations

from rules.minerva import GAME


def test_a_city_of_one_tile_is_singular() -> None:
    view = GAME.view(GAME.setup(2, "words"), None)
    text = GAME.describe(view)
    assert "1 tiles" not in text
