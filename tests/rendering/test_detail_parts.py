"""A view's details, one click away from its image: every key fits a button's custom id (the
button survives a restart by it), every label fits a button, and each renders with its own
alt text; a key the view does not offer is a KeyError."""

from __future__ import annotations

import re

import pytest

import rendering
from bot.ui import ids
from rules.minerva import GAME
from tests.rendering.test_minerva_render import played


def test_each_detail_part_fits_a_button_and_renders_with_its_alt_text() -> None:
    state = played(3, 30)
    view = {**GAME.view(state, 0), "names": ["alice", "bob", "carol"]}
    parts = rendering.detail_parts("minerva", view)
    keys = [key for key, _ in parts]
    assert keys and len(set(keys)) == len(keys)
    assert all(0 < len(label) <= 40 for _, label in parts)
    for key in keys:
        found = re.fullmatch(ids.DETAIL, ids.detail(77, 0, key))
        assert found is not None and found["key"] == key
        image, alt = rendering.render_detail("minerva", view, key)
        assert image.width > 0 and alt


@pytest.mark.parametrize("key", ["part0", "part99", "city", "city:9", ""])
def test_an_unknown_detail_key_is_a_key_error(key: str) -> None:
    view = {**GAME.view(played(2, 4), 1), "names": ["alice", "bob"]}
    with pytest.raises(KeyError):
        rendering.render_detail("minerva", view, key)
