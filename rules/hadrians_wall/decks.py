"""The shared Fate deck: draws in arrival order, and the reshuffle of spec 2.7 (a design choice:
when the draw pile is empty, the discard pile is shuffled into a new one; cards face up in an
attack being resolved are not in the discard pile yet, so they stay out)."""

from __future__ import annotations

from rules.hadrians_wall.state import State, Work


def can_draw(st: State) -> bool:
    return bool(st.fate_draw) or (bool(st.options["fate_reshuffle"]) and bool(st.fate_discard))


def draw_fate(w: Work) -> str | None:
    """The top card of the draw pile (None when no card is left and reshuffling is off)."""
    if not w.fate_draw:
        if not w.options["fate_reshuffle"] or not w.fate_discard:
            return None
        w.fate_draw = w.shuffled(w.fate_discard)
        w.fate_discard = []
        w.emit("reshuffle", "The Fate discard pile is shuffled into a new draw pile.")
    w.irreversible = True
    return w.fate_draw.pop(0)
