"""The part of the store interface that asynchronous play uses (``bot.pace``): table and league
timing, pauses, seat clocks, turns with their deadlines, reminders, member settings, DM
dashboards, seats changing hands and votes. Times are epoch seconds.

No method hands out a connection: planning after a move is a ``PlanRequest`` (a pure planner
over plain inputs) that the store writes in the move's own transaction. Firing a deadline or a
reminder is an atomic claim, so each fires once even with several processes on one database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bot.store.records import ActionRecord, Step
from bot.store.timing_records import (
    DashboardRecord,
    PlanRequest,
    ReminderRecord,
    SeatChange,
    SeatClock,
    TableClock,
    TurnRecord,
    WaitingTurn,
)


class TimingStore(Protocol):
    # -- a move and its planned turns, together --------------------------------------------

    async def record_steps_planned(
        self, table_id: int, expected_version: int, steps: Sequence[Step],
        plan: PlanRequest | None,
    ) -> tuple[int, dict[int, TurnRecord] | None]:
        """``record_steps``, then ``plan`` written in the same transaction. A failure of the
        plan undoes only its own writes, never the moves; its open turns are None then."""

    async def write_plan(self, plan: PlanRequest) -> dict[int, TurnRecord]:
        """Plan a table's turns in a transaction of its own; the open turns by seat."""

    # -- timing and pauses ------------------------------------------------------------------

    async def set_table_timing(self, table_id: int, timing: dict[str, Any]) -> None: ...

    async def set_league_timing(self, league_id: int, timing: dict[str, Any] | None) -> None:
        """A league's pace for its tables (None: each table chooses its own)."""

    async def timing_in_force(self, table_id: int) -> tuple[dict[str, Any] | None, bool]:
        """The timing a table plays at (None: no limit), and whether its league imposes it."""

    async def table_clock(self, table_id: int) -> TableClock | None: ...

    async def seat_clocks(self, table_id: int) -> dict[int, SeatClock]: ...

    async def pause_table(self, table_id: int, at: int, by: int, reason: str,
                          timing: dict[str, Any]) -> bool:
        """Stop a table's clock; False if it was already paused."""

    async def resume_table(self, table_id: int, at: int) -> int | None:
        """Restart a paused table's clock, open deadlines and reminders moved on by the pause;
        the seconds paused, or None if it was not paused."""

    # -- turns and reminders ----------------------------------------------------------------

    async def open_turns(self, table_id: int) -> dict[int, TurnRecord]: ...

    async def get_turn(self, turn_id: int) -> TurnRecord | None: ...

    async def due_turns(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Open turns past their deadline, not yet fired, at tables that are not paused."""

    async def claim_turn(self, turn_id: int, now: int) -> bool:
        """Mark a deadline fired (its round goes up by one); True for exactly one caller,
        whatever the processes."""

    async def set_deadline(self, turn_id: int, due_at: int | None, reminder_at: int | None,
                           extra: int, refire: bool) -> bool:
        """An open turn's deadline planned again, with the time the table added (``extra``).
        A fired turn is left alone unless ``refire`` (it waits for its new deadline then); a
        turn under an open vote is always left alone. When the deadline changes, its unsent
        reminder is replaced by one at ``reminder_at``. True when the deadline changed."""

    async def open_vote(self, turn_id: int, round_: int, vote_due: int) -> bool:
        """Open the vote on a fired turn's ``round_``, ending at ``vote_due``; True for exactly
        one caller (none once that round's vote opened or ended)."""

    async def due_votes(self, now: int, limit: int = 100) -> list[TurnRecord]:
        """Turns whose open vote ended, at tables that are not paused."""

    async def close_vote(self, turn_id: int, round_: int) -> bool:
        """End the vote of that round; True for exactly one caller. The turn's ``vote_state``
        is 'closing' until ``vote_carried_out``."""

    async def vote_carried_out(self, turn_id: int, round_: int) -> None:
        """What the round's vote decided was done (``vote_state`` 'done')."""

    async def closing_votes(self, limit: int = 100) -> list[TurnRecord]:
        """Open turns whose ended vote is not carried out yet (``vote_state`` 'closing'), at
        tables that are not paused."""

    async def waiting_turns(self, member_id: int) -> list[WaitingTurn]:
        """Every live table, on every server, that waits on the member: oldest wait first."""

    async def add_reminder(self, turn_id: int, table_id: int, member_id: int, due_at: int
                           ) -> None: ...

    async def due_reminders(self, now: int, limit: int = 200) -> list[ReminderRecord]: ...

    async def claim_reminder(self, reminder_id: int, now: int) -> bool:
        """Mark a reminder sent; True for exactly one caller, whatever the processes."""

    async def move_reminder(self, reminder_id: int, due_at: int) -> None: ...

    # -- members, dashboards, seats ---------------------------------------------------------

    async def add_member_event(self, member_id: int, table_id: int, kind: str, turn_id: int,
                               at: int) -> None:
        """One event of a member's reliability record ("finished", "abandoned" once per
        table; "missed" once per turn)."""

    async def member_events(self, member_id: int) -> list[tuple[int, str, int]]:
        """A member's reliability events (table, kind, when), oldest first."""

    async def forget_member_event(self, member_id: int, table_id: int, kind: str) -> None:
        """Remove the member's events of that kind at that table (one who came back to a
        game they play on has not abandoned it)."""

    async def server_settings(self, guild_id: int) -> dict[str, Any] | None:
        """A server's defaults for asynchronous play (None: never set)."""

    async def save_server_settings(self, guild_id: int, values: dict[str, Any], at: int
                                   ) -> None: ...

    async def member_settings(self, member_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Stored settings of these members (members without any are left out)."""

    async def save_member_settings(self, values: dict[str, Any], at: int) -> None: ...

    async def take_dashboards(self, limit: int = 50) -> list[DashboardRecord]:
        """Dashboards whose tables changed since their last edit, marked as edited."""

    async def dashboard_posted(self, member_id: int, channel_id: int | None,
                               message_id: int | None) -> None: ...

    async def substitute_seat(
        self, table_id: int, seat: int, member_id: int, name: str, by: int, at: int,
        expected_version: int,
    ) -> int:
        """Give a seat to another member; ``AlreadySeated`` if they hold another seat."""

    async def seat_changes(self, table_id: int) -> list[SeatChange]: ...

    async def set_absent(self, table_id: int, seat: int, absent: bool) -> None:
        """Mark a seat absent, or present again (its autopilot streak back to zero)."""

    async def cast_vote(self, turn_id: int, round_: int, member_id: int, choice: str, at: int
                        ) -> dict[int, str]:
        """Record (or change) a member's vote on a seat out of time in this round (a vote of
        an earlier round is replaced); returns the round's votes by member."""

    async def votes_cast(self, turn_id: int, round_: int) -> dict[int, str]: ...

    async def set_dms_refused(self, member_id: int, refused: bool, at: int) -> None:
        """Whether Discord refuses DMs to the member (50007), until a DM gets through."""

    async def since_last_moves(self, table_id: int, seats: Iterable[int]
                               ) -> tuple[dict[int, int], list[ActionRecord]]:
        """Each seat's latest move (its version), and the log after the earliest of them."""
