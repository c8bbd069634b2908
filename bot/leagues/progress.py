"""A round's progress, for ``/league round``: its tables, finished or playing, whom each
playing table waits for, and the round's deadline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.leagues import Leagues
from bot.leagues.report import safe_name
from bot.store import RoundRecord, Status
from bot.tables import Tables
from bot.values import TableError


@dataclass(frozen=True)
class TableProgress:
    channel_id: int
    status: str
    seats: tuple[str, ...]
    waiting: tuple[str, ...] = ()  # the seats a playing table waits for


@dataclass(frozen=True)
class RoundProgress:
    league: str
    round: RoundRecord
    latest: int  # the league's latest round
    tables: tuple[TableProgress, ...]


async def round_progress(leagues: Leagues, tables: Tables, guild_id: int, name: str,
                         number: int | None) -> RoundProgress:
    """Round ``number`` of the league (its latest when None); ``TableError`` saying which
    rounds there are when it has no such round."""
    league = await leagues.named(guild_id, name)
    rounds = sorted(await tables.store.rounds(league.id), key=lambda r: r.number)
    if not rounds:
        raise TableError(f"{safe_name(league.name)} has had no round yet.")
    latest = rounds[-1].number
    chosen = rounds[-1] if number is None else next(
        (r for r in rounds if r.number == number), None)
    if chosen is None:
        raise TableError(f"{safe_name(league.name)} has rounds 1 to {latest}; "
                         f"there is no round {number}.")
    shown = []
    for table in await tables.store.round_tables(chosen.id):
        if table.status == Status.PLAYING:
            loaded = await tables.live.load(table.id)
            seats, waiting = loaded.seats, tuple(s.name for s in loaded.waiting())
        else:
            seats, waiting = await tables.seats(table.id), ()
        shown.append(TableProgress(table.channel_id, str(table.status),
                                   tuple(s.name for s in seats), waiting))
    return RoundProgress(league.name, chosen, latest, tuple(shown))


def table_doing(status: str, waiting: Sequence[str]) -> str:
    """What a round's table is doing, in words (``waiting``: names already made safe for
    where they are shown)."""
    if status == Status.PLAYING:
        return f"playing, waits for {', '.join(waiting) or 'the computer'}"
    if status == Status.LOBBY:
        return "not started yet"
    return "finished" if status == Status.OVER else "abandoned"


def progress_text(progress: RoundProgress, now: datetime) -> str:
    """The round's head line, then a line per table; names are cleaned and capped."""
    round_ = progress.round
    over = sum(t.status in (Status.OVER, Status.ABANDONED) for t in progress.tables)
    state = "open" if round_.open else "closed"
    if round_.open and round_.opened_at is None:
        state = "still being set up"
    head = f"**{safe_name(progress.league)}**, round {round_.number} of {progress.latest}: {state}"
    if round_.deadline and round_.open:
        when = datetime.fromisoformat(round_.deadline)
        at = int(when.timestamp())
        head += (f"; deadline <t:{at}:f> (<t:{at}:R>)" if when > now
                 else "; its deadline has passed: its tables are being settled")
    lines = [f"{head}. {over} of {len(progress.tables)} tables finished."]
    for n, table in enumerate(progress.tables, start=1):
        who = ", ".join(safe_name(s) for s in table.seats)
        doing = table_doing(table.status, [safe_name(s) for s in table.waiting])
        lines.append(f"{n}. <#{table.channel_id}> ({who}): {doing}")
    return "\n".join(lines)
