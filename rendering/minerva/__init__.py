"""Minerva pictures. The post image: an overview legible at preview size (at the end, the
final scores, then every city in small). Detail images: the market, and each seat's city at a
size that reads in the preview (a seat's own with where a bought tile may go).
``alt_text(view)`` describes the view in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from rendering.common import PAPER, name_seats
from rendering.minerva.city import AXIS, city_image
from rendering.minerva.final import final_table
from rendering.minerva.market import render_market
from rendering.minerva.overview import render_cities, render_overview
from rendering.minerva.style import seat_name
from rules.minerva.views import describe

__all__ = ["alt_text", "detail_parts", "render", "render_detail", "seat_city"]

CITY_WIDTH = 548  # the width a city aims at: its cells read at their size in the preview


def render(view: Mapping[str, Any]) -> Image.Image:
    """The overview; at the end, the final scores above every city in small."""
    if not view.get("outcome"):
        return render_overview(view)
    table, cities = final_table(view), render_cities(view)
    image = Image.new("RGB", (max(table.width, cities.width), table.height + cities.height),
                      PAPER)
    image.paste(table, (0, 0))
    image.paste(cities, (0, table.height))
    return image


def detail_parts(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The market while the game runs, then every city (the seat's own first)."""
    parts = [] if view.get("outcome") else [("market", "Market")]
    seat = view.get("seat")
    seats = [int(s["seat"]) for s in view["seats"]]
    if seat is not None:
        seats.sort(key=lambda s: s != seat)
    for s in seats:
        label = "Your city" if s == seat else f"{seat_name(s)}'s city"
        parts.append((f"city:{s}", label))
    return parts


def render_detail(view: Mapping[str, Any], key: str) -> tuple[Image.Image, str]:
    if key == "market" and not view.get("outcome"):
        return render_market(view), market_alt_text(view)
    if key.startswith("city:"):
        seat = int(key.removeprefix("city:"))
        if 0 <= seat < len(view["seats"]):
            city = seat_city(view, seat)
            return city, str(city.info["alt"])
    raise KeyError(key)


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
    activate. Another's city shows its tiles only."""
    player = view["seats"][seat]
    own = view.get("seat") == seat
    pending = view.get("pending") or {}
    highlight = pending if pending.get("seat") == seat and "at" in pending else None
    private = (view.get("private") or {}) if own else {}
    n = int(player["residences"])
    left = f"{n} residence{'' if n == 1 else 's'} left"
    title = f"Your city · {left}" if own else f"{seat_name(seat)}'s city"
    size = _cell_size(player, ring=own)
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
