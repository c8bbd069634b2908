"""Every renderer a registry entry names is found, with what ``rendering`` calls on it."""

from __future__ import annotations

import importlib

import pytest

import rendering
from rules import ENTRIES


@pytest.mark.parametrize("game_id", sorted(g for g, e in ENTRIES.items() if e.renderer))
def test_a_named_renderer_is_found(game_id: str) -> None:
    name = ENTRIES[game_id].renderer
    assert name is not None and rendering.has_renderer(game_id)
    module = importlib.import_module(name)
    assert callable(module.render) and callable(module.alt_text)


def test_a_game_without_a_renderer_or_an_unknown_game_has_none() -> None:
    assert not rendering.has_renderer("chess")
