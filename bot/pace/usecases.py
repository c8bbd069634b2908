"""Table use cases of asynchronous play: a move made for a seat out of time, and a seat
handed to a substitute. They run under the table's lock like every other use case and commit
through ``bot.tables.moves``, so their notices are told like any move."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.notices import Notice
from bot.pace.autopilot import pass_action
from bot.store import AlreadySeated, DuplicateKey, StaleVersion, Status
from bot.store.records import TurnRecord
from bot.tables import offload
from bot.tables.computers import decide
from bot.tables.live import Live
from bot.tables.moves import Chain, commit, computers, timed, told
from bot.tables.narration import play_notice, seat_notice
from bot.values import Member, OutOfDate, TableError


async def move_for(live: Live, turn: TurnRecord, level: str, prefer_pass: bool
                   ) -> Notice | None:
    """The computer moves for a seat whose time ran out (a pass when asked and legal), then
    computer seats due next answer; all told in one notice.

    Nothing happens when the seat moved meanwhile (its turn ended). The log entry's key is
    the turn's, so a move made for a deadline is never made twice, even after a crash."""
    async with live.locked(turn.table_id) as loaded:
        current = await live.store.get_turn(turn.id)
        if current is None or current.ended_at is not None:
            return None
        game, state, seat, table = loaded.game, loaded.state, turn.seat, loaded.table
        if table.status != Status.PLAYING or state is None:
            return None
        if seat not in game.active_seats(state):
            return None
        action = pass_action(game, state, seat) if prefer_pass else None
        how = "passes for them" if action is not None else "plays for them"
        if action is None:
            action = await decide(game, state, seat, level, table.seed, table.version,
                                  live.thinker, table_id=table.id)
        transition = await offload.run(f"{game.id}:apply", game.apply, state, seat, action)
        chain = Chain(table.version, loaded.views())
        try:
            await commit(live, loaded, [(seat, None, dict(action), transition,
                                         f"deadline:{turn.id}")], chain,
                         headline=f"Time ran out for {{p{seat}}}; the computer {how}.",
                         autopiloted=frozenset({seat}))
        except (DuplicateKey, OutOfDate):
            return None
        await computers(live, loaded, chain)
        return await told(live, loaded, chain)


async def substitute(live: Live, table_id: int, seat: int, newcomer: Member, by: Member,
                     at: int) -> Notice:
    """``newcomer`` takes ``seat``: decided by the table's creator, a server manager, or the
    seat's own member handing it on. The newcomer's private view comes with the notice (to be
    sent by DM at once); the old member no longer reaches the seat."""
    async with live.locked(table_id) as loaded:
        table = loaded.table
        if table.status != Status.PLAYING or loaded.state is None:
            raise TableError("Seats change hands only while the game is on.")
        if not 0 <= seat < len(loaded.seats):
            raise TableError(f"Seats are numbered 1 to {len(loaded.seats)}.")
        old = loaded.seats[seat]
        if old.member_id != by.id and by.id != table.creator_id and not by.is_admin:
            raise TableError("Only the table's creator, a server manager or the seat's own "
                             "player can hand a seat to someone else.")
        if old.is_computer:
            raise TableError("That seat is a computer player's.")
        if old.member_id == newcomer.id:
            raise TableError("That member already holds this seat.")
        try:
            version = await live.store.substitute_seat(
                table.id, seat, newcomer.id, newcomer.name, by.id, at, table.version)
        except AlreadySeated:
            raise TableError("That member already has a seat at this table.") from None
        except StaleVersion:
            raise OutOfDate("The game changed meanwhile; try again.") from None
        loaded.table = replace(table, version=version)
        loaded.seats = await live.store.seats(table_id)
        deadlines = (await timed(live, loaded)).deadlines
        private = [await asyncio.to_thread(seat_notice, loaded, loaded.views(), seat,
                                           f"You now play seat {seat + 1} of this game.")]
        # The old member by mention (shown, never pinged): a name is never put in a template.
        text = f"{{p{seat}}} takes over seat {seat + 1} from <@{old.member_id}>."
        notice = play_notice(loaded, [text], private, since=table.version)
        if deadlines:
            notice.data["deadlines"] = deadlines
        return notice
