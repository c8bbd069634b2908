"""Palatinus images: the board (tiles, springs, laurels, labelled fields, pieces), a side panel
(players, the tile to lay in its six rotations, your screen, a key) and, once the game is over,
the scoring record hill by hill with the final table of VP by source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import INK, PAPER, WHITE, centred_text, font
from rendering.palatinus import layout as L
from rendering.palatinus.panels import draw_header, draw_side_panel, headline, seat_name
from rendering.palatinus.pieces import (
    MARK_R,
    draw_piece,
    mark_last,
    marker_centre,
    seat_marker,
)
from rendering.palatinus.scoresheet import draw_hills, draw_sheet
from rendering.palatinus.tiles import board_layer, tile_key
from rules.palatinus.geometry import DIRS

__all__ = ["alt_text", "detail_parts", "render", "render_detail"]

PIECE_R = 17.0


def _piece_centre(q: int, r: int) -> L.Point:
    # Low and a little left in the hex: the field label keeps the top, the owner's marker the
    # right.
    x, y = L.hex_centre(q, r)
    return (x - 8, y + 10)


def _ring_markers(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    positions = view["laying"]["positions"]
    ghosts = len(view["tiles"]) > 1  # with 12 candidate places the outlines would overlap
    for pos in positions:
        q, r = pos["hill"]
        if ghosts:
            for dq, dr in ((0, 0), *DIRS):
                xy = L.hex_centre(q + dq, r + dr)
                draw.polygon(L.hex_points(xy, L.SIZE), fill=L.GHOST, outline=L.GRID)
    for pos in positions:
        x, y = L.hex_centre(*pos["hill"])
        k = L.SIZE * 0.58
        draw.ellipse((x - k, y - k, x + k, y + k), fill=WHITE, outline=INK, width=3)
        centred_text(draw, (x, y), str(pos["number"]), font(22, bold=True), INK)


def _pieces(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    if view["pieces"] and view["phase"] == "placing":
        mark_last(draw, _piece_centre(*view["pieces"][-1]["hex"]), PIECE_R)
    for piece in view["pieces"]:
        draw_piece(
            draw,
            _piece_centre(*piece["hex"]),
            PIECE_R,
            piece["owner"],
            piece["type"],
            wolf=piece["wolf"],
            neutral=piece["neutral"],
        )


def _final_pieces(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """Every piece as placed, revealed; captured pieces crossed out, departed soldiers faded."""
    record = view["scoring"]
    hexes = {f["name"]: f["hex"] for t in view["tiles"] for f in t["fields"]}
    captured = {c["field"] for hill in record["hills"] for c in hill["captures"]}
    left = {
        s["field"] for hill in record["hills"] for s in hill["soldiers"] if s["result"] == "left"
    }
    for field, owner, kind in record["placed"]:
        centre = _piece_centre(*hexes[field])
        base = kind.strip("xw")
        gone = field in captured or field in left
        draw_piece(
            draw,
            centre,
            PIECE_R,
            owner,
            base,
            wolf="w" in kind,
            neutral=kind.startswith("x"),
            faded=gone,
            mark=field not in left,
            letter=field not in left,
            crossed=field in captured,
        )
        if field in left:
            # On the faded shield itself, so the tag never reaches the next field's label.
            x, y = centre
            draw.rectangle((x - 19, y - 11, x + 19, y + 9), fill=WHITE, outline=INK, width=2)
            centred_text(draw, (x, y - 1), "left", font(L.TEXT, True), INK)
            seat_marker(draw, marker_centre(centre, PIECE_R), MARK_R, owner)


def _free_fields(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """On the private image of the seat to play: a white rim on every field still free."""
    taken = {p["field"] for p in view["pieces"]}
    for tile in view["tiles"]:
        for f in tile["fields"]:
            if f["name"] not in taken:
                xy = L.hex_centre(*f["hex"])
                # Kept to the rim (inner edge 40 px from the centre), clear of the field label.
                draw.polygon(L.hex_points(xy, L.SIZE - 2), outline=L.FREE, width=4)
                # An empty slot where a piece would stand: free at a glance, in any colour.
                cx, cy = _piece_centre(*f["hex"])
                k = PIECE_R * 0.55
                draw.ellipse((cx - k, cy - k, cx + k, cy + k), fill=L.FREE, outline=L.FREE_EDGE,
                             width=3)


def render(view: Mapping[str, Any]) -> Image.Image:
    over = view["phase"] == "over" and bool(view.get("scoring"))
    canvas = Image.new("RGB", (L.WIDTH, L.HEIGHT + 1400), PAPER)
    canvas.paste(board_layer(tuple(tile_key(t) for t in view["tiles"])), (0, 0))
    draw = ImageDraw.Draw(canvas)
    if view["phase"] == "laying" and len(view["tiles"]) > 1:
        # The tile laid last: a ring around its seven hexes.
        x, y = L.hex_centre(*view["tiles"][-1]["hill"])
        k = L.SIZE * 2.95
        draw.ellipse((x - k - 3, y - k - 3, x + k + 3, y + k + 3), outline=WHITE, width=3)
        draw.ellipse((x - k, y - k, x + k, y + k), outline=L.LAST, width=5)
    if view["phase"] == "laying" and view.get("laying"):
        _ring_markers(draw, view)
    if over:
        _final_pieces(draw, view)
        note = "Faded with a dark X: captured.   Faded, 'left': soldier that left on a tie."
        draw.text((12, L.HEIGHT - 14), note, font=font(L.TEXT), fill=INK, anchor="lm")
        height = draw_sheet(draw, view, 20, L.PANEL_Y + 16, hills=False)
    else:
        if view.get("may_place"):
            _free_fields(draw, view)
        _pieces(draw, view)
        height = draw_side_panel(draw, view)
    draw_header(draw, view, L.WIDTH)
    return canvas.crop((0, 0, L.WIDTH, height))


def detail_parts(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Once the game is over, how each hill scored; nothing before (the board is all)."""
    return [("scoring", "Scoring")] if view["phase"] == "over" and view.get("scoring") else []


