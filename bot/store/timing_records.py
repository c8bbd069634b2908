"""Records of asynchronous play the store hands out: table timing, seat clocks, turns (each
with its deadline), reminders, member settings and seat changes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TableClock:
    """A table's timing (as JSON, see ``bot.pace.model.Timing``) and whether it is paused."""

    table_id: int
    timing: dict[str, Any]
    paused_at: int | None = None
    paused_by: int | None = None
    pause_reason: str | None = None


@dataclass(frozen=True)
class SeatClock:
    seat: int
    bank: int = 0  # seconds left (bank pace)
    streak: int = 0  # consecutive moves the computer played for this seat
    absent: bool = False
    holiday_used: int = 0  # seconds of holiday this seat's member took at this table


@dataclass(frozen=True)
class TurnRecord:
    """A seat's wait for one move: open until the seat moves; its deadline fires at most once."""

    id: int
    table_id: int
    seat: int
    member_id: int | None
    since_version: int
    started_at: int
    due_at: int | None  # None: no time limit
    fired_at: int | None
    ended_at: int | None
    extra: int = 0  # seconds the table added to the deadline (vote, extension, return)
    round: int = 0  # how many times the deadline fired; votes count per round
    vote_due: int | None = None  # an open vote on the seat ends then
    # 'closing': the vote ended and what it decided is being done; 'done': it was.
    vote_state: str | None = None


@dataclass(frozen=True)
class NewTurn:
    seat: int
    member_id: int | None
    since_version: int
    started_at: int
    due_at: int | None
    reminder_at: int | None


@dataclass(frozen=True)
class ReminderRecord:
    id: int
    turn_id: int
    table_id: int
    member_id: int
    due_at: int


@dataclass(frozen=True)
class WaitingTurn:
    """An open turn of a member, with what ``/turns`` shows of its table."""

    table_id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    message_id: int | None
    seat: int
    started_at: int
    due_at: int | None
    paused: bool


@dataclass(frozen=True)
class SeatChange:
    table_id: int
    seat: int
    old_member_id: int | None
    new_member_id: int
    old_name: str
    new_name: str
    by_member_id: int
    at: int
    version: int  # the table version the change made


@dataclass(frozen=True)
class DashboardRecord:
    """A member's DM dashboard: where its message is (None: not sent yet)."""

    member_id: int
    channel_id: int | None
    message_id: int | None


@dataclass(frozen=True)
class PlanInputs:
    """What planning turns after a commit reads, in the commit's transaction."""

    timing: dict[str, Any] | None  # the table's timing row (None: no limit)
    clocks: dict[int, SeatClock]
    open_turns: dict[int, TurnRecord]
    settings: dict[int, dict[str, Any]]  # stored member settings, by member


@dataclass(frozen=True)
class PlanRows:
    """What planning decided: turns to end, turns to start, seat clocks to save."""

    end_turns: list[int]
    new_turns: list[NewTurn]
    clocks: list[SeatClock]


@dataclass(frozen=True)
class PlanRequest:
    """Planning a table's turns after a change, which the store writes in the change's own
    transaction (so a move costs no commit more): it reads the ``PlanInputs`` there, calls
    ``planner`` (a pure function of plain data, no connection) and writes the ``PlanRows``:
    ends and starts turns (with their reminder), saves seat clocks. A turn already started for
    the same seat and version is kept. Without a planner the table ended: its open turns end.
    The write returns the table's open turns by seat."""

    table_id: int
    member_ids: tuple[int, ...]
    now: int
    planner: Callable[[PlanInputs], PlanRows] | None = None
