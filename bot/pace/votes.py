"""The vote on a seat out of time (policy ``vote``): the other members choose to remove the
seat (the computer plays it), to wait another period, or to look for a substitute.

A vote belongs to one round of the turn (each time its deadline fires). It ends as soon as a
majority of the voters agree or everyone has voted, else at its own deadline: half the
table's period, at least a minute, at most a day. Then the choice with most votes wins; on a
tie, or when nobody voted, the computer plays this one move for the seat (as ``autopilot``
would: after ``absent_after`` of those in a row the seat counts as absent)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bot.pace.deadlines import Deadlines, afresh
from bot.pace.model import DAY, MINUTE
from bot.pace.notices import (
    MoveNotice,
    SeatOffer,
    TableMessage,
    VoteEnded,
    VoteRequest,
    deadline_text,
)
from bot.pace.table_time import TableTime
from bot.pace.usecases import move_for
from bot.store.records import TurnRecord
from bot.text import escape
from bot.values import Member, TableError

VOTE_CHOICES = ("remove", "wait", "substitute")
Decided = list[MoveNotice | TableMessage | VoteRequest | VoteEnded]


class VoteOver(TableError):
    """A vote given on a vote that has ended."""


def vote_span(period: int) -> int:
    """How long a vote stays open."""
    return min(DAY, max(MINUTE, period // 2))


def outcome(votes: dict[int, str]) -> str | None:
    """The choice with most votes; None on a tie or without votes."""
    ranked = Counter(votes.values()).most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def settled(votes: dict[int, str], voters: tuple[int, ...]) -> bool:
    """Whether the votes end the vote before its deadline: all voted, or a majority agrees."""
    counted = {m: c for m, c in votes.items() if m in voters}
    top = Counter(counted.values()).most_common(1)
    return len(counted) >= len(voters) or bool(top and top[0][1] * 2 > len(voters))


class Votes:
    def __init__(self, time: TableTime, deadlines: Deadlines) -> None:
        self.time, self.deadlines = time, deadlines
        self.store, self.tables = time.store, time.tables

    async def voters(self, table_id: int, seat: int) -> tuple[int, ...]:
        return tuple(s.member_id for s in await self.tables.seats(table_id)
                     if s.member_id is not None and s.position != seat)

    async def open_vote(self, turn: TurnRecord) -> Decided:
        """The turn's deadline fired under ``vote``: ask the other members."""
        fired = await self.store.get_turn(turn.id)
        if fired is None or fired.ended_at is not None:
            return []
        table = await self.tables.live.record(turn.table_id)
        timing = await self.time.timing(table.id)
        voters = await self.voters(table.id, turn.seat)
        if fired.offered:
            # The table sought a substitute and nobody took the seat in time (as decided
            # then, whoever has come or gone since).
            return await self.unclaimed(table.id, table.channel_id, fired)
        ends = self.time.now() + (vote_span(timing.period) if voters else 0)
        if not await self.store.open_vote(fired.id, fired.round, ends):
            return []  # opened already (a process starting while another fired it)
        if not voters:
            return await self.conclude(replace(fired, vote_due=ends))
        seats = await self.tables.seats(table.id)
        return [VoteRequest(table.channel_id, table.id, fired.id, fired.seat,
                            escape(seats[fired.seat].name), voters, fired.round, ends)]

    async def vote(self, turn_id: int, round_: int, member: Member, choice: str) -> Decided:
        """A member's vote; the vote ends at once when a majority agrees or all have voted."""
        if choice not in VOTE_CHOICES:
            raise TableError("Vote remove, wait or substitute.")
        turn = await self.store.get_turn(turn_id)
        if turn is None or turn.ended_at is not None or turn.vote_due is None \
                or turn.round != round_:
            raise VoteOver("That vote is over: the seat has moved or was decided.")
        voters = await self.voters(turn.table_id, turn.seat)
        if member.id not in voters:
            raise TableError("Only the other players at this table vote.")
        votes = await self.store.cast_vote(turn.id, round_, member.id, choice, self.time.now())
        if not settled(votes, voters):
            return []
        return await self.conclude(turn)

    async def decided_early(self, turn: TurnRecord) -> Decided:
        """An open vote its votes already decide (a crash came between the deciding vote and
        its end): ended now rather than at its deadline."""
        voters = await self.voters(turn.table_id, turn.seat)
        if not settled(await self.store.votes_cast(turn.id, turn.round), voters):
            return []
        return await self.conclude(turn)

    async def conclude(self, turn: TurnRecord) -> Decided:
        """End the turn's vote (once, whoever gets here first) and do what it decided."""
        if turn.vote_due is None or not await self.store.close_vote(turn.id, turn.round):
            return []
        return await self.carry_out(turn)

    async def carry_out(self, turn: TurnRecord) -> Decided:
        """Do what the turn's ended vote decided, from the votes of its round (final once it
        ended). Run again on start for a vote a crash left half done (``vote_state``
        'closing'): every step is harmless twice (the computer's move has the turn's key)."""
        out = await self._decided(turn)
        offered = any(isinstance(x, TableMessage) and x.seek is not None for x in out)
        await self.store.vote_carried_out(turn.id, turn.round, offered)
        return out

    async def unclaimed(self, table_id: int, channel_id: int, turn: TurnRecord) -> Decided:
        """Nobody took a seat the table offered to a substitute: the computer plays it."""
        name = escape((await self.tables.seats(table_id))[turn.seat].name)
        await self.store.set_absent(table_id, turn.seat, True)
        await self.time.gone(table_id, turn.member_id)
        timing = await self.time.timing(table_id)
        notice = await move_for(self.tables.live, turn, timing.level, False)
        out: Decided = [TableMessage(channel_id, f"Nobody took {name}'s seat in time: the "
                                     "computer plays it from now on.")]
        if notice is not None:
            out.append(MoveNotice(notice))
        return out

    async def _decided(self, turn: TurnRecord) -> Decided:
        table = await self.tables.live.record(turn.table_id)
        voters = await self.voters(table.id, turn.seat)
        votes = {m: c for m, c in (await self.store.votes_cast(turn.id, turn.round)).items()
                 if m in voters}
        won = outcome(votes)
        name = escape((await self.tables.seats(table.id))[turn.seat].name)
        timing = await self.time.timing(table.id)
        how = {"wait": "wait another period", "substitute": "look for a substitute",
               "remove": "remove the seat; the computer plays it"}.get(
            won or "", f"no majority ({'a tie' if votes else 'nobody voted'}); the computer "
            "played that move for them")
        ended = VoteEnded(table.channel_id, turn.id, turn.round,
                          f"Time ran out for {name}. The vote is over: {how}.")
        if won == "wait":
            due = (await self.deadlines.replan(table.id, [turn.seat], afresh)).get(
                turn.member_id or 0)
            until = f": deadline {deadline_text(due)}" if due is not None else ""
            return [ended, TableMessage(table.channel_id, f"The table gives {name} another "
                                        f"period{until}.",
                                        (turn.member_id,) if turn.member_id else ())]
        if won == "substitute":
            # The seat is offered for one vote period (the turn says so: ``offered``); when
            # its deadline fires again unclaimed, the computer takes it over.
            offered = self.time.now() + vote_span(timing.period)
            await self.store.set_deadline(turn.id, offered, None, turn.extra, True)
            offer = SeatOffer(table.id, turn.seat, turn.member_id or 0, table.creator_id)
            return [ended, TableMessage(
                table.channel_id,
                f"The table looks for a substitute for {name} (seat {turn.seat + 1}): press "
                f"**Take this seat** to play it from here. If nobody takes it "
                f"{deadline_text(offered)}, the computer plays it.", seek=offer)]
        if won == "remove":
            await self.store.set_absent(table.id, turn.seat, True)
            await self.time.gone(table.id, turn.member_id)
            said = f"The table voted {name} out; the computer plays the seat."
        else:
            said = (f"The vote on {name} ended without a majority "
                    f"({'a tie' if votes else 'nobody voted'}): the computer plays this move "
                    "for them.")
        before = (await self.store.seat_clocks(table.id)).get(turn.seat)
        notice = await move_for(self.tables.live, replace(turn, fired_at=None), timing.level,
                                False)
        if won is None:
            # The computer's moves count towards absence as under autopilot.
            await self.time.absent_by_computer(turn, before is not None and before.absent)
        out: Decided = [ended, TableMessage(table.channel_id, said)]
        if notice is not None:
            out.append(MoveNotice(notice))
        return out
