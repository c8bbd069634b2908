"""Hadrian's Wall images. The post image: a seat's overview (hand, Path choice, what can be
done now, score) with a strip of the boxes it can fill now, or, in public, the players at a
glance (the final table once the game is over). Detail images: the seat's two sheets, each in
two parts that read at preview size, and the public Year summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import WHITE, draw_marker, font, name_seats, player_name
from rendering.hadrians_wall.final import final_table
from rendering.hadrians_wall.guides import CARD, HALO, fillable_boxes, rewards_to_place
from rendering.hadrians_wall.icons import key_row, key_rows
from rendering.hadrians_wall.layout import HEAD, SHEET_TOP
from rendering.hadrians_wall.overview import render_overview
from rendering.hadrians_wall.parts import paint_out, part_of, span
from rendering.hadrians_wall.printed import icons_between
from rendering.hadrians_wall.public import render_public
from rendering.hadrians_wall.sheets import render_sheets
from rendering.hadrians_wall.summary import render_summary
from rendering.scoretable import fit
from rules.hadrians_wall import GAME

__all__ = ["alt_text", "detail_parts", "render", "render_detail"]


def render(view: Mapping[str, Any]) -> Image.Image:
    """The post image: the seat's overview, or the public players at a glance (the final
    table at the end)."""
    if view.get("seat") is None:
        return final_table(view) if view.get("outcome") else render_public(view)
    return render_overview(view)


def detail_parts(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The seat's sheets in four parts; in public, the Year summary of every sheet."""
    if view.get("seat") is None:
        return [("summary", "Year summary")]
    return [(f"sheet:{i}", title[0].upper() + title[1:]) for i, (title, _, _) in
            enumerate(PARTS)]


def render_detail(view: Mapping[str, Any], key: str) -> tuple[Image.Image, str]:
    if key == "summary" and view.get("seat") is None:
        return render_summary(view), summary_alt(view)
    if key.startswith("sheet:") and view.get("seat") is not None:
        index = int(key.removeprefix("sheet:"))
        if 0 <= index < len(PARTS):
            [part] = sheet_parts(view, [index])
            return part, str(part.info["alt"])
    raise KeyError(key)


PART_SCALE = 2.0
# (title, x0, x1) in layout units. Each sheet is cut where its rows of boxes have gaps (see
# ``parts``), so the halves overlap a little and are 450 to 490 wide: printed text of 10
# layout units reads at 11.2 px or more at 550 px.
PARTS = tuple((f"{side} sheet, part {half + 1} of 2", *span(sheet, half))
              for sheet, side in enumerate(("left", "right")) for half in (0, 1))


