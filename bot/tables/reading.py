"""Reading use cases: status, views, legal moves, history and the replay file."""

from __future__ import annotations

import asyncio

from bot.notices import Notice, SeatNotice
from bot.store import ActionRecord, SeatRecord, Status, TableRecord
from bot.store.announcing import Claim
from bot.tables import gamelog, offload
from bot.tables.live import Live
from bot.tables.narration import (
    describe,
    lobby_notice,
    play_notice,
    seat_notice,
    text_names,
)
from bot.text import fill
from bot.values import Member, TableError
from rules import ENTRIES


class ReadingCases:
    live: Live

    async def table_in(self, channel_id: int) -> TableRecord:
        """The channel's live table."""
        table = await self.live.store.live_table(channel_id)
        if table is None:
            raise TableError("There is no game in this channel. Open one with `/game new`.")
        return table

    async def table_for(self, table_id: int) -> TableRecord:
        """The table as the database has it (with its snapshot)."""
        table = await self.live.store.get_table(table_id)
        if table is None:
            raise TableError("That game no longer exists.")
        return table

    async def tables_of(self, member_id: int) -> list[TableRecord]:
        return await self.live.store.tables_of_member(member_id)

    async def status(self, table_id: int) -> Notice:
        loaded = await self.live.load(table_id)
        if loaded.table.status == Status.LOBBY:
            return lobby_notice(loaded.table, loaded.game, loaded.seats, "")
        return play_notice(loaded, [], [])

    async def private_view(self, table_id: int, member: Member) -> SeatNotice:
        loaded = await self.live.load(table_id)
        seat = loaded.seat_of(member.id)
        if seat is None:
            raise TableError("You do not have a seat in this game.")
        if loaded.state is None:
            raise TableError("The game has not started yet.")
        return await asyncio.to_thread(seat_notice, loaded, loaded.views(), seat, "")

    async def public_view(self, table_id: int) -> tuple[str, dict[str, object]]:
        loaded = await self.live.load(table_id)
        if loaded.state is None:
            raise TableError("The game has not started yet.")
        view = {**loaded.views().of(None), "names": [s.name for s in loaded.seats]}
        return describe(loaded, view), view

    async def legal_moves(self, table_id: int, member: Member) -> list[str]:
        """The member's legal actions in the game's notation (empty when not their turn),
        computed off the loop once per table version."""
        loaded = await self.live.load(table_id)
        if loaded.table.status != Status.PLAYING or loaded.state is None:
            return []
        seat = loaded.seat_of(member.id)
        if seat is None:
            return []
        views = loaded.views()
        ready = views.built_texts(seat)
        return ready if ready is not None else await offload.run(
            f"{loaded.game.id}:moves", views.texts, seat
        )

    async def moves_hint(self, table_id: int) -> str:
        """What to type in ``/move`` to find one of many moves, in the table's game's words."""
        return (await self.live.load(table_id)).game.moves_hint()

    async def finishing_words(self, table_id: int) -> tuple[str, ...]:
        """First words of the table's game's moves that finish a turn ("pass", "done")."""
        entry = ENTRIES.get((await self.live.record(table_id)).game_id)
        return entry.finishing_words if entry is not None else ()

    async def idle_reason(self, table_id: int, member: Member) -> str:
        """What is true for a member with nothing to do at this table: no seat, the game's
        state, or whom it waits on (several: the member's part is done for now)."""
        loaded = await self.live.load(table_id)
        seat = loaded.seat_of(member.id)
        if seat is None:
            return "You do not have a seat in this game."
        if loaded.table.status == Status.LOBBY or loaded.state is None:
            return "The game has not started yet."
        if loaded.table.status != Status.PLAYING:
            return "This game is over."
        names = text_names(loaded.seats)
        active = sorted(loaded.game.active_seats(loaded.state))
        waiting = " and ".join(names[s] for s in active)
        if len(active) > 1:
            return f"Your part is done for now: waiting on {waiting}."
        return f"Nothing to do for you right now: it is {waiting}'s turn."

    async def seat_print(self, table_id: int, member: Member) -> str | None:
        """The member's seat's own position (view and moves), to check a menu against."""
        loaded = await self.live.load(table_id)
        seat = loaded.seat_of(member.id)
        if seat is None or loaded.state is None:
            return None
        return await offload.run(f"{loaded.game.id}:print", loaded.views().fingerprint, seat)

    async def last_notation(self, table_id: int, member: Member) -> str | None:
        """The member's own last move in the game's notation (for a shortlist of moves)."""
        record = await self.live.store.last_action_of(table_id, member.id)
        return record.notation if record else None

    async def history(self, channel_id: int) -> list[str]:
        table = await self._latest(channel_id)
        seats = await self.live.store.seats(table.id)
        played = gamelog.effective(await self.live.store.actions(table.id))
        changes = await self.live.store.seat_changes(table.id)
        return gamelog.history_lines(text_names(seats), played, changes)

    async def export(self, channel_id: int) -> dict[str, object]:
        table = await self._latest(channel_id)
        seats = await self.live.store.seats(table.id)
        played = gamelog.effective(await self.live.store.actions(table.id))
        return gamelog.replay_file(table, [s.name for s in seats], played)

    async def seats(self, table_id: int) -> list[SeatRecord]:
        return list((await self.live.load(table_id)).seats)

    async def catch_up(self, table_id: int) -> Notice | None:
        """What was committed but never announced (a crash came between): the notice of the
        latest version, with the board. The versions before it are missed versions to the
        front end, each told in a message of its own from the log."""
        table = await self.live.store.get_table(table_id)
        if table is None or table.announced >= table.version or table.snapshot is None:
            return None
        loaded = await self.live.load(table_id)
        last = await self.live.store.actions(table_id, after_version=table.version - 1)
        return play_notice(loaded, [_told(r) for r in last], [], since=table.version - 1)

    async def told_lines(self, table_id: int, after: int, upto: int) -> list[str]:
        """The channel narration of versions ``after + 1`` to ``upto``, names filled in."""
        loaded = await self.live.load(table_id)
        names = text_names(loaded.seats)
        records = await self.live.store.actions(table_id, after_version=after)
        return [fill(_told(r), names) for r in records if r.version <= upto]

    async def mark_announced(self, table_id: int, version: int,
                             message_id: int | None = None) -> None:
        """``version`` reached the channel, in the board message ``message_id`` (the latest
        board, for jump links)."""
        await self.live.store.mark_announced(table_id, version, message_id)

    async def claim_announcement(self, table_id: int, since: int, version: int, by: str,
                                 now: int, lease: int) -> Claim:
        """The next versions ``by`` may post towards ``since + 1 .. version``
        (``bot.store.announcing``)."""
        return await self.live.store.claim_announcement(table_id, since, version, by, now,
                                                        lease)

    async def unannounced(self) -> list[TableRecord]:
        return await self.live.store.unannounced()

    async def mark_dm_closed(self, table_id: int, member_id: int, closed: bool = True) -> None:
        await self.live.store.set_dm_closed(table_id, member_id, closed)
        self.live.forget(table_id)

    async def _latest(self, channel_id: int) -> TableRecord:
        table = await self.live.store.latest_table(channel_id)
        if table is None:
            raise TableError("No game has been played in this channel.")
        return table


def _told(record: ActionRecord) -> str:
    """An entry of the log as the channel heard it (a template with seat placeholders)."""
    if record.kind == "undo":
        return f"{{p{record.seat}}} took back a move."
    return record.text or ""
