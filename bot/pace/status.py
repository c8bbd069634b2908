"""What ``/game status`` and ``/rules`` show of a table's time: its pace, its out-of-time
policy and level, a pause, and each seat's deadline, bank, absence, holiday, a table that waits
for a seat out of time, and an open vote with who has voted."""

from __future__ import annotations

from datetime import datetime

from bot.pace.model import Mode, span
from bot.pace.scheduler import Scheduler
from bot.store.records import TurnRecord
from bot.text import escape


async def status_lines(scheduler: Scheduler, table_id: int) -> str:
    chosen = await scheduler.timing(table_id)
    lines = [chosen.describe()]
    round_ = await scheduler.store.round_of_table(table_id)
    if round_ is not None and round_.open and round_.deadline:
        # A league round's deadline holds whatever the pace: the whole table's last moment.
        when = int(datetime.fromisoformat(round_.deadline).timestamp())
        lines.append(f"Round {round_.number} ends <t:{when}:R> (<t:{when}:f>): if this table "
                     "is unfinished then, the seats it waits for forfeit.")
    clock = await scheduler.store.table_clock(table_id)
    if clock is not None and clock.paused_at is not None:
        lines.append(f"Paused since <t:{clock.paused_at}:R>: {escape(clock.pause_reason or '')}")
    seats = await scheduler.tables.seats(table_id)
    turns = await scheduler.store.open_turns(table_id)
    banks = await scheduler.store.seat_clocks(table_id)
    members = await scheduler.settings_of(s.member_id for s in seats if s.member_id)
    names = {s.member_id: s.name for s in seats if s.member_id}
    now = scheduler.now()
    for seat in seats:
        bits = []
        turn = turns.get(seat.position)
        if turn is not None:
            voters = {s.member_id for s in seats
                      if s.member_id is not None and s.position != seat.position}
            bits.append(await _turn_text(scheduler, turn, names, voters))
        held = banks.get(seat.position)
        if chosen.mode is Mode.BANK and not seat.is_computer:
            bits.append(f"bank {span(held.bank if held else chosen.period)}")
        if held is not None and held.absent:
            bits.append("absent (the computer plays; any action here or `/game back` ends it)")
        away = members[seat.member_id].away_text(now) if seat.member_id else None
        if away is not None:
            bits.append(away)
        if bits:
            lines.append(f"{seat.position + 1}. {escape(seat.name)}: " + ", ".join(bits))
    return "\n".join(lines)


async def _turn_text(scheduler: Scheduler, turn: TurnRecord, names: dict[int, str],
                     voters: set[int]) -> str:
    if turn.vote_due is not None:
        # Who voted, not how: the count says how far the vote is from its end.
        votes = [m for m in await scheduler.store.votes_cast(turn.id, turn.round)
                 if m in voters]
        who = ", ".join(escape(names.get(m, str(m))) for m in sorted(votes)) or "nobody yet"
        return (f"out of time; the table votes until <t:{turn.vote_due}:R>: "
                f"{len(votes)} of {len(voters)} voted ({who})")
    if turn.offered and turn.fired_at is None and turn.due_at is not None:
        return (f"the table looks for a substitute until <t:{turn.due_at}:R>; then the "
                "computer plays the seat")
    if turn.fired_at is not None:
        return f"out of time since <t:{turn.fired_at}:R>; the table waits for them"
    if turn.due_at is not None:
        return f"deadline <t:{turn.due_at}:R> (<t:{turn.due_at}:f>)"
    return f"waited on since <t:{turn.started_at}:R>"
