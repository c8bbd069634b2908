"""Committing moves and telling of them: shared by the start of a game and by play.

Consecutive moves of one table (a member's, then the computer seats' replies) form a chain that
is told of in one notice, whose private views are built once, from the latest state. After
each change the table's deadlines are planned (``Live.timing``), under the table's lock.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.metrics import MOVES
from bot.notices import Notice, SeatNotice
from bot.store import ActionRecord, NewAction, StaleVersion, Status, Step
from bot.tables import gamelog, offload
from bot.tables.computers import decide, standing_move
from bot.tables.live import Live, Loaded, Timed, Views
from bot.tables.narration import narrate, play_notice, private_notices
from bot.values import OutOfDate
from rules.core import Event, Transition
from rules.words import counted

log = logging.getLogger(__name__)

MAX_COMPUTER_STEPS = 5_000  # a bound on computer moves chained after one human move
RECAP_LINES = 12  # "since your last turn" keeps the latest events
# Where a narration line tells a next event of the same doer ("{p1} builds. {p1} pays 2."):
# a sentence that starts with a seat. The recap gives each event its own line.
EVENT_START = re.compile(r"(?<=[.!])\s+(?=\{p\d+\})")

Move = tuple[int, int | None, dict[str, Any], Transition, str | None]
"""seat, member id (None for a computer or the autopilot), action, its transition, key."""


class Overtaken(OutOfDate):
    """Another process changed the table between the read and the commit (``StaleVersion``):
    nothing was written."""


@dataclass
class Chain:
    since: int  # the table version before the first move of the chain
    before: Views | None  # the views then (None: tell every seat, as at the start)
    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    timed: Timed = field(default_factory=Timed)  # deadlines after the chain's last change
    movers: set[int] = field(default_factory=set)  # seats whose member moved in person


async def timed(live: Live, loaded: Loaded, movers: frozenset[int] = frozenset(),
                autopiloted: frozenset[int] = frozenset()) -> Timed:
    """Plan the table's deadlines after a change. A failure here must not look like a failed
    move (the move is committed); the scheduler plans every table again when it starts."""
    if live.timing is None:
        return Timed()
    try:
        return await live.timing.after_commit(loaded, movers, autopiloted)
    except Exception:
        log.exception("could not plan the deadlines of table %s", loaded.table.id)
        return Timed()


async def commit(live: Live, loaded: Loaded, moves: list[Move], chain: Chain, *,
                 headline: str | None = None, autopiloted: frozenset[int] = frozenset()
                 ) -> None:
    """Write consecutive moves of one table as one all-or-nothing step list. ``headline``
    goes before the first move's narration (in the log too), e.g. why the computer moved."""
    game, table = loaded.game, loaded.table
    steps = []
    state = loaded.state
    for number, (seat, member_id, action, transition, idem_key) in enumerate(moves, 1):
        status = Status.OVER if game.outcome(transition.state) is not None else Status.PLAYING
        notation = game.format_action(state, action)
        line = narrate(transition.events, None)
        if headline:
            line, headline = " ".join(t for t in (headline, line) if t), None
        entry = NewAction(
            "act", seat, member_id, action=action,
            text=line or f"{{p{seat}}} played {notation}.",
            irreversible=transition.irreversible, idem_key=idem_key, notation=notation,
        )
        last = number == len(moves)  # the table keeps the last snapshot only
        steps.append(Step(game.dump(transition.state) if last else None, entry, status))
        chain.lines.append(line)
        chain.events.extend(transition.events)
        state = transition.state
    movers = frozenset(m[0] for m in moves)
    after = replace(table, version=table.version + len(steps), status=steps[-1].status)
    # The table's deadlines are planned in the moves' own transaction: no commit more.
    planning = None if live.timing is None else live.timing.planning(
        Loaded(after, loaded.seats, game, state), movers, autopiloted)
    try:
        version, turns = await live.store.record_steps_planned(
            table.id, table.version, steps, None if planning is None else planning.request)
    except StaleVersion:
        raise Overtaken("This board is out of date; use the latest one.") from None
    MOVES.inc(len(steps))
    # The in-memory copy now holds what was just written; nothing is read back.
    loaded.table = replace(after, version=version)
    loaded.state = state
    loaded.chain = chain
    if planning is not None and turns is not None:
        chain.timed = planning.told(turns)
    elif planning is not None:  # planning failed inside the transaction: try on its own
        chain.timed = await timed(live, loaded, movers, autopiloted)
    if loaded.table.status == Status.OVER:
        await game_over(live, table.id)


