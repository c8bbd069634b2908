"""Pebbles as the registry offers it: the seat on the move also sees the cards it may play.

That help, shown only on a seat's turn, makes the turn news for the seat (a DM that offers its
moves), as Palermo's reachable cells do. The plain ``Pebbles`` keeps the bot's tests of a game
whose turns bring no news.
"""

from __future__ import annotations

from typing import Any

from .engine import Pebbles


class HelpedPebbles(Pebbles):
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        if seat is not None and seat in self.active_seats(state):
            out["playable"] = sorted(set(state["hands"][seat]))
        return out


GAME = HelpedPebbles()
