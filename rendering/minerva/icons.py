"""Pictograms of the Minerva building types, drawn on the type's coloured badge beside its
letter, so a tile reads by picture, colour and letter alike."""

from __future__ import annotations

from PIL import ImageDraw

from rendering.common import INK, WHITE, font
from rendering.minerva.style import category_colour
from rendering.pictograms import Painter, Pen, stamp, sword


def _grain(p: Pen, base: tuple[float, float], tip: tuple[float, float]) -> None:
    (bu, bv), (tu, tv) = base, tip
    mu, mv = (bu + tu) / 2, (bv + tv) / 2
    nu, nv = (bv - tv) * 0.26, (tu - bu) * 0.26
    p.poly([base, (mu + nu, mv + nv), tip, (mu - nu, mv - nv)])


def _wheat(p: Pen) -> None:
    p.rect(0.46, 0.28, 0.54, 1.0)  # stalk
    _grain(p, (0.5, 0.26), (0.5, -0.02))
    for v in (0.36, 0.58, 0.8):
        _grain(p, (0.44, v), (0.12, v - 0.18))
        _grain(p, (0.56, v), (0.88, v - 0.18))


def _coin(p: Pen) -> None:
    p.ellipse(0.0, 0.0, 1.0, 1.0)
    p.ellipse(0.14, 0.14, 0.86, 0.86, on=False)
    p.ellipse(0.24, 0.24, 0.76, 0.76)
    p.rect(0.42, 0.34, 0.58, 0.66, on=False)  # the struck mark in the middle


def _column(p: Pen) -> None:
    p.rect(0.08, 0.0, 0.92, 0.14)  # capital
    p.rect(0.2, 0.14, 0.8, 0.86)  # shaft
    for u in (0.36, 0.5, 0.64):
        p.rect(u - 0.035, 0.2, u + 0.035, 0.8, on=False)  # flutes
    p.rect(0.04, 0.86, 0.96, 1.0)  # base


def _star(p: Pen) -> None:
    p.star(0.5, 0.55, 0.58)


def _temple(p: Pen) -> None:
    p.poly([(0.5, 0.0), (1.0, 0.3), (0.0, 0.3)])  # pediment
    for u in (0.12, 0.42, 0.72):
        p.rect(u, 0.36, u + 0.16, 0.84)
    p.rect(0.0, 0.86, 1.0, 1.0)


def _house(p: Pen) -> None:
    p.poly([(0.5, 0.0), (1.0, 0.46), (0.0, 0.46)])
    p.rect(0.14, 0.46, 0.86, 1.0)
    p.rect(0.4, 0.64, 0.6, 1.0, on=False)  # door


def _log(p: Pen) -> None:
    p.rounded(0.0, 0.28, 1.0, 0.72, 0.2)
    p.ellipse(0.66, 0.3, 0.98, 0.7, on=False)  # the cut end, with its ring
    p.ellipse(0.76, 0.42, 0.88, 0.58)


def _block(p: Pen) -> None:
    p.poly([(0.08, 0.92), (0.0, 0.5), (0.28, 0.12), (0.74, 0.08), (1.0, 0.46), (0.88, 0.92)])
    p.line([(0.3, 0.5), (0.7, 0.46)], 0.06, on=False)  # a crack


def _nugget(p: Pen) -> None:
    p.poly([(0.5, 0.0), (1.0, 0.38), (0.5, 1.0), (0.0, 0.38)])
    p.line([(0.0, 0.38), (1.0, 0.38)], 0.06, on=False)  # facets
    p.line([(0.5, 0.38), (0.5, 1.0)], 0.06, on=False)


RESOURCE_ICONS: dict[str, tuple[Painter, tuple[int, int, int]]] = {
    # resource: (glyph, colour); every glyph differs in shape, so colour is never needed
    "denarii": (_coin, (150, 110, 0)),
    "grain": (_wheat, (160, 120, 0)),
    "wood": (_log, (120, 70, 20)),
    "stone": (_block, (110, 110, 110)),
    "ore": (_nugget, (40, 60, 110)),
    "glory": (_star, (170, 40, 40)),
}


def resource_icon(draw: ImageDraw.ImageDraw, name: str, cx: float, cy: float, px: int) -> None:
    glyph, colour = RESOURCE_ICONS[name]
    stamp(draw, cx, cy, px, "bare", glyph, colour, colour)


GLYPHS: dict[str, Painter] = {
    "production": _wheat, "trade": _coin, "culture": _column, "military": sword,
    "special": _star, "temple": _temple, "residential": _house,
}
WORDS = {"production": "production", "trade": "trade", "culture": "culture",
         "military": "military", "special": "special", "temple": "temple",
         "residential": "residence"}


def badge(draw: ImageDraw.ImageDraw, x: float, y: float, category: str, size: int = 20) -> None:
    """A square in the type's colour with the type's pictogram: never colour alone."""
    colour = category_colour(category)
    draw.rectangle((x, y, x + size, y + size), fill=colour, outline=INK)
    ink = INK if sum(colour) > 450 else WHITE
    glyph = GLYPHS.get(category)
    if glyph is None:
        draw.text((x + size / 2, y + size / 2), "?", font=font(max(9, size - 7), bold=True),
                  fill=ink, anchor="mm")
        return
    stamp(draw, x + (size + 1) / 2, y + (size + 1) / 2, size + 1, "bare", glyph, colour, ink)