async def game_over(live: Live, table_id: int) -> None:
    """Tell ``Live.on_over`` (the league's results) that a game ended. A failure here must not
    look like a failed move (it is committed); a restart records what was missed."""
    if live.on_over is None:
        return
    try:
        await live.on_over(table_id)
    except Exception:
        log.exception("could not record the end of table %s", table_id)


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
        active = game.active_seats(state)
        due = sorted(seats & active)
        member_id: int | None = None
        if due:
            seat = due[0]
            action = await decide(game, state, seat, levels.get(seat), table.seed, version,
                                  live.thinker, table_id=table.id)
        else:
            # A member's standing answer, played for them whenever it is legal.
            standing = [(s, a) for s in loaded.seats if s.position in active
                        and (a := standing_move(game, state, s)) is not None]
            if not standing:
                break
            (rec, action), seat = standing[0], standing[0][0].position
            member_id = rec.member_id
        transition = await offload.run(f"{game.id}:apply", game.apply, state, seat, action)
        moves.append((seat, member_id, action, transition, None))
        state, version = transition.state, version + 1
    if moves:
        await commit(live, loaded, moves, chain)


async def told(live: Live, loaded: Loaded, chain: Chain, *, every_human: bool = False,
               defer: tuple[int, ...] = ()) -> Notice:
    """The notice of a chain of moves. With ``defer`` (the seats that may have private news),
    no private view is built: the computers' replies that follow continue the chain, and
    their notice tells those seats of the whole of it from the latest state."""
    every_human = every_human or chain.before is None  # a chain from the start tells all
    if defer:
        private: list[SeatNotice] = []
    else:
        recaps = {} if every_human else await recaps_for(live, loaded, chain)
        private = await offload.run(
            f"{loaded.game.id}:tell", private_notices, loaded, loaded.views(), chain.before,
            chain.events, every_human=every_human, recaps=recaps, movers=chain.movers,
        )
    notice = play_notice(loaded, chain.lines, private, since=chain.since, deferred=defer)
    if chain.timed.deadlines:
        notice.data["deadlines"] = dict(chain.timed.deadlines)
    return notice


def news_seats(loaded: Loaded, chain: Chain, movers: Iterable[int]) -> tuple[int, ...]:
    """The human seats a chain may have private news for, found without building a view: the
    movers and the seats its events are addressed to. Only used when the chain's own notice
    could not be told with the replies that followed it, a rare race."""
    humans = {s.position for s in loaded.seats if not s.is_computer}
    seats = set(movers) | {t for e in chain.events if e.to is not None for t in e.to}
    return tuple(sorted(seats & humans))


async def recaps_for(live: Live, loaded: Loaded, chain: Chain) -> dict[int, str]:
    """For each member whose turn comes with this chain: what happened since their own
    previous move, grouped by who did it (a template with seat placeholders)."""
    game, state, before = loaded.game, loaded.state, chain.before
    if state is None or before is None or loaded.table.status != Status.PLAYING:
        return {}
    coming = game.active_seats(state) - game.active_seats(before.state)
    seats = [s.position for s in loaded.seats if s.position in coming and not s.is_computer
             and s.member_id is not None and s.member_id not in chain.timed.no_dm]
    if not seats:
        return {}
    last, records = await live.store.since_last_moves(loaded.table.id, seats)
    recaps = {}
    for seat in seats:
        lines = recap([r for r in records if r.version > last.get(seat, 0)], seat)
        if lines:
            recaps[seat] = "\n".join(["Since your last turn:", *lines])
    return recaps


def recap(records: list[ActionRecord], seat: int) -> list[str]:
    """What the other seats' moves did, one event a line (a move's narration holds a line
    per event); the latest ``RECAP_LINES`` lines, with how many earlier ones were left out."""
    lines = [f"- {event.strip()}" for played in gamelog.effective(records)
             if played.seat != seat and played.record.text
             for line in played.record.text.splitlines()
             for event in EVENT_START.split(line) if event.strip()]
    if len(lines) > RECAP_LINES:
        left = len(lines) - RECAP_LINES
        lines = [f"- {counted(left, 'earlier event')}: `/history` lists them.",
                 *lines[-RECAP_LINES:]]
    return lines
