"""Committing moves and telling of them: shared by the start of a game and by play.

Consecutive moves of one table (a member's, then the computer seats' replies) form a chain that
is told of in one notice, whose private views are built once, from the latest state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.notices import Notice, SeatNotice
from bot.store import NewAction, StaleVersion, Status, Step
from bot.tables import offload
from bot.tables.computers import decide
from bot.tables.live import Live, Loaded, Views
from bot.tables.narration import narrate, play_notice, private_notices
from bot.values import OutOfDate
from rules.core import Event, Transition

MAX_COMPUTER_STEPS = 5_000  # a bound on computer moves chained after one human move

Move = tuple[int, int | None, dict[str, Any], Transition, str | None]
"""seat, member id (None for a computer), action, its transition, idempotency key."""


@dataclass
class Chain:
    since: int  # the table version before the first move of the chain
    before: Views | None  # the views then (None: tell every seat, as at the start)
    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


async def commit(live: Live, loaded: Loaded, moves: list[Move], chain: Chain) -> None:
    """Write consecutive moves of one table as one all-or-nothing step list."""
    game, table = loaded.game, loaded.table
    steps = []
    state = loaded.state
    for seat, member_id, action, transition, idem_key in moves:
        status = Status.OVER if game.outcome(transition.state) is not None else Status.PLAYING
        notation = game.format_action(state, action)
        line = narrate(transition.events, None)
        entry = NewAction(
            "act", seat, member_id, action=action, text=line or notation,
            irreversible=transition.irreversible, idem_key=idem_key, notation=notation,
        )
        steps.append(Step(game.dump(transition.state), entry, status))
        chain.lines.append(line)
        chain.events.extend(transition.events)
        state = transition.state
    try:
        version = await live.store.record_steps(table.id, table.version, steps)
    except StaleVersion:
        raise OutOfDate("This board is out of date; use the latest one.") from None
    # The in-memory copy now holds what was just written; nothing is read back.
    loaded.table = replace(table, version=version, status=steps[-1].status)
    loaded.state = state
    loaded.chain = chain


async def computers(live: Live, loaded: Loaded, chain: Chain) -> None:
    """Computer seats act until a member must act or the game ends; their moves are
    committed together, in one transaction."""
    game, table = loaded.game, loaded.table
    moves: list[Move] = []
    state, version = loaded.state, table.version
    levels = {s.position: s.level for s in loaded.seats}
    seats = {s.position for s in loaded.seats if s.is_computer}
    for _ in range(MAX_COMPUTER_STEPS):
        if game.outcome(state) is not None:
            break
        due = sorted(seats & game.active_seats(state))
        if not due:
            break
        seat = due[0]
        action = await decide(game, state, seat, levels.get(seat), table.seed, version,
                              live.thinker)
        transition = await offload.run(f"{game.id}:apply", game.apply, state, seat, action)
        moves.append((seat, None, action, transition, None))
        state, version = transition.state, version + 1
    if moves:
        await commit(live, loaded, moves, chain)


async def told(loaded: Loaded, chain: Chain, *, every_human: bool = False) -> Notice:
    private: list[SeatNotice] = await offload.run(
        f"{loaded.game.id}:tell", private_notices, loaded, loaded.views(), chain.before,
        chain.events, every_human=every_human,
    )
    return play_notice(loaded, chain.lines, private, since=chain.since)
