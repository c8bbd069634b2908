"""What asynchronous play keeps besides turns: a table's pace before it starts, a league's,
members' and servers' settings, reliability records, the tables that wait on a member, and
what the front end learns of a member's DMs and dashboard."""

from __future__ import annotations

from dataclasses import asdict

from bot.leagues.reliability import Record, member_events, percent, record_of
from bot.pace.deadlines import Deadlines
from bot.pace.member import MemberSettings
from bot.pace.model import Timing
from bot.pace.server_settings import ServerSettings
from bot.pace.table_time import TableTime
from bot.store import Status
from bot.store.records import WaitingTurn
from bot.values import Member, TableError


class PaceSettings:
    def __init__(self, time: TableTime, deadlines: Deadlines) -> None:
        self.time, self.deadlines = time, deadlines
        self.store, self.tables = time.store, time.tables

    async def set_timing(self, table_id: int, timing: Timing, member: Member) -> Timing:
        """A table's pace and policy: chosen at ``/game new``, changeable until it starts.
        Returns the timing in force (a league's pace wins over the table's choice)."""
        table = await self.tables.live.record(table_id)
        if table.status != Status.LOBBY:
            raise TableError("The pace is fixed once the game has started.")
        if member.id != table.creator_id and not member.is_admin:
            raise TableError("Only the table's creator or a server manager can set its pace.")
        await self.store.set_table_timing(table_id, asdict(timing))
        return await self.time.timing(table_id)

    async def set_league_timing(self, league_id: int, timing: Timing | None) -> None:
        """A league's pace for every table that counts for it, from its next change on
        (organisers' rights are the leagues' to check). None: tables choose their own."""
        await self.store.set_league_timing(league_id, None if timing is None else asdict(timing))

    async def server(self, guild_id: int | None) -> ServerSettings:
        """A server's defaults (the built-in ones outside a server or until set)."""
        if guild_id is None:
            return ServerSettings(0)
        return ServerSettings.of(guild_id, await self.store.server_settings(guild_id))

    async def save_server(self, settings: ServerSettings) -> None:
        await self.store.save_server_settings(settings.guild_id, settings.checked().stored(),
                                              self.time.now())

    async def save_settings(self, settings: MemberSettings) -> None:
        """Save a member's settings; their open turns are planned again at once (a holiday or
        quiet hours set, changed or ended)."""
        before = await self.time.settings(settings.member_id)
        await self.store.save_member_settings(asdict(settings), self.time.now())
        await self.deadlines.replan_member(settings.member_id, before)

    async def record(self, member_id: int) -> Record:
        """A member's reliability record (``/profile``, a table's or a league's minimum)."""
        return record_of(member_events(await self.store.member_events(member_id),
                                       await self.store.member_league_games(member_id)),
                         self.time.now())

    async def may_join(self, table_id: int, member_id: int) -> None:
        """Refused when the table asks for a reliability the member does not have."""
        least = (await self.time.timing(table_id)).min_reliability
        if least and (mine := await self.record(member_id)).score * 100 < least:
            raise TableError(f"This table asks for a reliability of {least}%; yours is "
                             f"{percent(mine.score)} (`/profile`). Finished games raise it, "
                             "and old misses fade.")

    async def waiting(self, member_id: int) -> list[WaitingTurn]:
        """``/turns``: every table that waits on the member, across servers, oldest first."""
        return await self.store.waiting_turns(member_id)

    async def next_waiting(self, member_id: int, after_table: int) -> WaitingTurn | None:
        """After a move: the mover's other table that waits longest on them."""
        for w in await self.store.waiting_turns(member_id):
            if w.table_id != after_table:
                return w
        return None

    async def dms_refused(self, member_id: int, refused: bool) -> None:
        """Discord refused a DM to the member (50007), or one got through again."""
        await self.store.set_dms_refused(member_id, refused, self.time.now())

    async def dashboard_posted(self, member_id: int, channel_id: int | None,
                               message_id: int | None) -> None:
        await self.store.dashboard_posted(member_id, channel_id, message_id)
