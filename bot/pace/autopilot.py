"""What the computer plays for a seat out of time: the table's computer player at the table's
level (``bot.tables.computers.decide``), or the game's legal pass under the ``skip`` policy."""

from __future__ import annotations

from rules.core import Action, Game, State

PASS_TYPES = ("pass",)


def pass_action(game: Game, state: State, seat: int) -> Action | None:
    """The game's legal pass for this seat now, if it has one."""
    for action in game.legal_actions(state, seat):
        if action.get("type") in PASS_TYPES:
            return action
    return None
