"""``/tables`` for server managers: every game in progress on the server with what it waits
for (whom and since when, a pause, absent seats, an open vote), oldest wait first, stalled ones
marked, each with a link to its latest board."""

from __future__ import annotations

from dataclasses import dataclass

from bot.pace.model import DAY
from bot.pace.scheduler import Scheduler
from bot.store import Status
from bot.store.records import TableRecord
from bot.text import escape
from rules import GAMES

STALLED_PERIODS = 3  # a wait this many periods long (a week without a pace) is stalled
STALLED_UNTIMED = 7 * DAY
STALLED_PAUSE = 7 * DAY


@dataclass(frozen=True)
class TableState:
    table: TableRecord
    since: int  # the oldest open wait (or the pause), epoch seconds
    lines: tuple[str, ...]
    stalled: bool

    @property
    def text(self) -> str:
        title = GAMES[self.table.game_id].title if self.table.game_id in GAMES \
            else self.table.game_id
        where = f"https://discord.com/channels/{self.table.guild_id}/{self.table.channel_id}"
        if self.table.message_id:
            where += f"/{self.table.message_id}"
        mark = "⚠️ stalled: " if self.stalled else ""
        return f"- {mark}{title} {where}: " + "; ".join(self.lines)


async def server_tables(scheduler: Scheduler, guild_id: int) -> list[TableState]:
    """The server's games in progress, the longest waiting first."""
    now = scheduler.now()
    found = []
    for table in await scheduler.store.tables_with_status(Status.PLAYING):
        if table.guild_id == guild_id:
            found.append(await _state(scheduler, table, now))
    return sorted(found, key=lambda s: (s.since, s.table.id))


async def _state(scheduler: Scheduler, table: TableRecord, now: int) -> TableState:
    timing = await scheduler.timing(table.id)
    turns = await scheduler.store.open_turns(table.id)
    clocks = await scheduler.store.seat_clocks(table.id)
    clock = await scheduler.store.table_clock(table.id)
    names = {s.position: escape(s.name) for s in await scheduler.tables.seats(table.id)}
    lines, stalled = [], False
    since = min((t.started_at for t in turns.values()), default=now)
    if clock is not None and clock.paused_at is not None:
        lines.append(f"paused since <t:{clock.paused_at}:R>")
        since = min(since, clock.paused_at)
        stalled |= now - clock.paused_at > STALLED_PAUSE
    for seat, turn in sorted(turns.items()):
        what = f"waiting on {names.get(seat, '?')} since <t:{turn.started_at}:R>"
        if turn.vote_due is not None:
            what += f", a vote open until <t:{turn.vote_due}:R>"
        elif turn.fired_at is not None:
            what += ", out of time (the table waits)"
            stalled = True
        elif turn.due_at is not None:
            what += f", deadline <t:{turn.due_at}:R>"
        lines.append(what)
        limit = STALLED_PERIODS * timing.period if timing.timed else STALLED_UNTIMED
        stalled |= now - turn.started_at > limit
    absent = [names.get(s, "?") for s, c in sorted(clocks.items()) if c.absent]
    if absent:
        lines.append("absent: " + ", ".join(absent))
    return TableState(table, since, tuple(lines) or ("nobody to wait on",), stalled)