def sheet_parts(view: Mapping[str, Any], which: Sequence[int] = range(len(PARTS))
                ) -> list[Image.Image]:
    """The seat's two sheets drawn twice the layout size and cut in four (or the parts
    ``which`` names), each part under a title bar with the key to the marks of what can be
    done next, and a description of its own."""
    if not which:
        return []
    sheets = render_sheets(view, PART_SCALE, header=False)
    k = PART_SCALE
    top = int(SHEET_TOP * k)
    seat = int(view["seat"])
    s = view["sheets"][seat]
    boxes = fillable_boxes(view, s)
    out = []
    for i in which:
        title, x0, x1 = PARTS[i]
        cut = sheets.crop((int(x0 * k), top, int(x1 * k), int(SHEET_BOTTOM * k)))
        paint_out(cut, i // 2, i % 2, x0, SHEET_TOP, k)
        # The frame's foot, which the crop leaves out.
        ImageDraw.Draw(cut).line((0, cut.height - 3 * k, cut.width, cut.height - 3 * k),
                                 fill=HEAD, width=int(3 * k))
        part = _titled(view, cut, title, icons_between(x0, x1))
        here = sum(1 for b in boxes if part_of(b) == i)
        can = (f"{here} box{'es' if here != 1 else ''} you can fill now, outlined in orange"
               if here else "no box you can fill now")
        part.info["alt"] = (f"{player_name(seat, f'Player {seat + 1}')}'s {title}: "
                            f"{PART_AREAS[i]}. {can}.")
        out.append(part)
    return out


SHEET_BOTTOM = 872  # the lowest text on a sheet ends at 860; below it is empty paper
PART_AREAS = (
    "cohorts, mining, wall guard, cippi, wall, fort, production, buildings, forum, attributes, "
    "Disdain and score",
    "the rest of the cohorts and tracks, training grounds and landmarks",
    "citizens, market, theatre, temples, gladiators, baths and courthouse",
    "the buildings that need citizens, diplomats, scouts, the map, Path cards and the Fate card",
)


TITLE_H = 104
KEY_ICON, KEY_TEXT, KEY_ROW = 28, 20, 34


def _titled(view: Mapping[str, Any], part: Image.Image, title: str,
            icons: tuple[str, ...]) -> Image.Image:
    """One part of a sheet under its own header (name, Year, which part, score), the key
    to the marks (the halo of a box that can be filled now, the last attack's cards and the
    rewards still to place) and the key to the icons this part shows."""
    seat = int(view["seat"])
    s = view["sheets"][seat]
    rows = key_rows(icons, KEY_ICON, KEY_TEXT, part.width - 28)
    top = TITLE_H + rows * KEY_ROW
    image = Image.new("RGB", (part.width, part.height + top), (45, 35, 30))
    image.paste(part, (0, top))
    draw = ImageDraw.Draw(image)
    key_row(draw, icons, 14, TITLE_H + KEY_ROW / 2 - 8, KEY_ICON, KEY_TEXT, WHITE,
            part.width - 14)
    draw_marker(draw, (34, 32), 22, seat, outline=WHITE)
    # The name gives way (cut with an ellipsis) so that it never runs into the part's title.
    tail = f" · Year {view['year']}/{view['years']} · Score {s['score']['total']}"
    room = part.width - 14 - font(20).getlength(title) - 16 - 66
    name = fit(player_name(seat, f"Player {seat + 1}"), font(26, bold=True),
               room - font(26, bold=True).getlength(tail))
    draw.text((66, 32), name + tail, font=font(26, bold=True), fill=WHITE, anchor="lm")
    draw.text((part.width - 14, 32), title, font=font(20), fill=(255, 220, 160), anchor="rm")
    y = 80
    queue = rewards_to_place(s)
    if queue:
        draw.text((14, y), queue, font=font(20, bold=True), fill=(255, 200, 90), anchor="lm")
        return image
    draw.rectangle((14, y - 11, 36, y + 11), outline=HALO, width=4)
    draw.text((46, y), "a box you can fill now", font=font(20), fill=WHITE, anchor="lm")
    if view.get("attack"):
        draw.rectangle((330, y - 11, 346, y + 11), fill=CARD, outline=WHITE, width=1)
        draw.text((354, y), f"Year {view['attack']['year']} attack cards on that cohort",
                  font=font(20), fill=WHITE, anchor="lm")
    return image


def _sheet_sentence(s: Mapping[str, Any]) -> str:
    """A player's sheet in words (the engine's own line abbreviates: "ren 0 pie 2")."""
    plural = {"soldier": "soldiers", "builder": "builders", "servant": "servants",
              "civilian": "civilians", "resource": "resources"}
    attrs = ", ".join(f"{a} {n}" for a, n in s["attributes"].items())
    cits = ", ".join(f"{c} {n}" for c, n in s["citizens"].items())
    left, centre, right = s["cohorts"]
    hand = ", ".join(f"{n} {plural.get(g, g) if n != 1 else g}"
                     for g, n in s["hand"].items() if n) or "nothing"
    return (f"{{p{s['seat']}}} is {s['status']}, score {s['score']['total']}: {attrs}; "
            f"Disdain {s['final_disdain']}; cohort boxes filled left {left}, center {centre}, "
            f"right {right}; fort {s['fort']}, wall {s['wall']}, wall guard {s['guard']}; "
            f"citizens: {cits}; on hand {hand}.")


def alt_text(view: Mapping[str, Any]) -> str:
    """The engine's description, each player's sheet in sentences."""
    lines = GAME.describe(view).split("\n")
    for sheet in view["sheets"]:
        head = f"{{p{sheet['seat']}}} ({sheet['status']}): score"
        lines = [_sheet_sentence(sheet) if line.startswith(head) else line for line in lines]
    # The difficulty is that of the Picts' attacks; a bare "(normal)" says nothing.
    difficulty = f"({view.get('difficulty')}),"
    return name_seats("\n".join(lines)).replace(
        difficulty, f"(Picts: {view.get('difficulty')}),", 1)


def summary_alt(view: Mapping[str, Any]) -> str:
    """The Year summary in words: what each player's panel shows first."""
    players = "; ".join(
        f"{player_name(i, f'Player {i + 1}')}: score {s['score']['total']}, {s['status']}, "
        f"final Disdain {s['final_disdain']}"
        for i, s in enumerate(view["sheets"]))
    return (f"Year {view['year']} of {view['years']} summary (Picts: {view['difficulty']}), "
            f"every player's sheet in brief. {players}.")
