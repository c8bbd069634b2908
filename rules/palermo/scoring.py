"""The end of the game (spec 7.6, 7.7): scores, ranking with the tie-break, breakdown."""

from __future__ import annotations

from rules.core import Outcome, rank_by, tie_notes
from rules.palermo.state import OVER, PalermoState


def breakdown(state: PalermoState, seat: int) -> dict[str, int]:
    return {
        "income": state.income[seat],
        "home_leftover": state.leftover[seat],
        "waiting_bonus": state.bonus[seat],
        "total": state.score(seat),
    }


def outcome(state: PalermoState) -> Outcome | None:
    if state.phase != OVER:
        return None
    seats = range(state.players)
    scores = tuple(state.score(s) for s in seats)
    if state.config.tie_break == "first_home":
        # Earlier home ranks higher among equal scores.
        keys = [(scores[s], -state.home_order.index(s)) for s in seats]
        note = "Ties go to the player who got home first."
    else:
        keys = [(scores[s], 0) for s in seats]
        note = "Equal scores share their place."
    return Outcome(
        scores=scores,
        ranking=rank_by(keys),
        breakdown=tuple(breakdown(state, s) for s in seats),
        notes=(note, *tie_notes(keys, ("getting home first",))),
    )
