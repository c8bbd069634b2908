"""Views (what each seat may see) and their plain-text account.

The public view never holds the type of a wolf piece before the reveal, the order of the tiles
not drawn, the laurels not dealt, or what is behind a screen (only how many pieces are left).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from rules.core import copy_json
from rules.palatinus import components as comp
from rules.palatinus import scoring
from rules.palatinus.geometry import RING_BY_NUMBER, Board, Hex, field_hexes, hill_of
from rules.palatinus.laying import free_positions
from rules.palatinus.placing import allowed_kinds, soldier_free_turns
from rules.palatinus.state import LAYING, OVER, PLACING, PalatinusState
from rules.words import counted, placed

NAME_LIMIT = 32


def seat_name(seat: int) -> str:
    """A placeholder for the seat, replaced by ``_named`` with the player's name (or P1, P2...)."""
    return f"{{p{seat}}}"


def _named(text: str, view: Mapping[str, Any]) -> str:
    """Players' names where the view carries them (as the images show them), else P1, P2..."""
    names = list(view.get("names") or [])

    def name(match: re.Match[str]) -> str:
        seat = int(match[1])
        given = names[seat] if seat < len(names) else ""
        return str(given)[:NAME_LIMIT] if given else f"P{seat + 1}"

    return re.sub(r"\{p(\d+)\}", name, text)


def _tile_entry(state: PalatinusState, letter: str, position: int, rotation: int) -> dict[str, Any]:
    fields = _tile_fields(letter, position, rotation, state.config.springs_of(letter),
                          state.config.arrow_of(letter))
    return {
        "letter": letter,
        "position": position,
        "rotation": rotation,
        "hill": list(hill_of(position)),
        "laurel": state.laurel_of(letter),
        "fields": [{"name": name, "hex": list(h), "spring": spring, "arrow": arrow}
                   for name, h, spring, arrow in fields],
    }


@lru_cache(maxsize=1024)
def _tile_fields(letter: str, position: int, rotation: int, springs: tuple[int, ...],
                 arrow: int) -> tuple[tuple[str, Hex, bool, bool], ...]:
    """A laid tile's fields never change: worked out once, fresh dicts made from them per view
    (a view must not share anything with another one)."""
    hexes = field_hexes(hill_of(position), rotation)
    return tuple((f"{letter}{i + 1}", h, i in springs, i == arrow) for i, h in enumerate(hexes))


def _piece_entry(
    state: PalatinusState, board: Board, field: str, owner: int, kind: str, seat: int | None
) -> dict[str, Any]:
    wolf, base, neutral = _kind_facts(kind)
    known = not wolf or state.phase == OVER or seat == owner
    return {
        "field": field,
        "hex": list(board.fields[field]),
        "owner": owner,
        "type": base if known else None,
        "wolf": wolf,
        "neutral": neutral,
    }


@cache  # a handful of kinds, asked for every piece of every view
def _kind_facts(kind: str) -> tuple[bool, str, bool]:
    return comp.is_wolf(kind), comp.base_type(kind), comp.is_extra(kind)


def build_view(state: PalatinusState, seat: int | None) -> dict[str, Any]:
    outer = [t.position for t in state.tiles if t.position != 0]
    board = state.board  # built once for the whole view, not once per piece
    view: dict[str, Any] = {
        "game": "palatinus",
        "players": state.players,
        "viewer": seat,
        "phase": state.phase,
        "turn": None if state.phase == OVER else state.turn,
        "active": [] if state.phase == OVER else [state.turn],
        "start_seat": state.start_seat,
        "handedness": RING_BY_NUMBER[outer[0]].hand if outer else None,
        "tiles": [_tile_entry(state, t.letter, t.position, t.rotation) for t in state.tiles],
        "pieces": [_piece_entry(state, board, p.field, p.owner, p.kind, seat)
                   for p in state.pieces],
        "left": [state.left(s) for s in range(state.players)],
        "soldier_free_turns": soldier_free_turns(state.players),
        "laying": None,
        "laurels_to_deal": sorted(state.laurel_stack),
    }
    if state.phase == LAYING and state.current_tile is not None:
        letter = state.current_tile
        view["laying"] = {
            "tile": letter,
            "springs": list(state.config.springs_of(letter)),
            "arrow": state.config.arrow_of(letter),
            "positions": [
                {"number": n, "hill": list(RING_BY_NUMBER[n].hill)} for n in free_positions(state)
            ],
            "tiles_left": len(state.tile_stack),
        }
    if seat is not None and 0 <= seat < state.players:
        screen = state.screens[seat]
        view["screen"] = {k: n for k, n in zip(comp.KINDS, screen, strict=True) if n}
        if state.phase == PLACING and state.turn == seat:
            view["may_place"] = allowed_kinds(state, seat)
    if state.phase == OVER and state.scoring is not None:
        view["scoring"] = copy_json(state.scoring)  # a view must not alias the state
        view["outcome"] = scoring.outcome(state.scoring, state.config.tie_break).to_json()
    return view


