"""Table use cases of asynchronous play: a move made for a seat out of time, and a seat
handed to a substitute. They run under the table's lock like every other use case."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.narration import Loaded, narrate, play_notice, private_notices, seat_notice
from bot.notices import Notice
from bot.pace.autopilot import choose_action, pass_action
from bot.store import AlreadySeated, DuplicateKey, StaleVersion
from bot.store.timing_records import TurnRecord
from bot.tables import Tables
from bot.values import Member, OutOfDate, TableError
from rules.core import derive_seed


async def move_for(tables: Tables, turn: TurnRecord, level: str, prefer_pass: bool
                   ) -> Notice | None:
    """The computer moves for a seat whose time ran out (a pass when asked and legal).

    Nothing happens when the seat moved meanwhile (its turn ended). The log entry's key is
    the turn's, so a move made for a deadline is never made twice, even after a crash."""
    async with tables._lock(turn.table_id):
        current = await tables.store.get_turn(turn.id)
        if current is None or current.ended_at is not None:
            return None
        table = await tables.table_for(turn.table_id)
        if table.status != "playing":
            return None
        loaded = await tables._load(table)
        game, state, seat = loaded.game, loaded.state, turn.seat
        if state is None or seat not in game.active_seats(state):
            return None
        action = pass_action(game, state, seat) if prefer_pass else None
        how = "passes for them" if action is not None else "plays for them"
        if action is None:
            action = choose_action(game, state, seat, level,
                                   derive_seed(table.seed, table.version, seat, "autopilot"))
        transition = await asyncio.to_thread(game.apply, state, seat, action)
        try:
            await tables._commit(loaded, seat, None, dict(action), transition,
                                 f"deadline:{turn.id}")
        except (DuplicateKey, OutOfDate):
            return None
        before = state
        loaded.state = transition.state
        said = narrate(transition.events, None)
        lines = [f"Time ran out for {loaded.seats[seat].name}; the computer {how}."
                 + (f" {said}" if said else "")]
        private = await asyncio.to_thread(
            private_notices, loaded, transition.state, before, transition.events
        )
        return await tables._run_computers(loaded, lines, private, frozenset({seat}),
                                           frozenset({seat}))


async def substitute(tables: Tables, table_id: int, seat: int, newcomer: Member, by: Member,
                     at: int) -> Notice:
    """``newcomer`` takes ``seat``: decided by the table's creator, a server manager, or the
    seat's own member handing it on. The newcomer's private view comes with the notice (to be
    sent by DM at once); the old member no longer reaches the seat."""
    async with tables._lock(table_id):
        table = await tables.table_for(table_id)
        if table.status != "playing":
            raise TableError("Seats change hands only while the game is on.")
        loaded = await tables._load(table)
        if not 0 <= seat < len(loaded.seats):
            raise TableError(f"Seats are numbered 1 to {len(loaded.seats)}.")
        old = loaded.seats[seat]
        own = old.member_id == by.id
        if not own and by.id != table.creator_id and not by.is_admin:
            raise TableError("Only the table's creator, a server manager or the seat's own "
                             "player can hand a seat to someone else.")
        if old.is_computer:
            raise TableError("That seat is a computer player's.")
        if old.member_id == newcomer.id:
            raise TableError("That member already holds this seat.")
        try:
            version = await tables.store.substitute_seat(
                table.id, seat, newcomer.id, newcomer.name, by.id, at, table.version)
        except AlreadySeated:
            raise TableError("That member already has a seat at this table.") from None
        except StaleVersion:
            raise OutOfDate("The game changed meanwhile; try again.") from None
        assert loaded.state is not None
        tables._remember(table.id, version, loaded.state)
        loaded = Loaded(replace(table, version=version), await tables.store.seats(table_id),
                        loaded.game, loaded.state)
        private = [seat_notice(loaded, seat, loaded.state,
                               f"You now play seat {seat + 1} (was {old.name}).")]
        text = f"{newcomer.name} takes over seat {seat + 1} from {old.name}."
        notice = play_notice(loaded, [text], private)
        notice.data.update(await tables._timed(loaded, frozenset()))
        return notice
