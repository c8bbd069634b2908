"""Play use cases: a member's move, its preview and confirmation, undo, and computer seats.

A move is committed (group-committed with other tables' moves) before its notice exists, so
nobody is ever told of a move that a crash could lose.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.metrics import ACT_SECONDS, observed
from bot.notices import Notice
from bot.store import DuplicateKey, NewAction, StaleVersion, Status, Step
from bot.tables import gamelog, offload
from bot.tables.live import Live, Loaded
from bot.tables.moves import Chain, Overtaken, commit, computers, news_seats, timed, told
from bot.tables.narration import (
    describe,
    due_computers,
    named_view,
    narrate,
    play_notice,
    private_notices,
    text_names,
)
from bot.text import escape, fill
from bot.values import Member, OutOfDate, Proposal, TableError
from rules.words import listed

ALREADY = "That move was already made."
MOVE_TEXT_LIMIT = 300  # no move in any game's notation comes near it
# How many times a move whose commit another process beat is judged again on the table as it
# is then (each time reading it afresh), before it is refused as out of date.
TYPED_MOVE_TRIES = 3
KEPT_CHANGING = "The game kept changing while your move was played; look again and retry."


class _Again(Exception):
    """The member's own commit found the table moved on: nothing was written, try anew."""


def parse(loaded: Loaded, seat: int, text: str) -> dict[str, Any]:
    """A typed move as the game's action; a member not on turn hears whose turn it is (not the
    hint for the move on turn, which is someone else's)."""
    if seat not in loaded.game.active_seats(loaded.state):
        raise TableError(not_your_turn(loaded))
    if len(text) > MOVE_TEXT_LIMIT:
        raise TableError(f"A move is at most {MOVE_TEXT_LIMIT} characters; "
                         "`/move` lists the legal ones as you type.")
    return loaded.game.parse_action(loaded.state, seat, text)


def not_your_turn(loaded: Loaded) -> str:
    names = [escape(loaded.seats[s].name) for s in sorted(loaded.game.active_seats(loaded.state))]
    if not names:
        return "It is not your turn: nobody can move now."
    if len(names) == 1:
        return f"It is not your turn: it is {names[0]}'s turn."
    return f"It is not your turn: {listed(names)} are still to move."


