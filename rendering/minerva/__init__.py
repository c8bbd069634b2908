"""Minerva pictures: ``render_all(view)`` sends an overview legible at preview size (at the
end: the final score table), then cities (a seat's own city in its private view, every city two
to an image in the public one) and the market as a detail image; ``render(view)`` draws the
whole picture in one image; ``render_city(view, seat)`` draws one city (with the pending
activation's lines when that seat is deciding); ``alt_text(view)`` describes the view in
words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from rendering.common import PAPER, name_seats
from rendering.minerva.board import final_table, render_board
from rendering.minerva.city import AXIS, city_image
from rendering.minerva.overview import render_overview
from rendering.minerva.style import seat_name
from rules.minerva.views import describe

__all__ = ["alt_text", "render", "render_all", "render_city", "seat_city"]

CITY_WIDTH = 548  # the width a city aims at: its cells read at their size in the preview
GAP = 10


def render(view: Mapping[str, Any]) -> Image.Image:
    return render_board(view)


def render_all(view: Mapping[str, Any]) -> list[Image.Image]:
    first = final_table(view) if view.get("outcome") else render_overview(view)
    seat = view.get("seat")
    if seat is not None:
        cities = [seat_city(view, int(seat))]
    else:
        every = [seat_city(view, int(s["seat"])) for s in view["seats"]]
        cities = [_stacked(every[i:i + 2]) for i in range(0, len(every), 2)]
        for image, pair in zip(cities, (every[i:i + 2] for i in range(0, len(every), 2)),
                               strict=True):
            image.info["alt"] = " ".join(str(city.info["alt"]) for city in pair)
    images = [first, *cities]
    if not view.get("outcome"):
        market = render_board(view, with_cities=False)
        market.info["alt"] = market_alt_text(view)
        images.append(market)
    return images


def _cell_size(player: Mapping[str, Any]) -> int:
    xs = [int(c["x"]) for c in player["city"]]
    cols = max(xs) - min(xs) + 3  # the free cells either side
    return max(60, min(80, (CITY_WIDTH - AXIS - 8) // cols))


def seat_city(view: Mapping[str, Any], seat: int) -> Image.Image:
    """One seat's city at a size that reads in the preview, titled with whose city it is; in
    the seat's own view, with where a bought tile may go and what a residence would
    activate."""
    player = view["seats"][seat]
    own = view.get("seat") == seat
    pending = view.get("pending") or {}
    highlight = pending if pending.get("seat") == seat and "at" in pending else None
    private = (view.get("private") or {}) if own else {}
    n = int(player["residences"])
    left = f"{n} residence{'' if n == 1 else 's'} left"
    title = f"Your city · {left}" if own else f"{seat_name(seat)}'s city"
    image = city_image(player, _cell_size(player), highlight,
                       build_cells=private.get("build_cells", ()), title=title,
                       show_reach=own and player["residences"] > 0 and not view.get("outcome"))
    tiles = "; ".join(f"{c['name']} at {c['x']},{c['y']}" for c in player["city"])
    where = private.get("build_cells") or []
    image.info["alt"] = (f"{title}: {tiles}." + (
        " A tile you buy may go at " + ", ".join(f"{x},{y}" for x, y in where) + "."
        if where else ""))
    return image


def _stacked(images: Sequence[Image.Image]) -> Image.Image:
    width = max(image.width for image in images)
    height = sum(image.height for image in images) + GAP * (len(images) - 1)
    out = Image.new("RGB", (width, height), PAPER)
    y = 0
    for image in images:
        out.paste(image, (0, y))
        y += image.height + GAP
    return out


def render_city(view: Mapping[str, Any], seat: int, size: int = 76) -> Image.Image:
    player = view["seats"][seat]
    pending = view.get("pending") or {}
    highlight = pending if pending.get("seat") == seat and "at" in pending else None
    return city_image(player, size, highlight)


def market_alt_text(view: Mapping[str, Any]) -> str:
    offer = view["offer"] if view["players"] != 1 else [a for a, _ in view["pairs"]]
    parts = [f"The market, round {view['round']} of {view['rounds']}."]
    parts.append("On offer: " + "; ".join(f"{t['name']} ({t['cost']}): {t['effect']}"
                                          for t in offer) + ".")
    parts.append("Temples: " + "; ".join(f"{t['name']} ({t['cost']})"
                                         for t in view["temples"]) + ".")
    return name_seats(" ".join(parts))


def alt_text(view: Mapping[str, Any]) -> str:
    return name_seats(describe(view))