# --------------------------------------------------------------------------------------------
# Plain text.


def _piece_text(piece: Mapping[str, Any]) -> str:
    owner = seat_name(int(piece["owner"]))
    neutral = " neutral" if piece.get("neutral") else ""
    if piece["type"] is None:
        return f"{owner}{neutral} wolf"
    wolf = " (wolf)" if piece["wolf"] else ""
    return f"{owner}{neutral} {comp.TYPE_NAMES[piece['type']]}{wolf}"


def describe(view: Mapping[str, Any]) -> str:
    lines = [_headline(view)]
    pieces = {p["field"]: p for p in view.get("pieces", [])}
    for tile in sorted(view.get("tiles", []), key=lambda t: t["letter"]):
        laurel = tile["laurel"]
        head = f"Hill {tile['letter']}" + (f" (laurel {laurel})" if laurel else "")
        cells = []
        for f in tile["fields"]:
            spring = " spring" if f["spring"] else ""
            what = _piece_text(pieces[f["name"]]) if f["name"] in pieces else "empty"
            cells.append(f"{f['name']}{spring}: {what}")
        lines.append(f"{head}: " + "; ".join(cells))
    if view.get("laying"):
        laying = view["laying"]
        positions = ", ".join(str(p["number"]) for p in laying["positions"])
        springs = ", ".join(str(d + 1) for d in laying["springs"]) or "none"
        lines.append(
            f"Tile to lay: {laying['tile']} (springs on fields {springs}); free positions: "
            f"{positions}; rotations r0-r5."
        )
    if view["phase"] == PLACING:
        left = ", ".join(f"{seat_name(s)} {n}" for s, n in enumerate(view["left"]))
        lines.append(f"Pieces left: {left}.")
    if "screen" in view and view["phase"] != OVER:
        screen = ", ".join(counted(n, comp.kind_name(k)) for k, n in view["screen"].items())
        lines.append(f"Behind your screen: {screen or 'nothing'}.")
    if view.get("scoring"):
        lines.extend(_scoring_lines(view))
    return _named("\n".join(lines), view)


def _headline(view: Mapping[str, Any]) -> str:
    phase = view["phase"]
    if phase == LAYING:
        return f"Palatinus: laying tiles. {seat_name(view['turn'])} lays the next tile."
    if phase == PLACING:
        free = view["soldier_free_turns"]
        return (
            f"Palatinus: placing inhabitants. {seat_name(view['turn'])} to place. "
            f"No soldier in a player's last {free} turns."
        )
    return "Palatinus: game over."


def _scoring_lines(view: Mapping[str, Any]) -> list[str]:
    names = [seat_name(s) for s in range(view["players"])]
    lines = []
    for hill in view["scoring"]["hills"]:
        parts = [scoring.soldier_text(s) for s in hill["soldiers"]]
        totals = ", ".join(f"{{p{s}}} {t}" for s, t in enumerate(hill["totals"]) if t)
        text = f"Hill {hill['letter']}: " + "; ".join(parts) + ("; " if parts else "")
        text += f"influence {totals or 'none'}; {scoring.award_text(hill)}."
        lines.append(text)
    outcome = view.get("outcome")
    if outcome:
        for seat, (score, parts) in enumerate(
            zip(outcome["scores"], outcome["breakdown"], strict=True)
        ):
            lines.append(
                f"{names[seat]}: {score} VP (laurels {parts['laurels']}, discs {parts['discs']}, "
                f"captures {parts['captures']})"
            )
        lines.append("Ranking: " + placed([([names[s] for s in group], "")
                                           for group in outcome["ranking"]]) + ".")
    return lines
