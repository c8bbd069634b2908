"""Pillow renderers: ``render(game_id, view)`` draws a *view*, never a full state.

A view may carry ``"names"`` (one per seat, added by the front end); images then name players
by name instead of by seat number.

Each game's registry entry (``rules/<game>/entry.py``) names its renderer module, by
convention ``rendering.<package>``, with ``render(view) -> Image`` and ``alt_text(view) -> str``
(and, where one image cannot hold a view legibly, ``render_all(view) -> list[Image]``: the
overview first, then the parts); this module imports it by that name, so adding a game edits no
shared file. ``rendering`` reads the registry of ``rules``, never the other way round.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from PIL import Image

from rendering.common import encode_png, seat_names
from rules import ENTRIES, entry_for

__all__ = ["alt_text", "described", "detail_parts", "encode_png", "render", "render_all",
           "render_described", "render_detail",
           "render_png", "render_pngs"]


def _module(game_id: str) -> ModuleType:
    name = entry_for(game_id).renderer
    if name is None:
        raise LookupError(f"{game_id} has no renderer")
    return importlib.import_module(name)


def render(game_id: str, view: Mapping[str, Any]) -> Image.Image:
    """The image of a view: the public board for ``view(state, None)``, a private one otherwise."""
    with seat_names(view.get("names") or ()):
        image: Image.Image = _module(game_id).render(view)
    return image


def render_all(game_id: str, view: Mapping[str, Any], *, update: bool = False,
               previous: Mapping[str, Any] | None = None) -> list[Image.Image]:
    """Every image to send for a view, most important first. Most views are one image (the one
    ``render`` draws); a private sheet too dense for one legible image comes as several.
    ``update``: the images go out after a move (a DM), where a game that can (``render_update``
    in its module) sends only what changed since ``previous`` (the view this seat was last
    sent, if known) or asks for a decision now."""
    module = _module(game_id)
    with seat_names(view.get("names") or ()):
        if update and hasattr(module, "render_update"):
            images: list[Image.Image] = module.render_update(view, previous)
        elif hasattr(module, "render_all"):
            images = module.render_all(view)
        else:
            images = [module.render(view)]
    return images


def alt_text(game_id: str, view: Mapping[str, Any]) -> str:
    """A description of the image for screen readers, made from the same view."""
    with seat_names(view.get("names") or ()):
        text: str = _module(game_id).alt_text(view)
    return text[:1000]


def described(game_id: str, view: Mapping[str, Any], *, update: bool = False,
              previous: Mapping[str, Any] | None = None) -> list[tuple[Image.Image, str]]:
    """``render_all`` with a description per image: the view's for the first; a detail image
    that describes itself (``image.info["alt"]``, set by its renderer) keeps its own, any other
    gets the view's with its number."""
    images = render_all(game_id, view, update=update, previous=previous)
    first = alt_text(game_id, view)
    return [(image, first if n == 0 else str(image.info.get("alt")
                                               or f"{first} (image {n + 1} of {len(images)})"))
            for n, image in enumerate(images)]


def render_png(game_id: str, view: Mapping[str, Any]) -> bytes:
    """Render and encode in one call: what a worker thread or process runs."""
    return encode_png(render(game_id, view))


def render_pngs(game_id: str, view: Mapping[str, Any]) -> list[bytes]:
    """``render_all`` encoded: what a front end sends as attachments, in order."""
    return [encode_png(image) for image in render_all(game_id, view)]


def render_described(game_id: str, view: Mapping[str, Any], *, update: bool = False,
                     previous: Mapping[str, Any] | None = None) -> list[tuple[bytes, str]]:
    """``described`` encoded: PNG bytes with their alt text, in sending order."""
    return [(encode_png(image), alt)
            for image, alt in described(game_id, view, update=update, previous=previous)]


def has_renderer(game_id: str) -> bool:
    return game_id in ENTRIES and ENTRIES[game_id].renderer is not None


# Interim detail parts: the images after the first of ``described``, each one a detail the
# front end offers behind a button. Replaced by the games' own detail images.
DETAIL_LABEL_MAX = 40


def _detail_images(game_id: str, view: Mapping[str, Any]) -> list[Image.Image]:
    return render_all(game_id, view)[1:]


def _detail_label(image: Image.Image, n: int) -> str:
    alt = str(image.info.get("alt") or "").strip()
    if not alt:
        return f"Detail {n}"
    head = re.split(r"[:.(;]", alt)[0].strip() or f"Detail {n}"
    return head if len(head) <= DETAIL_LABEL_MAX else head[:DETAIL_LABEL_MAX - 1] + "…"


def detail_parts(game_id: str, view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The details of a view one click away from its image: (key, button label) each."""
    return [(f"part{n}", _detail_label(image, n))
            for n, image in enumerate(_detail_images(game_id, view), start=1)]


def render_detail(game_id: str, view: Mapping[str, Any], key: str) -> tuple[Image.Image, str]:
    """The image of one detail of a view and its alt text; KeyError for a key it lacks."""
    images = _detail_images(game_id, view)
    number = int(key.removeprefix("part")) if key.startswith("part") and key[4:].isdigit() else 0
    if not 1 <= number <= len(images):
        raise KeyError(key)
    image = images[number - 1]
    with seat_names(view.get("names") or ()):
        alt = str(image.info.get("alt") or f"{alt_text(game_id, view)} (detail {number})")
    return image, alt[:1000]
