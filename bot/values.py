"""The values the table use cases take and give: who is asking, a previewed move, and the
errors a player can cause at a table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.text import clean_name
from rules.core import RulesError


class TableError(RulesError):
    """A player mistake at the table level (no table, no seat, out of date, not allowed)."""


class OutOfDate(TableError):
    pass


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    is_admin: bool = False  # Manage Server, or the front end's equivalent

    def __post_init__(self) -> None:
        # Names come from members: cleaned and capped once, here, for every use case.
        object.__setattr__(self, "name", clean_name(self.name))


@dataclass(frozen=True)
class Proposal:
    """A previewed move: what it is, and the mover's view after it."""

    pending_id: int
    table_id: int
    version: int
    text: str
    view: dict[str, Any]
    description: str
    hidden_result: bool = False  # the view is the board before the move (see ``propose``)
    said: str = ""  # the move in a sentence, as the table will be told it
