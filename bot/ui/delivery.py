"""Discord's side of the outbox (``bot.tables.outbox``): the channel message of the versions
it claimed, lobby messages, DMs with an ephemeral ``/hand`` fallback for members whose DMs are
closed, and the answers a restart owed.

Each channel post of a move carries a nonce made of its table and last version, so a post
repeated after a crash returns the message Discord already has. Discord forgets a nonce after a
few minutes, so a range taken over from a holder that died is first looked for among the
channel's latest messages. Each seat's DMs go out in version order, and never one older than a
view already sent.
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from typing import Any

import discord
from discord.utils import MISSING

from bot.leagues.referee import RoundReminder
from bot.locks import KeyedLocks
from bot.metrics import DMS_REFUSED
from bot.notices import Notice, SeatNotice
from bot.pace.notices import (
    Dashboard,
    Reminder,
    TableMessage,
    VoteEnded,
    VoteRequest,
    deadline_text,
)
from bot.store import Status
from bot.store.announcing import PendingReply
from bot.tables.outbox import Versions
from bot.text import clip, escape
from bot.ui import ids
from bot.ui.cards import (
    Actions,
    Card,
    accent_of,
    heading,
    heading_of,
    layout,
    stage_of,
    with_image,
)
from bot.ui.components import lobby_view, seek_view, vote_view
from bot.ui.dm_boards import GAME_OVER, DmBoards, dm_actions
from bot.ui.ids import Mark
from bot.ui.rate_limit import Pacer
from bot.ui.replies import ORIGINAL
from bot.ui.respond import Services
from bot.web.links import Links

log = logging.getLogger(__name__)

DM_CLOSED = 50007
REMEMBERED = 4096  # seats whose last version sent by DM is kept in memory
# Seats whose last DM'd view is kept (a view is tens of KB): past this, an update is drawn
# as if nothing were known of the last one (only the parts that ask for a decision).
VIEWS_REMEMBERED = 512
# Latest channel messages searched, on a takeover, for a post the crashed holder made: Discord
# forgets a nonce after a few minutes, and the look-back must stay one request.
LOOK_BACK = 50
# A DM's own words stay under 600 characters with its heading and what the member can do:
# longer news is cut at a line (the whole view is behind "Text view", the recap apart).
DM_NEWS_MAX = 400


class _Bounded(OrderedDict[Any, int]):
    def remember(self, key: Any, value: int) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > REMEMBERED:
            self.popitem(last=False)


def nonce_of(table_id: int, version: int) -> str:
    """The nonce of a table's channel post of ``version``: at most 25 characters (16 + 1 + 8
    hex digits), never a decimal number like the nonces discord.py makes up."""
    return f"{table_id:x}.{version:x}"


class Delivery:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        self._order = KeyedLocks()  # each seat's DMs in version order
        self._dm_sent: _Bounded = _Bounded()  # (table, member) -> last version sent by DM
        # (table, member) -> the view last sent by DM: an update sends what changed since.
        self._dm_views: OrderedDict[tuple[int, int], Any] = OrderedDict()
        # Members whose DMs Discord refused (50007): reminders go by mention until a DM of
        # any kind gets through again.
        self._refused: set[int] = set()
        self.pacer = Pacer()
        self.links: Links | None = None  # with TABULA_PUBLIC_URL: boards link to the web
        self.dm_boards = DmBoards(client, self.pacer)
        # (turn, round) -> the vote's message, edited when the vote is decided.
        self._votes: _Bounded = _Bounded()

    async def table_url(self, table_id: int) -> str | None:
        if self.links is None:
            return None
        table = await self.services.tables.live.record(table_id)
        return await self.links.table(table_id, table.guild_id)

    async def private_url(self, table_id: int, seat: int, member_id: int) -> str | None:
        """A signed link to the seat's own view (``TABULA_WEB_SECRET``), for that member."""
        if self.links is None:
            return None
        table = await self.services.tables.live.record(table_id)
        return await self.links.private(table_id, table.guild_id, seat, member_id)

    async def dm_channel(self, user: discord.abc.Snowflake) -> discord.DMChannel:
        """The member's DM channel; opening one is a request of its own, so it is paced
        (discord.py keeps the channels it opened: most DMs need none)."""
        if getattr(user, "dm_channel", None) is None:
            await self.pacer.wait(urgent=False)
        return await self.client.create_dm(user)

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def post_lobby(self, notice: Notice) -> discord.Message:
        view = lobby_view(notice.table_id) if notice.status == Status.LOBBY else MISSING
        await self.pacer.wait()
        return await self.channel(notice.channel_id).send(
            clip(notice.public_text), view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def post_plain(self, notice: Notice) -> None:
        await self._post(notice, notice.public_text)

    async def post_versions(self, notice: Notice, versions: Versions) -> int | None:
        """The channel message of claimed versions (what happened, the board, one mention of
        who acts next) under a nonce of the table and last version, so Discord keeps one
        message if it is posted again. A range a crashed holder claimed is looked for among
        the channel's latest first (past Discord's nonce window)."""
        text, board = versions.text, versions.board
        if not (text or board):
            return None
        nonce = nonce_of(notice.table_id, versions.upto)
        try:
            # Only a takeover looks back: the normal path costs no extra request.
            found = (await self._posted_before(notice, versions.upto, text, nonce)
                     if versions.retold else None)
            if found is not None:
                return found
            return await self._post(notice, text, board=board, nonce=nonce)
        except discord.Forbidden as exc:
            # The bot may not post there (any more): retrying cannot help, and a claim left
            # held would make every process wait on this table. `/history` keeps it.
            log.warning("table %s: versions %s-%s not told in channel %s: %s",
                        notice.table_id, versions.after + 1, versions.upto, notice.channel_id,
                        exc)
            return None

    async def answer_owed(self, reply: PendingReply, text: str) -> None:
        webhook = discord.Webhook.partial(int(reply.application_id), reply.token,
                                          client=self.client)
        try:
            await webhook.edit_message(ORIGINAL, content=text)
        except discord.HTTPException as exc:
            log.info("could not finish the answer to %s: %s", reply.interaction_id, exc)

    async def _posted_before(self, notice: Notice, upto: int, text: str,
                             nonce: str) -> int | None:
        """The message among the channel's latest that already tells versions up to ``upto``
        (a crashed holder's post, older than Discord's nonce window): the bot's own, with a
        board button of this table at ``upto``, or without board buttons and every line of
        ``text``. None when not there, or when the channel's history cannot be read (then
        the post goes out again: a repeat rather than a loss)."""
        me = getattr(self.client, "user", None)
        if me is None:
            return None
        lines = {line for line in text.splitlines() if line.strip()}
        await self.pacer.wait()
        try:
            async for message in self.channel(notice.channel_id).history(limit=LOOK_BACK):
                if message.author.id != me.id:
                    continue
                if message.nonce is not None and str(message.nonce) == nonce:
                    return message.id  # Discord does not promise to echo it; use it if so
                boards = _board_versions(message.components)
                mine = [v for t, v in boards if t == notice.table_id]
                if upto in mine:
                    return message.id
                if mine:
                    return None  # an earlier board of this table: the range came after it
                if lines and not boards and lines <= set(message_text(message).splitlines()):
                    return message.id
        except discord.HTTPException as exc:
            log.warning("table %s: channel %s's latest messages not read: %s",
                        notice.table_id, notice.channel_id, exc)
        return None

    async def _post(self, notice: Notice, text: str, *, board: bool = True,
                    nonce: str | None = None) -> int | None:
        """Post in the table's channel, as a card; with ``nonce`` a repeat returns the first
        message (``None`` when that one was deleted meanwhile). Without ``board``, only the
        text."""
        content = text
        over = notice.status in (Status.OVER, Status.ABANDONED)
        deadlines = notice.data.get("deadlines", {})
        if notice.status == Status.OVER and board:
            content += "\n`/export` gives the file that replays the game."
        # "Next:" is for the members who must act; computers answer in a post of their own.
        next_members = notice.next_members if board else ()
        footer = ""
        if next_members and not over:
            footer = "Next: " + ", ".join(
                f"<@{m}>" + (f" (deadline {deadline_text(deadlines[m])})" if m in deadlines
                             else "")
                for m in next_members)
        mentioned = discord.AllowedMentions(
            users=[discord.Object(m) for m in next_members], everyone=False, roles=False
        )
        drawn = None
        shown = board and notice.public_view is not None
        if shown:
            assert notice.public_view is not None
            drawn = await self.services.renderer.card(notice.game_id, notice.public_view)
        playing = notice.status == Status.PLAYING
        url = await self.table_url(notice.table_id) if shown else None
        actions = Actions(
            notice.table_id, Mark(version=notice.version) if playing and board else None,
            ids.BOARD_OPS, None, drawn.parts if drawn is not None else (),
            text_view=shown, url=url)
        # A post of earlier moves (no board) does not say whose turn it is now.
        card = Card(heading(notice.game_id, notice.public_view,
                            notice.next_names if board else (), over),
                    body=content.strip("\n"), footer=footer, accent=accent_of(notice.lead_seat),
                    actions=actions)
        if drawn is not None:
            card = with_image(card, drawn, "board")
        view, files = layout(card, drawn)
        # discord.py sends ``enforce_nonce: true`` with any nonce given (else one of its own,
        # random, which protects nothing).
        keyed: dict[str, Any] = {} if nonce is None else {"nonce": nonce}
        await self.pacer.wait()
        try:
            sent = await self.channel(notice.channel_id).send(
                files=files or MISSING, view=view, allowed_mentions=mentioned, **keyed,
            )
        except discord.NotFound:
            if nonce is None:
                raise
            return None  # posted before under this nonce, and deleted since: it was told
        return sent.id

    async def send_private(self, notice: Notice) -> None:
        closed: list[int] = []
        for seat in notice.private:
            if seat.member_id is None or seat.dm_closed:
                continue
            if seat.member_id in self._refused:
                # Discord refused their DMs: not retried here until they act again.
                closed.append(seat.member_id)
                await self.services.tables.mark_dm_closed(notice.table_id, seat.member_id)
                continue
            key = (notice.table_id, seat.member_id)
            async with self._order.hold(key):
                if self._dm_sent.get(key, -1) >= seat.version:
                    continue  # a newer view already reached this member
                url = await self.private_url(notice.table_id, seat.seat, seat.member_id)
                sent = await self.dm(notice, seat, url)
                if sent is not None:
                    self._dm_sent.remember(key, seat.version)
                    if isinstance(sent, tuple) and isinstance(sent[0], discord.Message):
                        self.dm_boards.keep(notice, seat.member_id, seat.version, *sent)
                else:
                    closed.append(seat.member_id)
                    await self.services.tables.mark_dm_closed(notice.table_id, seat.member_id)
        await self.dm_boards.retire(notice)
        if closed:
            who = ", ".join(f"<@{m}>" for m in closed)
            await self.pacer.wait()
            await self.channel(notice.channel_id).send(
                f"{who}: I cannot send you direct messages, so your private view stays with "
                "me. Use `/hand` here to see it (only you will).",
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(m) for m in closed]
                ),
            )

    async def dm(self, notice: Notice, seat: SeatNotice, url: str | None = None
                 ) -> tuple[discord.Message, Card] | bool | None:
        """DM one seat its private view as a card, with the board's buttons so the player can
        act from the DM: the message sent and its card (True when sending failed for another
        reason, the move being committed either way); None when the member's DMs are closed
        (never retried)."""
        assert seat.member_id is not None
        user = self.client.get_user(seat.member_id) or discord.Object(seat.member_id)
        try:
            channel = await self.dm_channel(user)
            # Rendered once it may go: DMs waiting their turn must not hold up the boards'
            # renders.
            await self.pacer.wait(urgent=False)
            key = (notice.table_id, seat.member_id)
            drawn = await self.services.renderer.card(
                notice.game_id, seat.view, update=True, previous=self._dm_views.get(key))
            self._dm_views[key] = seat.view
            self._dm_views.move_to_end(key)
            while len(self._dm_views) > VIEWS_REMEMBERED:
                self._dm_views.popitem(last=False)
            actions = dm_actions(notice, seat.member_id, seat.seat,
                                 Mark(fingerprint=seat.fingerprint), drawn.parts, url)
            card = with_image(seat_card(notice, seat, actions), drawn, "hand")
            view, files = layout(card, drawn)
            sent = await channel.send(files=files or MISSING, view=view,
                                      allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            DMS_REFUSED.inc()
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", seat.member_id, exc)
            else:
                await self.dms_closed(seat.member_id)
            return None
        except discord.HTTPException as exc:
            # The move is committed either way; a failed DM must not look like a failed move.
            log.warning("DM to %s failed: %s", seat.member_id, exc)
            return True
        await self.dms_open(seat.member_id)
        return sent, card

    async def dms_closed(self, member_id: int) -> None:
        """Discord refused a DM (50007): Discord advises against retrying, so reminders and
        notices go by mention until the member acts again (``acted``) or a DM gets through."""
        if member_id not in self._refused:
            self._refused.add(member_id)
            await self.services.scheduler.dms_refused(member_id, True)

    async def acted(self, member_id: int) -> None:
        """The member used a command or a button: they may have opened their DMs since, so the
        next notice tries one DM again."""
        await self.dms_open(member_id)

    async def dms_open(self, member_id: int) -> None:
        """A DM got through: a member whose DMs were refused gets reminders by DM again."""
        if member_id in self._refused:
            self._refused.discard(member_id)
            await self.services.scheduler.dms_refused(member_id, False)

    async def private_card(self, notice: Notice, seat: SeatNotice, url: str | None
                           ) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        """The ephemeral ``/hand`` answer: the card a DM would carry (one image, the detail
        buttons), for members whose DMs are closed."""
        drawn = await self.services.renderer.card(notice.game_id, seat.view)
        assert seat.member_id is not None
        actions = dm_actions(notice, seat.member_id, seat.seat,
                             Mark(fingerprint=seat.fingerprint), drawn.parts, url)
        return layout(with_image(seat_card(notice, seat, actions), drawn, "hand"), drawn)

    # -- what the scheduler fires ---------------------------------------------------------

    async def post_text(self, message: TableMessage) -> None:
        offer = message.seek
        # A seat the table offers to a substitute: any eligible member takes it by the button
        # (restart-proof: ``SeekButton`` reads everything from its custom_id).
        view = MISSING if offer is None else seek_view(offer.table_id, offer.seat, offer.old,
                                                       offer.by, "Take this seat")
        await self.pacer.wait()
        await self.channel(message.channel_id).send(
            clip(message.text), view=view, allowed_mentions=_users(message.mentions))

    async def post_vote(self, request: VoteRequest) -> None:
        who = " ".join(f"<@{m}>" for m in request.voters)
        await self.pacer.wait()
        sent = await self.channel(request.channel_id).send(
            clip(f"Time ran out for {request.name}. {who}: what should the table do? "
                 f"A majority decides; the vote ends {deadline_text(request.ends_at)}, and "
                 "on a tie or without votes the computer plays this move for them."),
            view=vote_view(request.turn_id, request.round),
            allowed_mentions=_users(request.voters))
        self.vote_posted(request.turn_id, request.round, sent.id)

    def vote_posted(self, turn_id: int, round_: int, message_id: int) -> None:
        """Where a vote's message is (known from its post, or from a click on it after a
        restart), so that it can say how the vote ended."""
        self._votes.remember((turn_id, round_), message_id)

    async def end_vote(self, ended: VoteEnded) -> None:
        """The decided vote's message: how it ended, and no buttons to click any more. A vote
        posted before a restart and decided without a click keeps its message as it was."""
        message_id = self._votes.pop((ended.turn_id, ended.round), None)
        if message_id is None:
            return
        await self.pacer.wait()
        await self.channel(ended.channel_id).get_partial_message(message_id).edit(
            content=clip(ended.text), view=None, allowed_mentions=discord.AllowedMentions.none())

    async def remind(self, reminder: Reminder) -> None:
        """By DM; when DMs are closed (or the member turned DM notices off), one mention in
        the channel of the table that has waited longest."""
        if reminder.dms_refused:
            self._refused.add(reminder.member_id)
        if reminder.by_dm and await self._dm_text(reminder.member_id, reminder.text):
            return
        await self.channel(reminder.waiting[0].channel_id).send(
            clip(f"<@{reminder.member_id}>: {reminder.text}"),
            allowed_mentions=_users((reminder.member_id,)))

    async def remind_round(self, reminder: RoundReminder) -> None:
        """A round's deadline coming: a DM to each member the table waits for who takes DM
        notices; one mention in the table's thread for the others (and for those whose DMs
        Discord refuses)."""
        mentioned = [m for m in reminder.members if m not in reminder.by_dm]
        for member_id in reminder.members:
            if member_id in reminder.by_dm and not await self._dm_text(
                    member_id, reminder.dm_text()):
                mentioned.append(member_id)
        if mentioned:
            await self.pacer.wait()
            await self.channel(reminder.channel_id).send(
                clip(reminder.mention_text(mentioned)), allowed_mentions=_users(tuple(mentioned)))

    async def _dm_text(self, member_id: int, text: str) -> bool:
        """A plain DM; False when Discord refuses the member's DMs (50007, then not tried
        again until they act: Discord advises against retrying)."""
        if member_id in self._refused:
            return False
        user = self.client.get_user(member_id) or discord.Object(member_id)
        try:
            channel = await self.dm_channel(user)
            await self.pacer.wait(urgent=False)
            await channel.send(clip(text), allowed_mentions=discord.AllowedMentions.none())
            return True
        except discord.Forbidden as exc:
            DMS_REFUSED.inc()
            if exc.code != DM_CLOSED:
                raise
            await self.dms_closed(member_id)
            return False

    async def dashboard(self, board: Dashboard) -> None:
        """Edit the member's dashboard DM in place; send it when it has none (or it was
        deleted). With DMs closed it is turned off."""
        quiet = discord.AllowedMentions.none()
        if board.channel_id is not None and board.message_id is not None:
            message = self.channel(board.channel_id).get_partial_message(board.message_id)
            try:
                await message.edit(content=clip(board.text), allowed_mentions=quiet)
                return
            except discord.NotFound:
                pass  # deleted by the member: a new one follows
        user = self.client.get_user(board.member_id) or discord.Object(board.member_id)
        try:
            channel = await self.dm_channel(user)
            await self.pacer.wait(urgent=False)
            sent = await channel.send(clip(board.text), allowed_mentions=quiet)
        except discord.Forbidden:
            await self.services.scheduler.dashboard_posted(board.member_id, None, None)
            return
        await self.dms_open(board.member_id)
        await self.services.scheduler.dashboard_posted(board.member_id, channel.id, sent.id)


def seat_card(notice: Notice, seat: SeatNotice, actions: Actions) -> Card:
    """A seat's own card: what changed for it, what it can do, and the recap of what
    happened since its last turn (the whole view is behind "Text view")."""
    over = notice.status in (Status.OVER, Status.ABANDONED)
    you = seat.member_id in notice.next_members
    if over:
        can = GAME_OVER
    elif you:
        can = "It is your turn: **My moves** lists what you can play."
    elif notice.next_names:
        waiting = " and ".join(notice.next_names)
        can = (f"Nothing to do until {waiting} "
               f"{'has' if len(notice.next_names) == 1 else 'have'} played.")
    else:
        can = ""
    you_name = escape(seat.name) if you else None  # as next_names writes names
    stage = stage_of(seat.view)
    return Card(heading_of(notice.game_id, stage, notice.next_names, over, you_name),
                body=clip(seat.text, DM_NEWS_MAX), hint=can, footer=seat.recap,
                accent=accent_of(seat.seat),
                actions=actions, game_id=notice.game_id, stage=stage)


def message_text(message: discord.Message) -> str:
    """What a member reads in a message: its content, or a card's text displays."""
    lines = [message.content] if message.content else []
    stack = list(reversed(message.components))
    while stack:
        item: Any = stack.pop()
        if isinstance(item, discord.TextDisplay):
            lines.append(item.content)
        stack.extend(reversed(list(getattr(item, "children", None) or ())))
    return "\n".join(lines)


def _users(members: tuple[int, ...]) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(m) for m in members], everyone=False,
                                   roles=False)


def _board_versions(components: list[Any]) -> list[tuple[int, int]]:
    """(table, version) of each channel board button in a message's component tree."""
    found: list[tuple[int, int]] = []
    stack = list(components)
    while stack:
        item = stack.pop()
        match = re.fullmatch(ids.BOARD, getattr(item, "custom_id", None) or "")
        if match is not None and match["mark"].startswith("v"):
            found.append((int(match["table"]), Mark.decode(match["mark"]).version or 0))
        stack.extend(getattr(item, "children", None) or ())
    return found


def delivery_of(interaction: discord.Interaction[Any]) -> Delivery:
    client: Any = interaction.client
    delivery: Delivery = client.delivery
    return delivery
