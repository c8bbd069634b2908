"""A view's details, one click away from its image: keys, labels and the image of each."""

from __future__ import annotations

import pytest

import rendering
from rules.minerva import GAME
from tests.rendering.test_minerva_render import played


def test_each_detail_part_has_a_label_and_renders_with_its_alt_text() -> None:
    state = played(3, 30)
    view = {**GAME.view(state, 0), "names": ["alice", "bob", "carol"]}
    parts = rendering.detail_parts("minerva", view)
    images = rendering.render_all("minerva", view)
    assert [key for key, _ in parts] == [f"part{n}" for n in range(1, len(images))]
    assert parts and all(0 < len(label) <= 40 for _, label in parts)
    for n, (key, _) in enumerate(parts, start=1):
        image, alt = rendering.render_detail("minerva", view, key)
        assert image.size == images[n].size and alt
        assert alt == str(images[n].info.get("alt") or alt)


@pytest.mark.parametrize("key", ["part0", "part99", "city", ""])
def test_an_unknown_detail_key_is_a_key_error(key: str) -> None:
    view = {**GAME.view(played(2, 4), 1), "names": ["alice", "bob"]}
    with pytest.raises(KeyError):
        rendering.render_detail("minerva", view, key)
