"""The stand-in's world: entities, messages, interactions, and what went wrong.

Routes and the driver both act through :class:`World`; the gateway plugs in ``dispatcher`` so
state changes reach the bot as events.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .clock import Clock, Notifier
from .commands import CommandStore
from .errors import ApiError
from .interactions import DEADLINE_SECONDS, InteractionRecord
from .messages import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    Attachment,
    Message,
    guess_type,
    resolve_mentions,
)
from .model import (
    BOT_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    JSON,
    MANAGE_GUILD,
    Channel,
    Guild,
    Member,
    Role,
    Snowflakes,
    User,
    iso,
)

GUILDS_INTENT = 1 << 0
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

# Flags a bot may set on a message it sends (suppress embeds, suppress notifications, v2).
SETTABLE_FLAGS = (1 << 2) | (1 << 12) | COMPONENTS_V2

Dispatcher = Callable[[str, JSON, int | None], None]


@dataclass
class Violation:
    """A request the bot made that Discord would refuse because it breaks a limit."""

    kind: str
    status: int
    code: int
    message: str
    route: str
    details: list[str] = field(default_factory=list)
    interaction_id: int | None = None

    def __str__(self) -> str:
        return f"{self.route}: {self.status}/{self.code} {self.kind}: {'; '.join(self.details)}"


@dataclass
class ErrorResponse:
    """Any error the stand-in answered with (violations and ordinary refusals alike)."""

    route: str
    status: int
    code: int
    message: str


@dataclass
class UnhandledRoute:
    """A request for something the stand-in does not implement (answered 404)."""

    method: str
    path: str
    query: str = ""

    def __str__(self) -> str:
        return f"{self.method} {self.path}{'?' + self.query if self.query else ''}"


@dataclass
class Upload:
    """A file part of a multipart request."""

    index: int
    filename: str
    data: bytes


NONCE_SECONDS = 300.0  # how long Discord holds a nonce for enforce_nonce ("a few minutes")


class World:
    def __init__(self, token: str, clock: Clock, notifier: Notifier) -> None:
        self.token = token
        self.clock = clock
        self.notifier = notifier
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot = User(self.application_id, "Tabula Stand-in Bot", bot=True)
        self.owner = User(self.ids.next(), "standin-owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        # (author, nonce) -> the message and when it was made, for ``enforce_nonce``.
        self.nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        self.nonce_seconds = NONCE_SECONDS  # a test may shorten it (an outage outlasting it)
        # Faults a test sets up: awaited once Discord has a message (before the bot hears
        # back), and before a follow-up is handled (True: its sender died, nothing is made).
        self.after_create: list[Callable[[Message], Awaitable[None]]] = []
        self.before_followup: list[Callable[[InteractionRecord], Awaitable[bool]]] = []
        self.dm_channels: dict[int, Channel] = {}
        self.commands = CommandStore(self.ids, self.application_id)
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.violations: list[Violation] = []
        self.error_responses: list[ErrorResponse] = []
        self.unhandled: list[UnhandledRoute] = []
        self.internal_errors: list[str] = []
        # Requests Discord's OpenAPI description refuses (also filed in ``violations``).
        self.spec_violations: list[Violation] = []
        self.http_base = ""
        self.gateway_url = ""
        self.dispatcher: Dispatcher | None = None

    # -- events ---------------------------------------------------------------------------
    def dispatch(self, event: str, data: JSON, intent: int | None = None) -> None:
        if self.dispatcher is not None:
            self.dispatcher(event, data, intent)
        self.notifier.notify()

    def sweep_deadlines(self) -> None:
        """Files a violation for each interaction left unanswered past the 3 s deadline."""
        now = self.clock.now()
        for record in self.interactions.values():
            if record.acknowledged or record.deadline_flagged:
                continue
            if now - record.created_at > DEADLINE_SECONDS:
                record.deadline_flagged = True
                self.violations.append(
                    Violation(
                        kind="unanswered_interaction",
                        status=404,
                        code=10062,
                        message="Unknown interaction",
                        route=f"INTERACTION {record.id}",
                        details=[f"no accepted answer within {DEADLINE_SECONDS:g} s"],
                        interaction_id=record.id,
                    )
                )

    def record_error(
        self, error: ApiError, route: str, interaction: InteractionRecord | None
    ) -> None:
        self.error_responses.append(ErrorResponse(route, error.status, error.code, error.message))
        if error.violation:
            self.violations.append(
                Violation(
                    kind=error.kind,
                    status=error.status,
                    code=error.code,
                    message=error.message,
                    route=route,
                    details=list(error.details),
                    interaction_id=interaction.id if interaction else None,
                )
            )
        if interaction is not None:
            interaction.errors.append(error)
            if error.kind == "interaction_deadline":
                interaction.deadline_flagged = True
        self.notifier.notify()

    # -- entities -------------------------------------------------------------------------
    def add_guild(self, name: str, bot_permissions: int = BOT_PERMISSIONS,
                  shard: tuple[int, int] | None = None) -> Guild:
        """A server; with ``shard`` (id, count), one whose events reach that gateway shard."""
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(guild_id, name, owner_id=self.owner.id)
        guild.roles.append(Role(guild.id, guild.id, "@everyone", EVERYONE_PERMISSIONS))
        bot_role = Role(self.ids.next(), guild.id, self.bot.name, bot_permissions, 1, managed=True)
        guild.roles.append(bot_role)
        guild.members[self.owner.id] = Member(self.owner, guild)
        guild.members[self.bot.id] = Member(self.bot, guild, [bot_role.id])
        self.guilds[guild.id] = guild
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.ids.next(), guild.id, name, permissions, len(guild.roles))
        guild.roles.append(role)
        return role

    def add_channel(self, guild: Guild, name: str, kind: int = GUILD_TEXT) -> Channel:
        channel = Channel(self.ids.next(), kind, name, guild, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_member(
        self,
        guild: Guild,
        who: str | User,
        *,
        dms_open: bool,
        manage_guild: bool,
        roles: list[Role],
    ) -> Member:
        if isinstance(who, User):
            user = who
        else:
            user = User(self.ids.next(), who, dms_open=dms_open)
            self.users[user.id] = user
        role_ids = [r.id for r in roles]
        if manage_guild:
            managers = guild.role_named("Managers") or self.add_role(
                guild, "Managers", MANAGE_GUILD
            )
            role_ids.append(managers.id)
        member = Member(user, guild, role_ids)
        guild.members[user.id] = member
        return member

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), DM, f"dm-{user.name}", recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def add_thread(
        self, parent: Channel, name: str, kind: int, owner: User, thread_id: int
    ) -> Channel:
        assert parent.guild is not None
        thread = Channel(
            thread_id, kind, name, parent.guild, parent_id=parent.id, owner_id=owner.id
        )
        parent.guild.threads.append(thread)
        self.channels[thread.id] = thread
        self.dispatch("THREAD_CREATE", {**thread.to_json(), "newly_created": True}, GUILDS_INTENT)
        return thread

    def permissions_in(self, channel: Channel, user: User) -> int:
        if channel.guild is None:
            return EVERYONE_PERMISSIONS
        member = channel.guild.members.get(user.id)
        return member.permissions if member else 0

    # -- messages -------------------------------------------------------------------------
    def _attachments(
        self, channel: Channel, payload: JSON, uploads: list[Upload]
    ) -> list[Attachment]:
        described = {
            str(a.get("id")): a for a in payload.get("attachments") or [] if isinstance(a, dict)
        }
        out: list[Attachment] = []
        for upload in uploads:
            meta = described.get(str(upload.index), {})
            filename = str(meta.get("filename") or upload.filename)
            att_id = self.ids.next()
            out.append(
                Attachment(
                    id=att_id,
                    filename=filename,
                    data=upload.data,
                    description=meta.get("description"),
                    content_type=guess_type(filename),
                    url=f"{self.http_base}/attachments/{channel.id}/{att_id}/{filename}",
                )
            )
        return out

    def _apply(
        self, message: Message, payload: JSON, uploads: list[Upload], creating: bool
    ) -> None:
        if "content" in payload:
            message.content = str(payload["content"] or "")
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None and not creating:
            kept = message.flags & (EPHEMERAL | LOADING | COMPONENTS_V2)  # V2 stays once set
            message.flags = kept | (int(payload["flags"]) & SETTABLE_FLAGS)
        new = self._attachments(message.channel, payload, uploads)
        if "attachments" in payload and not creating:
            keep = {str(a.get("id")) for a in payload["attachments"] or [] if isinstance(a, dict)}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments = [*message.attachments, *new]
        mentions = resolve_mentions(
            message.text,  # a card's mentions are in its text displays
            payload.get("allowed_mentions"),
            self.users,
            message.channel.guild,
            replied_user=message.reply_to.author if message.reply_to else None,
        )
        message.mentions = mentions.users
        message.mention_roles = mentions.roles
        message.mention_everyone = mentions.everyone

    def message_with_nonce(self, author: User, nonce: str) -> Message | None:
        """The message ``author`` created with ``nonce`` within the last few minutes."""
        found = self.nonces.get((author.id, nonce))
        if found is None or self.clock.now() - found[1] > self.nonce_seconds:
            return None
        return found[0]

    def remember_nonce(self, message: Message, nonce: str) -> None:
        message.nonce = nonce
        self.nonces[(message.author.id, nonce)] = (message, self.clock.now())

    def create_message(
        self,
        channel: Channel,
        author: User,
        payload: JSON,
        uploads: list[Upload],
        *,
        flags: int = 0,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        reply_to: Message | None = None,
    ) -> Message:
        """Stores a message; ``flags`` are the final flags (callers strip what they may not set)."""
        message = Message(self.ids.next(), channel, author, flags=flags, type=message_type)
        message.reply_to = reply_to
        if interaction is not None:
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            message.interaction_meta = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.to_json(),
                "authorizing_integration_owners": interaction.payload[
                    "authorizing_integration_owners"
                ],
            }
            if message.ephemeral:
                message.visible_to = interaction.user
        self._apply(message, payload, uploads, creating=True)
        channel.messages.append(message)
        self.messages[message.id] = message
        if not message.ephemeral:
            intent = DIRECT_MESSAGES_INTENT if channel.type == DM else GUILD_MESSAGES_INTENT
            self.dispatch("MESSAGE_CREATE", message.event_json(), intent)
        self.notifier.notify()
        return message

    def edit_message(self, message: Message, payload: JSON, uploads: list[Upload]) -> Message:
        was_loading = message.loading
        self._apply(message, payload, uploads, creating=False)
        if was_loading:
            message.flags &= ~LOADING
        else:
            message.edited_timestamp = iso()
            message.edits += 1
        if not message.ephemeral:
            intent = DIRECT_MESSAGES_INTENT if message.channel.type == DM else GUILD_MESSAGES_INTENT
            self.dispatch("MESSAGE_UPDATE", message.event_json(), intent)
        self.notifier.notify()
        return message

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if message in message.channel.messages:
            message.channel.messages.remove(message)
        if not message.ephemeral:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            intent = DIRECT_MESSAGES_INTENT if message.channel.type == DM else GUILD_MESSAGES_INTENT
            self.dispatch("MESSAGE_DELETE", data, intent)
        self.notifier.notify()

    # -- interactions ---------------------------------------------------------------------
    def new_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: JSON,
        message: Message | None = None,
    ) -> InteractionRecord:
        guild = channel.guild
        member = guild.members.get(user.id) if guild else None
        if guild is not None and member is None:
            raise ValueError(f"{user.name} is not a member of {guild.name}")
        interaction_id = self.ids.next()
        token = f"standin.{interaction_id}.{secrets.token_urlsafe(24)}"
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.interaction_json(self.permissions_in(channel, user)),
            "app_permissions": str(self.permissions_in(channel, self.bot)),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None and member is not None:
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.interaction_json(),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.to_json(), authorizing_integration_owners={"0": "0"}, context=1
            )
        if message is not None:
            payload["message"] = message.to_json()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            member=member,
            channel=channel,
            guild=guild,
            payload=payload,
            created_at=self.clock.now(),
            notifier=self.notifier,
            message=message,
            original=message,
        )
        self.interactions[interaction_id] = record
        self.by_token[token] = record
        return record


def clean_payload(value: Any) -> JSON:
    return value if isinstance(value, dict) else {}
