"""What a use case asks the front end to deliver: plain data, no Discord types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeatNotice:
    """Private news for one seat: its own view and what only it may read."""

    seat: int
    member_id: int | None
    name: str
    text: str
    view: dict[str, Any]
    dm_closed: bool = False
    version: int = 0  # the table version this view belongs to
    fingerprint: str = ""  # the seat's own position (view and moves) at that version
    # The whole state as this seat sees it, in words: behind a "Text view" button, never
    # stacked above the news in ``text``.
    state: str = ""
    recap: str = ""  # what happened since the seat's last turn, as its turn comes


@dataclass(frozen=True)
class Notice:
    """The result of a use case.

    ``public_text`` goes to the channel with an image of ``public_view`` (when set);
    ``private`` goes to each listed seat by DM; ``next_members`` are mentioned once.
    ``since`` is the version before the first change the notice tells of (``None`` for a
    notice that tells of no committed move, such as a lobby change): the front end announces
    moves once and in order by it.
    """

    table_id: int
    game_id: str
    version: int
    status: str
    public_text: str
    public_view: dict[str, Any] | None = None
    private: tuple[SeatNotice, ...] = ()
    next_members: tuple[int, ...] = ()
    next_names: tuple[str, ...] = ()
    duplicate: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    channel_id: int = 0
    since: int | None = None
    computers_due: bool = False  # computer seats act next (``Tables.run_computers``)
    # Seats whose private news (and the board) waits for the computers' replies, told with
    # them in one notice (``Tables.run_computers``); ``Tables.complete`` adds both if this
    # notice goes out alone.
    deferred: tuple[int, ...] = ()
    # For the member who made the move only (an ephemeral answer), never the channel: e.g.
    # their new standing answer, which may name what they keep hidden.
    to_mover: str = ""
    # The seat a post is about: the first to act, or the winner (its colour marks the card).
    lead_seat: int | None = None

    @property
    def over(self) -> bool:
        return self.status in ("over", "abandoned")
