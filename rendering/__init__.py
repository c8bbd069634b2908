"""Pillow renderers: ``render(game_id, view)`` draws a *view*, never a full state.

A view may carry ``"names"`` (one per seat, added by the front end); images then name players
by name instead of by seat number.

Every post (a channel message, a DM) carries one image, drawn to read at Discord's preview
width (550 px): ``render_all`` and ``described`` return exactly one. What does not fit it is a
detail image one click away: ``detail_parts`` lists the ones a view offers (key, button
label) and ``render_detail`` draws one, from the same view (so it never shows more than it).

Each game's registry entry (``rules/<game>/entry.py``) names its renderer module, by
convention ``rendering.<package>``, with ``render(view) -> Image`` (the post image) and
``alt_text(view) -> str``, and optionally ``render_update(view, previous) -> Image`` (the
image of a DM sent after a move), ``detail_parts(view)`` and ``render_detail(view, key) ->
(Image, alt)``; this module imports it by that name, so adding a game edits no shared file.
``rendering`` reads the registry of ``rules``, never the other way round.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from PIL import Image

from rendering.common import encode_png, seat_names
from rules import ENTRIES, entry_for

__all__ = ["alt_text", "described", "detail_parts", "encode_png", "render", "render_all",
           "render_described", "render_detail", "render_detail_png", "render_png",
           "render_pngs"]

ALT_LIMIT = 1000  # Discord's limit on an attachment's description
LABEL_LIMIT = 40  # a detail button's label (Discord allows 80)


def _module(game_id: str) -> ModuleType:
    name = entry_for(game_id).renderer
    if name is None:
        raise LookupError(f"{game_id} has no renderer")
    return importlib.import_module(name)


def render(game_id: str, view: Mapping[str, Any]) -> Image.Image:
    """The post image of a view: the public board for ``view(state, None)``, a private one
    otherwise."""
    with seat_names(view.get("names") or ()):
        image: Image.Image = _module(game_id).render(view)
    return image


def render_all(game_id: str, view: Mapping[str, Any], *, update: bool = False,
               previous: Mapping[str, Any] | None = None) -> list[Image.Image]:
    """The images to post for a view: always exactly one (a list, so that a front end sends
    what it is given). ``update``: the image goes out after a move (a DM), where a game that
    can (``render_update`` in its module) shows what changed since ``previous`` (the view
    this seat was last sent, if known) or what to decide now."""
    module = _module(game_id)
    with seat_names(view.get("names") or ()):
        if update and hasattr(module, "render_update"):
            image: Image.Image = module.render_update(view, previous)
        else:
            image = module.render(view)
    return [image]


def detail_parts(game_id: str, view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The detail images this view offers, as (key, button label), in the order to show the
    buttons; ``[]`` where none would add anything."""
    module = _module(game_id)
    if not hasattr(module, "detail_parts"):
        return []
    with seat_names(view.get("names") or ()):
        parts: list[tuple[str, str]] = module.detail_parts(view)
    return [(str(key), str(label)[:LABEL_LIMIT]) for key, label in parts]


def render_detail(game_id: str, view: Mapping[str, Any], key: str
                  ) -> tuple[Image.Image, str]:
    """One detail image of a view (a key from ``detail_parts``) and its description. Raises
    ``KeyError`` for a key this view does not offer."""
    module = _module(game_id)
    if not hasattr(module, "render_detail") or key not in {
            k for k, _ in detail_parts(game_id, view)}:
        raise KeyError(key)
    with seat_names(view.get("names") or ()):
        image, alt = module.render_detail(view, key)
    return image, str(alt)[:ALT_LIMIT]


def render_detail_png(game_id: str, view: Mapping[str, Any], key: str) -> tuple[bytes, str]:
    """``render_detail`` encoded: what a worker thread or process runs."""
    image, alt = render_detail(game_id, view, key)
    return encode_png(image), alt


def alt_text(game_id: str, view: Mapping[str, Any]) -> str:
    """A description of the image for screen readers, made from the same view."""
    with seat_names(view.get("names") or ()):
        text: str = _module(game_id).alt_text(view)
    return text[:ALT_LIMIT]


def described(game_id: str, view: Mapping[str, Any], *, update: bool = False,
              previous: Mapping[str, Any] | None = None) -> list[tuple[Image.Image, str]]:
    """``render_all`` with the view's description: one (image, alt text)."""
    images = render_all(game_id, view, update=update, previous=previous)
    return [(image, alt_text(game_id, view)) for image in images]


def render_png(game_id: str, view: Mapping[str, Any]) -> bytes:
    """Render and encode in one call: what a worker thread or process runs."""
    return encode_png(render(game_id, view))


def render_pngs(game_id: str, view: Mapping[str, Any]) -> list[bytes]:
    """``render_all`` encoded: the post's one attachment, in a list."""
    return [encode_png(image) for image in render_all(game_id, view)]


def render_described(game_id: str, view: Mapping[str, Any], *, update: bool = False,
                     previous: Mapping[str, Any] | None = None) -> list[tuple[bytes, str]]:
    """``described`` encoded: PNG bytes with their alt text, in sending order."""
    return [(encode_png(image), alt)
            for image, alt in described(game_id, view, update=update, previous=previous)]


def has_renderer(game_id: str) -> bool:
    return game_id in ENTRIES and ENTRIES[game_id].renderer is not None
