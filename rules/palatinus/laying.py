"""Tile laying (spec 3.2, 4): the drawn tile goes to a free ring position, in one of 6 rotations.

The first outer tile may take any of the 12 positions, which fixes the handedness; every later
tile goes to a free position of the same set next (on the ring) to an outer tile already laid.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core import Action, Event, IllegalAction, InvalidAction, Transition
from rules.palatinus.geometry import RING, RING_BY_NUMBER, ring_neighbours
from rules.palatinus.state import PLACING, PalatinusState, Tile


def free_positions(state: PalatinusState) -> list[int]:
    """Ring positions (1-12) where the drawn tile may go now."""
    outer = [t.position for t in state.tiles if t.position != 0]
    if not outer:
        return [p.number for p in RING]
    hand = RING_BY_NUMBER[outer[0]].hand
    taken = set(outer)
    return [
        p.number
        for p in RING
        if p.hand == hand
        and p.number not in taken
        and any(n in taken for n in ring_neighbours(p.number))
    ]


def legal_lays(state: PalatinusState) -> list[Action]:
    return [
        {"type": "lay", "position": pos, "rotation": rot}
        for pos in free_positions(state)
        for rot in range(6)
    ]


def _whole(action: Action, key: str) -> int:
    value: Any = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction(f"A lay needs a {key} number.")
    return value


def apply_lay(state: PalatinusState, seat: int, action: Action) -> Transition:
    position = _whole(action, "position")
    rotation = _whole(action, "rotation")
    letter = state.current_tile
    assert letter is not None  # the laying phase always has a drawn tile
    free = free_positions(state)
    if position not in free:
        allowed = ", ".join(str(p) for p in free)
        raise IllegalAction(f"Lay tile {letter} on a free numbered position: {allowed}.")
    if not 0 <= rotation <= 5:
        raise IllegalAction("The rotation is r0 to r5.")
    tiles = (*state.tiles, Tile(letter, position, rotation))
    events = [
        Event(
            "tile_laid",
            {"seat": seat, "letter": letter, "position": position, "rotation": rotation},
            None,
            f"{{p{seat}}} laid tile {letter} on position {position}, turned r{rotation}.",
        )
    ]
    irreversible = False
    if state.tile_stack:
        nxt = (seat + 1) % state.players
        drawn = state.tile_stack[0]
        events.append(
            Event(
                "tile_drawn",
                {"seat": nxt, "letter": drawn},
                None,
                f"{{p{nxt}}} draws tile {drawn} to lay next.",
            )
        )
        # Drawing from a shuffled pile reveals something nobody knew: no undo past it.
        irreversible = state.config.tile_order is None
        new = replace(
            state, tiles=tiles, tile_stack=state.tile_stack[1:], current_tile=drawn, turn=nxt
        )
        return Transition(new, tuple(events), irreversible)

    outer = sorted(t.letter for t in tiles if t.position != 0)
    laurels = (*state.laurels, *zip(outer, state.laurel_stack, strict=True))
    laurels = tuple(sorted(laurels))
    dealt = ", ".join(f"{k} {v}" for k, v in laurels)
    events.append(
        Event(
            "laurels_dealt",
            {"laurels": {k: v for k, v in laurels}},
            None,
            f"The board is complete. Laurels on the hills: {dealt}.",
        )
    )
    first = state.start_seat
    events.append(
        Event(
            "placement_begins",
            {"seat": first},
            None,
            f"Placing inhabitants begins with {{p{first}}}.",
        )
    )
    irreversible = state.config.laurel_order is None
    new = replace(
        state,
        tiles=tiles,
        current_tile=None,
        laurel_stack=(),
        laurels=laurels,
        phase=PLACING,
        turn=first,
    )
    return Transition(new, tuple(events), irreversible)