class PlayCases:
    live: Live

    @observed(ACT_SECONDS)
    async def act(
        self,
        table_id: int,
        member: Member,
        action: Mapping[str, Any] | str,
        *,
        idem_key: str | None = None,
        expected_version: int | None = None,
        expected_fingerprint: str | None = None,
        then_computers: bool = True,
        always: bool = False,
    ) -> Notice:
        """Apply one action of the member's seat (text in the game's notation, or its JSON).

        A repeated ``idem_key`` returns a duplicate notice without applying anything again.
        The move must be made on the position the member saw: ``expected_fingerprint`` (the
        seat's own view and moves) or else ``expected_version``; otherwise ``OutOfDate``.
        With ``then_computers`` false, computer seats due next are left to ``run_computers``
        so the member hears of their own move first. With ``always`` the move becomes the
        member's standing answer: it is played for them whenever it is legal again.

        Another bot process may commit to the table between this one's read and its commit.
        The move is then judged again on the table as it is now: a typed move (or a preview,
        by its fingerprint) is played when still legal, a board's version is checked again
        (a click on a board that really is old is refused)."""
        for _ in range(TYPED_MOVE_TRIES):
            try:
                return await self._act_once(
                    table_id, member, action, idem_key=idem_key,
                    expected_version=expected_version,
                    expected_fingerprint=expected_fingerprint,
                    then_computers=then_computers, always=always)
            except _Again:
                continue  # the lock is let go and the table forgotten: read afresh
        raise OutOfDate(KEPT_CHANGING)

    async def _act_once(
        self,
        table_id: int,
        member: Member,
        action: Mapping[str, Any] | str,
        *,
        idem_key: str | None,
        expected_version: int | None,
        expected_fingerprint: str | None,
        then_computers: bool,
        always: bool,
    ) -> Notice:
        async with self.live.locked(table_id) as loaded:
            table = loaded.table
            if idem_key is not None and await self.live.store.find_action_by_key(
                table_id, idem_key
            ):
                return _duplicate(loaded)
            seat = _playing_seat(loaded, member)
            game, state = loaded.game, loaded.state
            if expected_fingerprint is not None:
                now = await offload.run(f"{game.id}:print", loaded.views().fingerprint, seat)
                if expected_fingerprint != now:
                    raise OutOfDate("Your preview is out of date: the game moved on. Look again.")
            elif expected_version is not None and expected_version != table.version:
                raise OutOfDate("This board is out of date; use the latest one.")
            parsed = parse(loaded, seat, action) if isinstance(action, str) else dict(action)
            transition = await offload.run(f"{game.id}:apply", game.apply, state, seat, parsed)
            chain = Chain(table.version, loaded.views(), movers={seat})
            try:
                await commit(self.live, loaded, [(seat, member.id, parsed, transition, idem_key)],
                                   chain)
            except DuplicateKey:
                return _duplicate(loaded)
            except Overtaken:
                # Only the member's own commit: once it is written, nothing is played twice.
                raise _Again from None
            to_mover = ""
            if always:
                # Told to the member alone: the answer may name what they keep hidden (a Path
                # card before the reveal, the piece under a wolf).
                standing = game.format_action(state, parsed)
                await self.live.store.set_standing(table_id, seat, standing)
                loaded.seats[seat] = replace(loaded.seats[seat], standing=standing)
                to_mover = (f"From now on, “{standing}” will be played for you whenever it is "
                            "legal (only you see this).")
            if then_computers:
                await computers(self.live, loaded, chain)
                notice = await told(self.live, loaded, chain)
            else:
                # Computer replies follow (``run_computers``): private news waits for them,
                # so nobody's views are built twice.
                defer = news_seats(loaded, chain, [seat]) if due_computers(loaded) else ()
                notice = await told(self.live, loaded, chain, defer=defer)
            return replace(notice, to_mover=to_mover) if to_mover else notice

    async def drop_standing(self, table_id: int, member: Member) -> str | None:
        """Forget the member's standing answer; the answer it was, if any."""
        async with self.live.locked(table_id) as loaded:
            seat = loaded.seat_of(member.id)
            if seat is None:
                raise TableError("You do not have a seat in this game.")
            was = loaded.seats[seat].standing
            if was is not None:
                await self.live.store.set_standing(table_id, seat, None)
                loaded.seats[seat] = replace(loaded.seats[seat], standing=None)
            return was

    async def propose(self, table_id: int, member: Member, text: str) -> Proposal:
        """Check a move and show its mover the result, without committing it.

        The move waits in the store for ``confirm``. The preview is the mover's own view after
        it, except for a move that draws or reveals something: showing that result before the
        move counts would let a player peek at a draw and cancel, so such a preview shows the
        board as it is and says the result comes on Confirm.
        """
        loaded = await self.live.load(table_id)
        seat = _playing_seat(loaded, member)
        game, state = loaded.game, loaded.state
        action = parse(loaded, seat, text)
        transition = await offload.run(f"{game.id}:apply", game.apply, state, seat, action)
        notation = game.format_action(state, action)
        seat_print = await offload.run(f"{game.id}:print", loaded.views().fingerprint, seat)
        pending = await self.live.store.add_pending(table_id, member.id, loaded.table.version,
                                                    action, notation, seat_print)
        if transition.irreversible:
            # Its narration would tell the draw before the move counts.
            view = named_view(loaded, state, seat)
            note = "This move draws or reveals something: you see the result once it counts."
            return Proposal(pending, table_id, loaded.table.version, notation, view,
                            f"{note}\n{describe(loaded, view)}", hidden_result=True)
        view = named_view(loaded, transition.state, seat)
        said = fill(narrate(transition.events, seat), text_names(loaded.seats))
        return Proposal(pending, table_id, loaded.table.version, notation, view,
                        describe(loaded, view), said=said)

    async def confirm(self, pending_id: int, member: Member, idem_key: str | None = None,
                      *, then_computers: bool = True) -> Notice:
        """Commit a previewed move while the member's own position is as the preview saw it."""
        pending = await self._take(pending_id, member)
        if pending is None:
            raise OutOfDate("That preview was already used or replaced by a newer one.")
        mine = await self.live.store.last_action_of(pending.table_id, member.id)
        if mine is not None and mine.version > pending.version:
            raise OutOfDate("That preview is out of date: you have moved since.")
        return await self.act(
            pending.table_id, member, pending.action, idem_key=idem_key,
            expected_version=pending.version, expected_fingerprint=pending.fingerprint,
            then_computers=then_computers,
        )

    async def cancel(self, pending_id: int, member: Member) -> None:
        await self._take(pending_id, member)

    async def _take(self, pending_id: int, member: Member) -> Any:
        # The owner is checked before the preview is used up: a forged click spoils nothing.
        try:
            return await self.live.store.take_pending(pending_id, member.id)
        except PermissionError:
            raise TableError("That preview belongs to another player.") from None

    async def undo(self, table_id: int, member: Member, idem_key: str | None = None, *,
                   with_replies: bool = False) -> Notice:
        """Take back the member's last move. With ``with_replies`` the computers' moves that
        followed it go too (the terminal table, where computers answer at once). Nothing that
        drew or revealed something is ever taken back."""
        async with self.live.locked(table_id) as loaded:
            table = loaded.table
            seat = loaded.seat_of(member.id)
            if seat is None:
                raise TableError("You do not have a seat in this game.")
            if table.status != Status.PLAYING:
                raise TableError("Only a game in progress can take back a move.")
            played = gamelog.effective(await self.live.store.actions(table_id))
            if not played:
                raise TableError("There is no move to take back.")
            start = len(played) - 1
            if with_replies:
                while start >= 0 and _computer_move(loaded, played[start]):
                    start -= 1
                if start < 0:
                    raise TableError("You have not moved yet: there is nothing to take back.")
            last = played[start]
            if last.seat != seat or last.record.member_id != member.id:
                raise TableError(
                    "You can only take back your own last move, before anyone else acts."
                )
            if last.record.irreversible:
                raise TableError(
                    "That move revealed something hidden or drew at random; it cannot be undone."
                )
            for reply in played[start + 1:]:
                if reply.record.irreversible:
                    raise TableError(
                        f"{escape(loaded.seats[reply.seat].name)} drew or revealed something "
                        "since your move, so it cannot be taken back."
                    )
            taken = played[start:]
            game = loaded.game
            state = await asyncio.to_thread(
                gamelog.rebuild, game, table, len(loaded.seats), played[:start]
            )
            # One undo entry per move taken back, the latest first; one transaction for all.
            steps = [
                Step(game.dump(state) if entry is taken[0] else None,
                     NewAction("undo", seat, member.id, undoes=entry.record.id,
                               idem_key=idem_key if entry is taken[0] else None))
                for entry in reversed(taken)
            ]
            try:
                version = await self.live.store.record_steps(table_id, table.version, steps)
            except (StaleVersion, DuplicateKey):
                raise OutOfDate("The game changed meanwhile; nothing was undone.") from None
            loaded.table = replace(table, version=version)
            loaded.state = state
            deadlines = (await timed(self.live, loaded, frozenset({seat}))).deadlines
            private = await asyncio.to_thread(
                private_notices, loaded, loaded.views(), None, (), only_seats={seat}
            )
            replies = len(taken) - 1
            said = (f"{{p{seat}}} took back a move" if not replies else
                    f"{{p{seat}}} took back a move and the "
                    f"{'reply' if replies == 1 else f'{replies} replies'} that followed")
            notice = play_notice(loaded, [f"{said}."], private,
                                 since=table.version)
            if deadlines:
                notice.data["deadlines"] = deadlines
            return notice

    async def run_computers(self, table_id: int, continuing: Notice | None = None
                            ) -> Notice | None:
        """Let computer seats that are due act (after a member's move, or a restart).

        ``continuing`` is the notice of the member's move they answer: when nothing came in
        between, the result tells of both moves in one notice (its ``since`` is that notice's).
        """
        async with self.live.locked(table_id) as loaded:
            chain = loaded.chain
            continues = (
                continuing is not None and isinstance(chain, Chain)
                and continuing.version == loaded.table.version and chain.since == continuing.since
            )
            if not due_computers(loaded):
                # The move's private news was left for replies that are no longer due.
                if continues and continuing is not None and continuing.deferred:
                    assert isinstance(chain, Chain)
                    return await told(self.live, loaded, chain)
                return None
            if not continues:
                chain = Chain(loaded.table.version, loaded.views())
            assert isinstance(chain, Chain)
            await computers(self.live, loaded, chain)
            return await told(self.live, loaded, chain)

    async def complete(self, notice: Notice) -> Notice:
        """``notice`` with what it left for the computers' replies (the board, the private
        news), when it is told on its own after all: both of the latest state."""
        if not notice.deferred:
            return notice
        async with self.live.locked(notice.table_id) as loaded:
            if loaded.state is None:
                return replace(notice, deferred=())
            private = await offload.run(
                f"{loaded.game.id}:tell", private_notices, loaded, loaded.views(), None, (),
                only_seats=set(notice.deferred),
            )
            board = named_view(loaded, loaded.state, None)
        return replace(notice, public_view=board, private=tuple(private), deferred=())


def _computer_move(loaded: Loaded, played: gamelog.Played) -> bool:
    return played.record.member_id is None and loaded.seats[played.seat].is_computer


def _duplicate(loaded: Loaded) -> Notice:
    table = loaded.table
    return Notice(table.id, table.game_id, table.version, table.status, ALREADY,
                  duplicate=True, channel_id=table.channel_id)


def _playing_seat(loaded: Loaded, member: Member) -> int:
    status = loaded.table.status
    if status == Status.LOBBY:
        raise TableError("The game has not started yet.")
    if status != Status.PLAYING:
        raise TableError("This game is over.")
    seat = loaded.seat_of(member.id)
    if seat is None:
        raise TableError(f"{escape(member.name)}, you do not have a seat in this game.")
    return seat
