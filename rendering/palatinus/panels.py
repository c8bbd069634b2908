"""The header and the panel under the board: players, the tile to lay, the screen, the key.

The panel has two columns: players (and, privately, your screen) on the left; the tile to lay
or the key on the right. Every text is at least ``L.TEXT`` px (legible at preview width)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from rendering.common import INK, MUTED, font, player_name
from rendering.palatinus import layout as L
from rendering.palatinus.pieces import draw_piece, seat_marker
from rendering.palatinus.tiles import draw_tile, preview_key
from rendering.scoretable import fit

KIND_LABELS = (
    ("M", "merchant"), ("Mw", "wolf merchant"), ("F", "farmer"), ("Fw", "wolf farmer"),
    ("S", "soldier"), ("xM", "neutral merchant"), ("xMw", "neutral wolf merchant"),
    ("xF", "neutral farmer"), ("xFw", "neutral wolf farmer"),
)  # fmt: skip


def seat_name(seat: int) -> str:
    return player_name(seat, f"P{seat + 1}")


def headline(view: Mapping[str, Any]) -> str:
    phase = view["phase"]
    if phase == "laying":
        text = f"Laying tiles: {seat_name(view['turn'])} lays tile {view['laying']['tile']}"
    elif phase == "placing":
        text = f"Placing inhabitants: {seat_name(view['turn'])} to place"
    else:
        outcome = view.get("outcome") or {}
        best = outcome.get("ranking", [[]])[0]
        names = " and ".join(seat_name(s) for s in best)
        score = outcome["scores"][best[0]] if best else 0
        text = f"Game over: {names} win{'s' if len(best) == 1 else ''} with {score} VP"
    return f"Palatinus  ·  {text}"


def draw_header(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], width: int) -> None:
    draw.rectangle((0, 0, width, L.HEADER), fill=(60, 46, 34))
    draw.text((12, L.HEADER / 2), headline(view), font=font(19, bold=True), fill=(255, 255, 255),
              anchor="lm")


TEXT = L.TEXT
ROW = 34
LEFT_W = 330


def _title(draw: ImageDraw.ImageDraw, x: int, y: int, text: str) -> int:
    draw.text((x, y), text, font=font(TEXT + 2, bold=True), fill=INK)
    return y + 30


def _players(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    viewer = view.get("viewer")
    title = "Players" if viewer is None else f"Private view of {seat_name(viewer)}"
    # A long name gives way before the title reaches the right column.
    y = _title(draw, x, y, fit(title, font(TEXT + 2, bold=True), LEFT_W - 6))
    for seat in range(view["players"]):
        turn = view["phase"] != "over" and view["turn"] == seat
        if turn:
            draw.rectangle((x - 6, y - 2, x + LEFT_W - 10, y + ROW - 4), fill=(236, 226, 200))
        seat_marker(draw, (x + 16, y + 15), 13, seat)
        bits = []
        if seat == view["start_seat"]:
            bits.append("(start)")
        if view["phase"] == "placing":
            bits.append(f"· {view['left'][seat]} left")
        # The band and the header say whose turn it is; the arrow leaves the name its room.
        tail = " ".join(bits) + ("  ◀" if turn else "")
        fnt = font(TEXT, bold=turn)
        # The name gives way, so the seat's count and "to play" always fit the column.
        room = LEFT_W - 54 - fnt.getlength(" " + tail)
        text = f"{fit(seat_name(seat), fnt, int(room))} {tail}".strip()
        draw.text((x + 44, y + 15), text, font=fnt, fill=INK, anchor="lm")
        y += ROW
    return y + 10


def _wrapped(head: str, items: list[str], width: int) -> list[str]:
    """``head`` and the items joined by commas, broken into lines no wider than ``width``."""
    fnt = font(TEXT, bold=True)
    lines, line = [], head + (items[0] if items else "")
    for item in items[1:]:
        if fnt.getlength(f"{line}, {item}") > width:
            lines.append(line + ",")
            line = "    " + item
        else:
            line = f"{line}, {item}"
    return [*lines, line]


def _laying(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    laying = view["laying"]
    letter = laying["tile"]
    y = _title(draw, x, y, f"Tile {letter}: its six rotations")
    size = 22.0
    for rot in range(6):
        cx = x + 66 + (rot % 3) * 130
        cy = y + 62 + (rot // 3) * 150
        key = preview_key(letter, laying["springs"], laying["arrow"], rot)
        draw_tile(draw, key, (cx, cy), size, labels="numbers")
        draw.text((cx, cy + 72), f"r{rot}", font=font(TEXT + 1, bold=True), fill=INK,
                  anchor="mm")
    y += 310
    numbers = [str(p["number"]) for p in laying["positions"]]
    lines = [(line, True) for line in _wrapped("Free positions: ", numbers, int(L.WIDTH - x - 14))]
    lines += [
        ("(white discs on the board: where the hill goes)", False),
        (f"Write: lay POSITION rROTATION, e.g. lay {laying['positions'][0]['number']} r0", True),
        (f"Tiles still face down: {laying['tiles_left']}", False),
    ]
    for line, bold in lines:
        draw.text((x, y), line, font=font(TEXT, bold=bold), fill=INK)
        y += 24
    return y + 8


def _screen(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    seat = int(view["viewer"])
    y = _title(draw, x, y, "Behind your screen")
    screen = view.get("screen", {})
    shown = [(k, label) for k, label in KIND_LABELS if screen.get(k)]
    if not shown:
        draw.text((x, y), "nothing left", font=font(TEXT), fill=MUTED)
        return y + 32
    for kind, label in shown:
        draw_piece(draw, (x + 18, y + 15), 16, seat, kind.strip("xw"), wolf="w" in kind,
                   neutral=kind.startswith("x"), mark=False)
        draw.text((x + 46, y + 15), f"{screen[kind]} × {label}", font=font(TEXT), fill=INK,
                  anchor="lm")
        y += ROW + 4
    may = view.get("may_place")
    if may is not None:
        lines = ["You must place your", "soldier now."] if may == ["S"] else [
            "Your turn: a white disc", "marks each free field."]  # within the left column
        for line in lines:
            draw.text((x, y), line, font=font(TEXT, bold=True), fill=INK)
            y += 24
    return y + 8


def _legend(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    y = _title(draw, x, y, "Key")
    rows: list[tuple[str | None, bool, str]] = [
        ("M", False, "merchant"), ("F", False, "farmer"), ("S", False, "soldier"),
        (None, True, "wolf piece (type hidden)"),
    ]  # fmt: skip
    if view.get("viewer") is not None:
        rows.append(("M", True, "your wolf piece (type seen by you)"))
    neutral = any(p.get("neutral") for p in view["pieces"]) or any(
        k.startswith("x") for k in view.get("screen", {})
    )
    for kind, wolf, label in rows:
        draw_piece(draw, (x + 18, y + 15), 16, 0, kind, wolf=wolf, mark=False)
        draw.text((x + 46, y + 15), label, font=font(TEXT), fill=INK, anchor="lm")
        y += ROW + 4
    if neutral:
        draw_piece(draw, (x + 18, y + 15), 16, 0, "M", neutral=True, mark=False)
        draw.text((x + 46, y + 15), "neutral (scores for nobody)", font=font(TEXT), fill=INK,
                  anchor="lm")
        y += ROW + 4
    draw.polygon(L.hex_points((x + 18, y + 15), 16), fill=L.SPRING, outline=L.GRID)
    draw.polygon(L.hex_points((x + 18, y + 15), 14), outline=L.SPRING_EDGE, width=2)
    draw.text((x + 46, y + 15), "spring field", font=font(TEXT), fill=INK, anchor="lm")
    y += ROW
    last = {"placing": "piece", "laying": "tile"}.get(str(view["phase"]))
    if last and (view["pieces"] if last == "piece" else len(view["tiles"]) > 1):
        draw.ellipse((x + 4, y + 1, x + 32, y + 29), outline=L.LAST, width=4)
        draw.text((x + 46, y + 15), f"ring: the {last} placed last", font=font(TEXT),
                  fill=INK, anchor="lm")
        y += ROW
    note = f"No soldier in a player's last {view['soldier_free_turns']} turns."
    draw.text((x, y), note, font=font(TEXT), fill=INK)
    return y + 28


def draw_side_panel(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> int:
    """Draws the panel under the board; returns the y where it ends."""
    x, y0 = 20, L.PANEL_Y + 14
    draw.line([(0, L.PANEL_Y), (L.WIDTH, L.PANEL_Y)], fill=MUTED, width=1)
    left = _players(draw, view, x, y0)
    if view.get("viewer") is not None:
        left = _screen(draw, view, x, left)
    right_x = x + LEFT_W + 16
    if view["phase"] == "laying" and view.get("laying"):
        right = _laying(draw, view, right_x - 20, y0)
        left = _legend(draw, view, x, left) if view.get("viewer") is None else left
    else:
        right = _legend(draw, view, right_x, y0)
    return max(left, right) + 6
