"""What the scheduler asks a front end to deliver: plain data, no Discord types."""

from __future__ import annotations

from dataclasses import dataclass

from bot.notices import Notice
from bot.store.records import WaitingTurn
from rules import GAMES


@dataclass(frozen=True)
class MoveNotice:
    """A move the scheduler made for a seat (autopilot or pass): post it like any move."""

    notice: Notice


@dataclass(frozen=True)
class SeatOffer:
    """A seat the table looks for a substitute for: posted with a button to take it."""

    table_id: int
    seat: int
    old: int  # the member it is taken from (the button works while they still hold it)
    by: int  # who stands behind the offer (the table's creator, for a vote)


@dataclass(frozen=True)
class TableMessage:
    """A line for a table's channel (the table waits; the vote's result)."""

    channel_id: int
    text: str
    mentions: tuple[int, ...] = ()
    seek: SeatOffer | None = None  # a "Take this seat" button goes with the line


@dataclass(frozen=True)
class VoteRequest:
    """The other members of a table vote on a seat that ran out of time."""

    channel_id: int
    table_id: int
    turn_id: int
    seat: int
    name: str  # escaped, ready for message text
    voters: tuple[int, ...]
    round: int  # the turn's round (each firing of its deadline): votes count per round
    ends_at: int  # the vote's own deadline


@dataclass(frozen=True)
class VoteEnded:
    """A vote was decided: its message says how it ended and loses its buttons."""

    channel_id: int
    turn_id: int
    round: int
    text: str  # the vote message's new text, names escaped


@dataclass(frozen=True)
class Reminder:
    """One reminder to one member, listing every table that waits on them."""

    member_id: int
    waiting: tuple[WaitingTurn, ...]
    by_dm: bool = True
    dms_refused: bool = False  # Discord refused an earlier DM: by mention until one works

    @property
    def text(self) -> str:
        lines = ["Your move is awaited:"]
        lines += [waiting_line(w) for w in self.waiting]
        return "\n".join(lines)


@dataclass(frozen=True)
class Dashboard:
    """A member's DM dashboard, to edit in place (or to send, when it has no message yet)."""

    member_id: int
    waiting: tuple[WaitingTurn, ...]
    channel_id: int | None
    message_id: int | None
    at: int  # when it was drawn up

    @property
    def text(self) -> str:
        head = f"Your tables (as of <t:{self.at}:R>; `/settings dashboard:false` stops this):"
        if not self.waiting:
            return f"{head}\nNo table waits on you."
        return "\n".join([head, *(waiting_line(w) for w in self.waiting)])


def jump_link(w: WaitingTurn) -> str:
    """A link to the table's latest board when known, else to its channel."""
    if w.guild_id is None:
        return f"<#{w.channel_id}>"
    link = f"https://discord.com/channels/{w.guild_id}/{w.channel_id}"
    return f"{link}/{w.message_id}" if w.message_id else link


def waiting_line(w: WaitingTurn) -> str:
    title = GAMES[w.game_id].title if w.game_id in GAMES else w.game_id
    line = f"- {title}: {jump_link(w)}, waiting since <t:{w.started_at}:R>"
    if w.paused:
        line += ", paused"
    elif w.due_at is not None:
        line += f", deadline <t:{w.due_at}:R> (<t:{w.due_at}:f>)"
    return line


def next_line(w: WaitingTurn) -> str:
    """After a move, where the mover is awaited next (Yucata's "next game")."""
    return "Your next game waiting: " + waiting_line(w).removeprefix("- ")


def deadline_text(due_at: int) -> str:
    """How a turn mention shows a deadline: relative and in the reader's own time."""
    return f"<t:{due_at}:R> (<t:{due_at}:f>)"
