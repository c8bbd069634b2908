"""Plain records the store hands out; no database types leak past the store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

RATING_MU = 25.0  # openskill's defaults: a new player's estimate and its uncertainty
RATING_SIGMA = RATING_MU / 3

class Status(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    ABANDONED = "abandoned"


LIVE = (Status.LOBBY, Status.PLAYING)


@dataclass(frozen=True)
class TableRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    status: str
    creator_id: int
    options: dict[str, Any]
    max_players: int | None
    seat_order: str
    seed: str
    seed_hash: str
    snapshot: dict[str, Any] | None
    version: int
    message_id: int | None
    created_at: str
    updated_at: str
    league_id: int | None = None
    announced: int = 0  # the last version whose announcement reached the channel

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def ended(self) -> bool:
        return self.status in (Status.OVER, Status.ABANDONED)


@dataclass(frozen=True)
class SeatRecord:
    position: int
    member_id: int | None
    name: str
    is_computer: bool
    dm_closed: bool
    level: str | None = None  # a computer seat's level
    standing: str | None = None  # a move played for the member whenever it is legal


@dataclass(frozen=True)
class ActionRecord:
    id: int
    version: int
    kind: str  # "act" or "undo"
    seat: int | None
    member_id: int | None
    action: dict[str, Any] | None
    text: str | None
    irreversible: bool
    undoes: int | None
    idem_key: str | None
    created_at: str
    notation: str | None = None


@dataclass(frozen=True)
class NewAction:
    """A log entry to append together with the new snapshot."""

    kind: str
    seat: int | None
    member_id: int | None
    action: dict[str, Any] | None = None
    text: str | None = None
    irreversible: bool = False
    undoes: int | None = None
    idem_key: str | None = None
    notation: str | None = None


@dataclass(frozen=True)
class Step:
    """One committed change of a table: its new snapshot and status, and its log entry. The
    table keeps only the latest snapshot, so in a list of steps written together only the
    last needs one (``None`` before it spares encoding states nobody reads)."""

    snapshot: dict[str, Any] | None
    entry: NewAction
    status: str = Status.PLAYING


@dataclass(frozen=True)
class PendingMove:
    """A previewed move waiting for its player's Confirm."""

    id: int
    table_id: int
    member_id: int
    version: int
    action: dict[str, Any]
    text: str
    fingerprint: str | None = None


# -- leagues -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueSettings:
    """How a league runs, chosen at ``/league-admin create``."""

    channel_id: int | None = None
    min_seats: int | None = None
    max_seats: int | None = None
    computers: bool = False
    min_reliability: float = 0.0
    carry: float = 0.0
    points: str | None = None  # points per place, e.g. '3,1,0'; None: shared 1 to 0


@dataclass(frozen=True, kw_only=True)
class LeagueRecord(LeagueSettings):
    """A league: the settings it was created with, and what the store and its admins add."""

    id: int
    guild_id: int
    name: str
    game_id: str
    created_by: int
    created_at: str
    closed: bool
    signups_open: bool = True
    cap: int | None = None  # most members signed up at once; None: any number
    checkin: bool = False  # a round pairs only the members who checked in for it
    # An open check-in window: its close (the round opens then), that round's length in
    # seconds, and whether it then opens each next round at its deadline.
    checkin_closes: str | None = None
    checkin_round: int | None = None
    checkin_auto: bool = False


@dataclass(frozen=True)
class LeagueMemberRecord:
    member_id: int
    name: str
    joined_at: str
    active: bool


@dataclass(frozen=True)
class SeasonRecord:
    id: int
    league_id: int
    number: int
    started_at: str
    ends_on: str | None
    ended_at: str | None
    carry: float

    @property
    def running(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class RoundRecord:
    id: int
    league_id: int
    season_id: int | None
    number: int
    created_at: str
    closed_at: str | None = None  # None while the round is open
    deadline: str | None = None  # ISO time the round's unfinished tables are settled
    auto_next: int | None = None  # seconds the next round gets, opened at the deadline
    opened_at: str | None = None  # None while its tables are still being opened
    reminded: int = 0  # deadline reminders: 1 looked at, 2 and 3 told a day, an hour before

    @property
    def open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True)
class RoundSlot:
    """One table of a round's plan (slot -1: the members sitting out), stored before any
    table is made; ``channel_id`` and ``table_id`` are filled in as it opens."""
    slot: int
    members: list[tuple[int, str]]  # (member id, name), best rating first
    computers: int = 0
    channel_id: int | None = None
    table_id: int | None = None


@dataclass(frozen=True)
class ForfeitRecord:
    table_id: int
    seat: int
    member_id: int
    name: str
    reason: str
    at: str


@dataclass(frozen=True)
class LeagueRating:
    """A member's rating in one scope (openskill's mu and sigma) and what it counts."""

    mu: float = RATING_MU
    sigma: float = RATING_SIGMA
    games: int = 0
    wins: int = 0
    forfeits: int = 0

    @property
    def shown(self) -> float:
        """The conservative estimate players see: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class LeaguePlace:
    """One seat's finish. ``member_id`` is None for a computer seat (never rated)."""

    seat: int
    member_id: int | None
    name: str
    place: int  # 1 is best; tied seats share a place
    forfeited: bool = False
    score: float | None = None  # the in-game score, when the game ended on the board


@dataclass(frozen=True)
class LeagueResult:
    league_id: int
    guild_id: int
    game_id: str
    table_id: int
    finished_at: str
    places: tuple[LeaguePlace, ...]
    season_id: int | None = None
    round_id: int | None = None
    abandoned: bool = False
    id: int = 0
    voided: str | None = None  # why an organiser voided it; None: it counts


# -- asynchronous play: table timing, seat clocks, turns, reminders, seat changes ----------


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
    offered: bool = False  # the vote offered the seat to a substitute until the next firing


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
    paused_at: int | None = None  # when the table's clock stopped (None: it runs)


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


def last_snapshot(steps: Sequence[Step]) -> dict[str, Any]:
    """The snapshot steps leave the table with: the last step's, which must have one."""
    snapshot = steps[-1].snapshot
    if snapshot is None:
        raise ValueError("the last step of a change must carry the table's snapshot")
    return snapshot
