"""The header and the right-hand panel: players, the tile to lay, the screen, the legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from rendering.common import INK, MUTED, font, player_name
from rendering.palatinus import layout as L
from rendering.palatinus.pieces import draw_piece
from rendering.palatinus.tiles import draw_tile, preview_key

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
    draw.text(
        (16, L.HEADER / 2),
        headline(view),
        font=font(20, bold=True),
        fill=(255, 255, 255),
        anchor="lm",
    )
    viewer = view.get("viewer")
    if viewer is not None:
        draw.text(
            (width - 16, L.HEADER / 2),
            f"private view of {seat_name(viewer)}",
            font=font(16, bold=True),
            fill=(255, 220, 150),
            anchor="rm",
        )


def _players(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    draw.text((x, y), "Players", font=font(18, bold=True), fill=INK)
    y += 30
    for seat in range(view["players"]):
        draw_piece(draw, (x + 16, y + 12), 12, seat, "M")
        bits = [seat_name(seat)]
        if seat == view["start_seat"]:
            bits.append("(start)")
        if view["phase"] == "placing":
            bits.append(f"· {view['left'][seat]} pieces left")
        turn = view["phase"] != "over" and view["turn"] == seat
        draw.text((x + 40, y + 12), " ".join(bits), font=font(16, bold=turn), fill=INK, anchor="lm")
        if turn:
            draw.text((x - 14, y + 12), "▶", font=font(16, bold=True), fill=INK, anchor="lm")
        y += 28
    return y + 8


def _laying(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    laying = view["laying"]
    letter = laying["tile"]
    draw.text((x, y), f"Tile {letter} to lay, by rotation", font=font(18, bold=True), fill=INK)
    y += 30
    size = 17.0
    for rot in range(6):
        cx = x + 62 + (rot % 3) * 132
        cy = y + 58 + (rot // 3) * 140
        key = preview_key(letter, laying["springs"], laying["arrow"], rot)
        draw_tile(draw, key, (cx, cy), size, labels="numbers")
        draw.text((cx, cy + 66), f"r{rot}", font=font(16, bold=True), fill=INK, anchor="mm")
    y += 290
    free = ", ".join(str(p["number"]) for p in laying["positions"])
    lines = [
        f"Free positions: {free}",
        "(a number marks where the tile's hill goes)",
        "Write: lay POSITION rROTATION",
        f"e.g. lay {laying['positions'][0]['number']} r0",
        f"Tiles still face down: {laying['tiles_left']}",
    ]
    for line in lines:
        draw.text((x, y), line, font=font(16), fill=INK)
        y += 24
    return y + 8


def _screen(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    seat = int(view["viewer"])
    draw.text((x, y), "Behind your screen", font=font(18, bold=True), fill=INK)
    y += 30
    screen = view.get("screen", {})
    shown = [(k, label) for k, label in KIND_LABELS if screen.get(k)]
    if not shown:
        draw.text((x, y), "nothing left", font=font(16), fill=MUTED)
        return y + 32
    for kind, label in shown:
        draw_piece(
            draw,
            (x + 18, y + 15),
            14,
            seat,
            kind.strip("xw"),
            wolf="w" in kind,
            neutral=kind.startswith("x"),
        )
        draw.text(
            (x + 44, y + 15), f"{screen[kind]} × {label}", font=font(16), fill=INK, anchor="lm"
        )
        y += 34
    may = view.get("may_place")
    if may is not None and may == ["S"]:
        draw.text((x, y), "You must place your soldier now.", font=font(15, bold=True), fill=INK)
        y += 24
    return y + 8


def _legend(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int) -> int:
    draw.text((x, y), "Key", font=font(18, bold=True), fill=INK)
    y += 30
    rows: list[tuple[str | None, bool, str]] = [
        ("M", False, "merchant"),
        ("F", False, "farmer"),
        ("S", False, "soldier"),
        (None, True, "wolf piece (type hidden)"),
    ]
    if view.get("viewer") is not None:
        rows.append(("M", True, "your wolf piece (only you see the type)"))
    neutral = any(p.get("neutral") for p in view["pieces"]) or any(
        k.startswith("x") for k in view.get("screen", {})
    )
    for kind, wolf, label in rows:
        draw_piece(draw, (x + 18, y + 15), 14, 0, kind, wolf=wolf)
        draw.text((x + 44, y + 15), label, font=font(15), fill=INK, anchor="lm")
        y += 34
    if neutral:
        draw_piece(draw, (x + 18, y + 15), 14, 0, "M", neutral=True)
        draw.text(
            (x + 44, y + 15),
            "neutral extra (scores for nobody)",
            font=font(15),
            fill=INK,
            anchor="lm",
        )
        y += 34
    draw.polygon(L.hex_points((x + 16, y + 13), 13), fill=L.SPRING, outline=L.GRID)
    draw.polygon(L.hex_points((x + 16, y + 13), 10), outline=L.SPRING_EDGE, width=2)
    draw.text((x + 40, y + 13), "spring field", font=font(15), fill=INK, anchor="lm")
    y += 30
    note = f"No soldier in a player's last {view['soldier_free_turns']} turns."
    draw.text((x, y), note, font=font(15), fill=INK)
    return y + 26


def draw_side_panel(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    x = L.BOARD_W + 20
    y = L.HEADER + 16
    draw.line([(L.BOARD_W, L.HEADER), (L.BOARD_W, L.HEIGHT)], fill=MUTED, width=1)
    y = _players(draw, view, x, y)
    if view["phase"] == "laying" and view.get("laying"):
        y = _laying(draw, view, x, y)
        return
    if view.get("viewer") is not None:
        y = _screen(draw, view, x, y)
    _legend(draw, view, x, y)