def render_detail(view: Mapping[str, Any], key: str) -> tuple[Image.Image, str]:
    if key != "scoring" or not detail_parts(view):
        raise KeyError(key)
    canvas = Image.new("RGB", (L.WIDTH, 1600), PAPER)
    draw = ImageDraw.Draw(canvas)
    draw_header(draw, view, L.WIDTH)
    height = draw_hills(draw, view, 20, L.HEADER + 16)
    return canvas.crop((0, 0, L.WIDTH, height + 12)), scoring_alt(view)


KINDS = {"M": "merchant", "F": "farmer", "S": "soldier"}


def _piece_words(piece: Mapping[str, Any]) -> str:
    kind = KINDS.get(str(piece["type"] or ""), "")
    if piece.get("wolf"):
        kind = f"wolf {kind}" if kind else "wolf piece"
    return f"{'neutral ' if piece.get('neutral') else ''}{kind} on {piece['field']}"


def _sentences(parts: list[str], limit: int = 1000) -> str:
    """The sentences that fit ``limit`` characters, whole; an ellipsis says more was cut."""
    out = ""
    for part in parts:
        if len(out) + len(part) + 2 > limit - 2:
            return out + " …"
        out = f"{out} {part}".strip()
    return out


def alt_text(view: Mapping[str, Any]) -> str:
    """The board in sentences: the phase and who is to play, then hill by hill whose pieces
    stand where (hidden wolf pieces as such); at the end, the scores and the ranking."""
    parts = [headline(view).replace("Palatinus  ·  ", "Palatinus, ") + "."]
    outcome = view.get("outcome")
    if outcome:
        scores = ", ".join(f"{seat_name(s)} {v} VP" for s, v in enumerate(outcome["scores"]))
        ranking = ", then ".join(" and ".join(seat_name(s) for s in group)
                                 for group in outcome["ranking"])
        parts.append(f"Scores: {scores}. Ranking: {ranking}.")
    pieces = {p["field"]: p for p in view["pieces"]}
    for tile in sorted(view["tiles"], key=lambda t: t["letter"]):
        owners: dict[int, list[str]] = {}
        for f in tile["fields"]:
            piece = pieces.get(f["name"])
            if piece is not None:
                owners.setdefault(int(piece["owner"]), []).append(
                    _piece_words({**piece, "field": f["name"]}))
        laurel = f" (laurel {tile['laurel']})" if tile["laurel"] else ""
        held = "; ".join(f"{seat_name(o)}'s " + ", ".join(words)
                         for o, words in sorted(owners.items()))
        parts.append(f"Hill {tile['letter']}{laurel}: {held or 'no pieces'}.")
    if view.get("laying"):
        free = ", ".join(str(p["number"]) for p in view["laying"]["positions"])
        parts.append(f"Free positions for the next tile: {free}.")
    return _sentences(parts)


def scoring_alt(view: Mapping[str, Any]) -> str:
    """How each hill scored, in sentences."""
    parts = ["Palatinus: how each hill scored."]
    for hill in view["scoring"]["hills"]:
        award = hill["award"]
        seats = " and ".join(seat_name(s) for s in award["seats"])
        if award["result"] == "laurel":
            text = f"laurel {award['value']} to {seats}"
        elif award["result"] == "tie":
            text = f"a tie: {seats} each get a {award['value']}-point disc"
        else:
            text = f"nobody scores; laurel {hill['laurel']} is discarded"
        parts.append(f"Hill {hill['letter']}: {text}.")
    return _sentences(parts)
