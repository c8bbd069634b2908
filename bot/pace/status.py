"""What ``/game status`` and ``/rules`` show of a table's time: its pace, its out-of-time
policy and level, a pause, and each waiting seat's deadline, bank or absence."""

from __future__ import annotations

from bot.pace.model import Mode, span
from bot.pace.scheduler import Scheduler
from bot.text import escape


async def status_lines(scheduler: Scheduler, table_id: int) -> str:
    chosen = await scheduler.timing(table_id)
    lines = [chosen.describe()]
    clock = await scheduler.store.table_clock(table_id)
    if clock is not None and clock.paused_at is not None:
        lines.append(f"Paused since <t:{clock.paused_at}:R>: {escape(clock.pause_reason or '')}")
    seats = await scheduler.tables.seats(table_id)
    turns = await scheduler.store.open_turns(table_id)
    banks = await scheduler.store.seat_clocks(table_id)
    for seat in seats:
        bits = []
        turn = turns.get(seat.position)
        if turn is not None and turn.due_at is not None:
            bits.append(f"deadline <t:{turn.due_at}:R> (<t:{turn.due_at}:f>)")
        elif turn is not None:
            bits.append(f"waited on since <t:{turn.started_at}:R>")
        held = banks.get(seat.position)
        if chosen.mode is Mode.BANK and not seat.is_computer:
            bits.append(f"bank {span(held.bank if held else chosen.period)}")
        if held is not None and held.absent:
            bits.append("absent (the computer plays)")
        if bits:
            lines.append(f"{seat.position + 1}. {escape(seat.name)}: " + ", ".join(bits))
    return "\n".join(lines)
