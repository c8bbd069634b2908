"""What organisers decide at league tables: handing a seat to a substitute, and settling a
round's unfinished tables at its deadline.

Substitutes: at a league table only an organiser hands a seat on, to a member signed up to the
league (unless the organiser says anyone may take it) who sits at no other live table of the
same round. The member replaced forfeits (last place, recorded before the seat changes hands),
unless the organiser replaces them with no fault (illness, an emergency): they are then left out
of the result, and neither their rating nor their reliability is charged. Either way the
substitute plays the seat on for the table, unrated for it.

Deadlines: when a round's deadline passes, each of its tables still playing ends. The seats the
game is waiting for have stalled: they forfeit (last place); everyone else shares first place,
as when a member walks out. A table still in its lobby is closed with no result. The round is
then complete; when the organiser asked for it, the next round is planned at once, with as
much time as the last one had."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from bot.leagues.recording import WITHDRAWN
from bot.leagues.report import safe_name
from bot.leagues.rounds import RoundPlan, Rounds
from bot.notices import Notice
from bot.store import LeagueRecord, RoundRecord, Status
from bot.text import escape
from bot.values import Member, TableError

HandOver = Callable[[int, int, Member, Member], Awaitable[Notice]]
DEADLINE = Member(0, "The round's deadline", is_admin=True)
SCHEDULE = Member(0, "The league's schedule", is_admin=True)


@dataclass
class Settled:
    notices: list[Notice] = field(default_factory=list)  # for the tables' channels
    plans: list[RoundPlan] = field(default_factory=list)  # next rounds, to open
    # Why a next round could not form, by league (told in its channel).
    refused: list[tuple[LeagueRecord, str]] = field(default_factory=list)
    # A round's deadline settled: the post for the league's channel (each table, who forfeits,
    # who shares first place).
    summaries: list[tuple[LeagueRecord, str]] = field(default_factory=list)


@dataclass(frozen=True)
class RoundReminder:
    """A round's deadline coming, for the members a table waits for: by DM to those who take
    DM notices (and whose DMs Discord has not refused), by a mention in the thread to the
    rest."""

    channel_id: int  # the table's thread
    ends: str  # "Round 2 of **Cup** ends <t:…:R> (<t:…:f>)"
    members: tuple[int, ...]
    by_dm: frozenset[int] = frozenset()

    def dm_text(self) -> str:
        return (f"{self.ends}. Your table <#{self.channel_id}> waits for you; if it is "
                "unfinished then, the seats it waits for forfeit.")

    def mention_text(self, members: Collection[int]) -> str:
        who = ", ".join(f"<@{m}>" for m in members)
        return (f"{self.ends}. {who}: this table waits for you; if it is unfinished then, "
                "the seats it waits for forfeit.")


# Reminders of a round's deadline: (stage, how long before it), latest first. A round's
# ``reminded`` stage: 0 never looked at, 1 looked at, 2 and 3 told a day and an hour before.
REMINDERS = ((3, timedelta(hours=1)), (2, timedelta(days=1)))
SEEN = 1


class Referee:
    def __init__(self, rounds: Rounds) -> None:
        self.rounds = rounds
        self.leagues = rounds.leagues
        self.store = rounds.store
        self.tables = rounds.tables

    async def substitute(self, table_id: int, seat: int, newcomer: Member, by: Member,
                         hand_over: HandOver, *, roles: Collection[int] = (),
                         anyone: bool = False, no_fault: bool = False) -> Notice:
        """``newcomer`` takes ``seat`` (from 0); at a table of no league, ``hand_over`` alone
        decides (the table's creator, a server manager or the seat's own player)."""
        table = await self.tables.table_for(table_id)
        if table.league_id is None:
            return await hand_over(table_id, seat, newcomer, by)
        league = await self.store.get_league(table.league_id)
        assert league is not None
        if not await self.leagues.may_run(league.guild_id, by, roles):
            raise TableError("At a league table only an organiser (a server manager or the "
                             "league-admin role) hands a seat to a substitute.")
        seats = await self.tables.seats(table_id)
        if table.status != Status.PLAYING:
            raise TableError("Seats change hands only while the game is on.")
        if not 0 <= seat < len(seats):
            raise TableError(f"Seats are numbered 1 to {len(seats)}.")
        held = seats[seat]
        if held.member_id is None:
            raise TableError("That seat is a computer player's.")
        if held.member_id == newcomer.id:
            raise TableError("That member already holds this seat.")
        if any(s.member_id == newcomer.id for s in seats):
            raise TableError("That member already has a seat at this table.")
        signed = {m.member_id for m in await self.store.league_members(league.id)}
        if newcomer.id not in signed and not anyone:
            raise TableError(f"{escape(newcomer.name[:40])} is not signed up to "
                             f"{escape(league.name)}; a substitute must be (or say `anyone`).")
        round_ = await self.store.round_of_table(table_id)
        if round_ is not None and round_.open and round_.opened_at is None:
            # Its other tables are still to be seated (a restart may yet roll it back): a
            # newcomer could be planned for one of them.
            raise TableError("This round's tables are still being set up; hand the seat "
                             "over once they have all started.")
        if round_ is not None and round_.open:
            for other in await self.store.round_tables(round_.id):
                if other.id != table_id and other.live and any(
                        s.member_id == newcomer.id for s in await self.tables.seats(other.id)):
                    raise TableError("That member plays another table of this round.")
        # Recorded first: the member replaced keeps their result even if a crash follows.
        await self.leagues.recorder.forfeit(table_id, seat,
                                            WITHDRAWN if no_fault else "substituted")
        if no_fault:
            for kind in ("missed", "abandoned"):
                await self.store.forget_member_event(held.member_id, table_id, kind)
        notice = await hand_over(table_id, seat, newcomer, replace(by, is_admin=True))
        if no_fault:
            notice = replace(notice, public_text=f"{notice.public_text} No fault: the "
                             "member replaced is not charged (rating or reliability).")
        return notice

    async def settle_due(self, now: datetime) -> Settled:
        """End the unfinished tables of every round whose deadline has passed (see the
        module's rule), complete those rounds, and plan the next where asked."""
        settled = Settled()
        told = settled.notices
        for round_ in await self.store.open_rounds():
            if round_.deadline is None or datetime.fromisoformat(round_.deadline) > now:
                continue
            why = f"Round {round_.number}'s deadline has passed"
            notices, lines = await self._settle(round_, why)
            told += notices
            await self.store.close_round(round_.id)
            league = await self.store.get_league(round_.league_id)
            if league is not None and lines:
                settled.summaries.append((league, "\n".join(
                    [f"**{safe_name(league.name)}**: {why}; its unfinished tables ended.",
                     *lines])))
        # At the deadline the next round opens, whether the last one ended early or not.
        for round_ in await self.store.scheduled_rounds():
            if round_.deadline is not None and datetime.fromisoformat(round_.deadline) <= now:
                await self._next(round_, settled)
        # A check-in window closed: the round opens with those present (or says why not).
        for league in await self.store.checkin_windows():
            closes = league.checkin_closes or ""
            if datetime.fromisoformat(closes) > now \
                    or not await self.store.close_checkin_window(league.id, closes):
                continue
            seconds = league.checkin_round
            try:
                settled.plans.append(await self.rounds.plan(
                    league.guild_id, SCHEDULE, league.name,
                    deadline=None if seconds is None else timedelta(seconds=seconds),
                    auto_next=league.checkin_auto and seconds is not None))
            except TableError as exc:
                settled.refused.append((league, str(exc)))
        return settled

    async def remind_due(self, now: datetime) -> list[RoundReminder]:
        """A day and an hour before each open round's deadline, once each: every table still
        playing is told whom it waits for. What is due already when a round is first looked
        at (its start, a tick after it opened) is its greeting's to say: never sent late."""
        out = []
        for round_ in await self.store.open_rounds():
            if round_.deadline is None or round_.opened_at is None:
                continue
            due = datetime.fromisoformat(round_.deadline)
            stage = next((n for n, before in REMINDERS if now >= due - before), SEEN)
            if round_.reminded == 0:
                await self.store.claim_round_reminder(round_.id, stage)
                continue
            if due <= now or stage <= round_.reminded \
                    or not await self.store.claim_round_reminder(round_.id, stage):
                continue
            at = int(due.timestamp())
            league = await self.store.get_league(round_.league_id)
            ends = (f"Round {round_.number}"
                    + (f" of **{safe_name(league.name)}**" if league is not None else "")
                    + f" ends <t:{at}:R> (<t:{at}:f>)")
            for table in await self.store.round_tables(round_.id):
                if table.status != Status.PLAYING:
                    continue
                waiting = tuple(seat.member_id for seat in
                                (await self.tables.live.load(table.id)).waiting()
                                if seat.member_id is not None)
                if waiting:
                    found = await self.store.member_settings(waiting)
                    by_dm = frozenset(m for m in waiting
                                      if found.get(m, {}).get("dm_notices", True)
                                      and not found.get(m, {}).get("dms_refused", False))
                    out.append(RoundReminder(table.channel_id, ends, waiting, by_dm))
        return out

    async def _settle(self, round_: RoundRecord, why: str) -> tuple[list[Notice], list[str]]:
        """End the round's unfinished tables: the seats each waits for forfeit, the others
        share first place. One notice per table, saying ``why`` and who; and a line per table
        naming them, for the league's channel."""
        told, lines = [], []
        for table in await self.store.round_tables(round_.id):
            if not table.live:
                continue
            loaded = await self.tables.live.load(table.id)
            names = [s.name for s in loaded.seats]
            waiting = frozenset(s.position for s in loaded.waiting())
            for seat in sorted(waiting):
                await self.leagues.recorder.forfeit(table.id, seat, "deadline")
            try:
                notice = await self.tables.abandon(table.id, DEADLINE)
            except TableError:
                continue  # it ended meanwhile
            await self.leagues.recorder.record(table.id)
            said = who_ended(names, waiting, table.status == Status.PLAYING)
            told.append(replace(notice, public_text=f"{why}: {said}"))
            lines.append(f"- <#{table.channel_id}>: {said}")
        return told, lines

    async def force_round(self, guild_id: int, member: Member, name: str,
                          roles: Collection[int] = (), *, deadline: timedelta | None,
                          auto_next: bool = False) -> tuple[RoundPlan, list[Notice]]:
        """``/league-admin round force:true``: the next round, and the open one closed as its
        deadline would close it (a member never sits in two open rounds of a league); its
        schedule of a next round ends. The notices go to the closed round's tables."""
        league = await self.leagues.named(guild_id, name)
        was_open = [r for r in await self.store.rounds(league.id) if r.open]
        plan = await self.rounds.plan(guild_id, member, name, roles, force=True,
                                      deadline=deadline, auto_next=auto_next)
        told: list[Notice] = []
        for round_ in was_open:
            await self.store.claim_next(round_.id)
            told += (await self._settle(
                round_, f"An organiser closed round {round_.number} to open round "
                f"{plan.round.number}"))[0]
        return plan, told

    async def _next(self, done: RoundRecord, settled: Settled) -> None:
        league = await self.store.get_league(done.league_id)
        seconds = await self.store.claim_next(done.id)
        if league is None or league.closed or seconds is None:
            return
        try:
            settled.plans.append(await self.rounds.plan(
                league.guild_id, SCHEDULE, league.name, deadline=timedelta(seconds=seconds),
                auto_next=True))
        except TableError as exc:
            settled.refused.append((league, str(exc)))


def who_ended(names: list[str], waiting: frozenset[int], started: bool) -> str:
    """Who forfeits and who shares first place at a table its round's end stopped (names
    made inert and capped)."""
    if not started:
        return "it never started: no result."
    late = [safe_name(n) for i, n in enumerate(names) if i in waiting]
    rest = [safe_name(n) for i, n in enumerate(names) if i not in waiting]
    said = []
    if late:
        said.append(f"{', '.join(late)} {'forfeits' if len(late) == 1 else 'forfeit'} "
                    "(the table was waiting for them)")
    if rest:
        said.append(f"{', '.join(rest)} {'takes' if len(rest) == 1 else 'share'} first place")
    return "; ".join(said) + "."
