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
from rendering.minerva.market import render_market
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
        market = render_market(view)
        market.info["alt"] = market_alt_text(view)
        images.append(market)
    return images


MAX_HEIGHT = 1096  # 2:1 at CITY_WIDTH: at most 1,100 px tall in the 550 px preview
SMALLEST_CELL = 44


def _cell_size(player: Mapping[str, Any], ring: bool = True, height: int = MAX_HEIGHT) -> int:
    """Cells as large as the width allows, but small enough that the city fits ``height``
    (with its title, axes and up to three lines of key); ``ring`` counts the free cells
    around the tiles."""
    xs = [int(c["x"]) for c in player["city"]] or [0]
    ys = [int(c["y"]) for c in player["city"]] or [0]
    extra = 3 if ring else 1
    cols, rows = max(xs) - min(xs) + extra, max(ys) - min(ys) + extra
    by_width = (CITY_WIDTH - AXIS - 8) // cols
    by_height = (height - 40 - AXIS - 8 - 58) // rows
    return max(SMALLEST_CELL, min(80, by_width, by_height))


def seat_city(view: Mapping[str, Any], seat: int) -> Image.Image:
    """One seat's city at a size that reads in the preview, titled with whose city it is; in
    the seat's own view, with where a bought tile may go and what a residence would
    activate. Another's city shows its tiles only (two of them share an image)."""
    player = view["seats"][seat]
    own = view.get("seat") == seat
    pending = view.get("pending") or {}
    highlight = pending if pending.get("seat") == seat and "at" in pending else None
    private = (view.get("private") or {}) if own else {}
    n = int(player["residences"])
    left = f"{n} residence{'' if n == 1 else 's'} left"
    title = f"Your city · {left}" if own else f"{seat_name(seat)}'s city"
    size = _cell_size(player) if own else _cell_size(player, False, (MAX_HEIGHT - GAP) // 2)
    image = city_image(player, size, highlight,
                       build_cells=private.get("build_cells", ()), title=title,
                       show_reach=own and player["residences"] > 0 and not view.get("outcome"),
                       show_free=own, min_width=CITY_WIDTH)
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
